/**
 * The buyer's wallet address and e-mail, checked by the rules of core's widget
 * settings validator (to_account for the asset's chain, user_login's e-mail
 * grammar), so the widget form, the settings and the test helper
 * (api/sandbox-operations.ts) can never disagree. Refusals name `to_account`
 * and `email`.
 */
import { validateWidgetSettings } from '@card2crypto/core';
import { invalid } from './api/errors.js';

export function checkBuyer(address: string, toCurrency: string, email: string): void {
  const problems = validateWidgetSettings(
    { target_element: 'form', partner_token: 'form', to_currency: toCurrency, to_account: address, user_login: email },
    { signed: false },
  );
  const wallet = problems.find((p) => p.field === 'to_account');
  if (wallet) {
    throw invalid('to_account', wallet.message.replace(/^to_account/, 'The wallet address'));
  }
  if (problems.some((p) => p.field === 'user_login')) {
    throw invalid('email', 'This e-mail address is not valid.');
  }
}
