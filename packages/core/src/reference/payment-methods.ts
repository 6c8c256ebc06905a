/** Card payment methods the service supports (spec: "Supported payment methods"). */
export interface PaymentMethod {
  /** Stable identifier used by the project (not a service code). */
  readonly id: 'visa' | 'maestro' | 'mastercard' | 'sepa' | 'google_pay';
  /** Display name as the spec writes it. */
  readonly name: string;
}

export const PAYMENT_METHODS: readonly PaymentMethod[] = Object.freeze([
  Object.freeze({ id: 'visa', name: 'Visa' }),
  Object.freeze({ id: 'maestro', name: 'Maestro' }),
  Object.freeze({ id: 'mastercard', name: 'MasterCard' }),
  Object.freeze({ id: 'sepa', name: 'SEPA' }),
  Object.freeze({ id: 'google_pay', name: 'Google Pay' }),
] as const);
