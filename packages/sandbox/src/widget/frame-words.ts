/**
 * What the widget frame says to a buyer, in each language the payment page is
 * offered in (core's PAYMENT_PAGE_LANGUAGES; docs/decisions.md, "Widget
 * language"). The frame takes the table of its page's language; `{name}`
 * marks a value the frame fills in. English is buyer-words.ts's, word for
 * word, so the status page and the widget keep saying the same thing.
 * Messages the service's API sends back (a refused field, a refused
 * partner) stay in English, as the test cards' outcomes do.
 */
import { PAYMENT_PAGE_LANGUAGES } from '@card2crypto/core';
import { REASON_WORDS, STEP_WORDS } from '../buyer-words.js';

export interface FrameWords {
  /** <title> and the first step's heading. */
  buyCrypto: string;
  back: string;
  close: string;
  footer: string;
  somethingWrong: string;
  youPay: string;
  youGet: string;
  /** "1 BTC ≈ 60,000.00 EUR · {fee}" */
  partnerFee: string;
  kycAbove: string;
  rateFixedUntil: string;
  continue: string;
  yourDetails: string;
  walletAddress: string;
  email: string;
  country: string;
  card: string;
  cardNumber: string;
  nameOnCard: string;
  month: string;
  monthPlaceholder: string;
  year: string;
  yearPlaceholder: string;
  cvc: string;
  identity: string;
  identityNote: string;
  firstName: string;
  lastName: string;
  birthDate: string;
  documentNumber: string;
  confirm: string;
  toWallet: string;
  for: string;
  operation: string;
  pay: string;
  processing: string;
  done: string;
  notCompleted: string;
  onItsWay: string;
  didNotGoThrough: string;
  viewTransaction: string;
  buyAgain: string;
  tryAgain: string;
  waitingStore: string;
  status: string;
  statusNotCompleted: string;
  statusWaiting: string;
  statusInProgress: string;
  testCards: string;
  enterAmount: string;
  unreachable: string;
  declined: string;
  /** The steps a buyer watches (buyer-words.ts STEP_WORDS' codes, in its order). */
  steps: readonly (readonly [code: number, words: string])[];
  /** Why a declined operation ended (buyer-words.ts REASON_WORDS' codes). */
  reasons: Readonly<Record<number, string>>;
}

const steps = (...words: string[]): FrameWords['steps'] => STEP_WORDS.map(([code], i) => [code, words[i]!] as const);

const EN: FrameWords = {
  buyCrypto: 'Buy crypto',
  back: 'Back',
  close: 'Close',
  footer: 'Sandbox: no real payment is made.',
  somethingWrong: 'Something went wrong',
  youPay: 'You pay',
  youGet: 'You get',
  partnerFee: 'partner fee {fee}',
  kycAbove: 'Identity verification is needed above {amount}.',
  rateFixedUntil: 'Rate fixed until ',
  continue: 'Continue',
  yourDetails: 'Your details',
  walletAddress: '{asset} wallet address',
  email: 'E-mail',
  country: 'Country',
  card: 'Card',
  cardNumber: 'Card number',
  nameOnCard: 'Name on card',
  month: 'Month (MM)',
  monthPlaceholder: 'MM',
  year: 'Year (YY)',
  yearPlaceholder: 'YY',
  cvc: 'CVC',
  identity: 'Identity verification',
  identityNote: 'Purchases of this size need your identity.',
  firstName: 'First name',
  lastName: 'Last name',
  birthDate: 'Date of birth',
  documentNumber: 'ID document number',
  confirm: 'Confirm',
  toWallet: 'To wallet',
  for: 'For',
  operation: 'Operation',
  pay: 'Pay {amount}',
  processing: 'Processing',
  done: 'Done',
  notCompleted: 'Not completed',
  onItsWay: 'Your crypto is on its way.',
  didNotGoThrough: 'The purchase did not go through: {reason}.',
  viewTransaction: 'View the transaction',
  buyAgain: 'Buy again',
  tryAgain: 'Try again',
  waitingStore: 'Waiting for the store to confirm…',
  status: 'Status: {words}',
  statusNotCompleted: 'Status: not completed ({reason})',
  statusWaiting: 'Status: waiting for your payment',
  statusInProgress: 'Status: in progress',
  testCards: 'Test cards (click to use):',
  enterAmount: 'Enter an amount.',
  unreachable: 'The service cannot be reached ({message}).',
  declined: 'declined',
  steps: STEP_WORDS,
  reasons: REASON_WORDS,
};

const DE: FrameWords = {
  buyCrypto: 'Krypto kaufen',
  back: 'Zurück',
  close: 'Schließen',
  footer: 'Sandbox: Es wird keine echte Zahlung ausgeführt.',
  somethingWrong: 'Etwas ist schiefgelaufen',
  youPay: 'Sie zahlen',
  youGet: 'Sie erhalten',
  partnerFee: 'Partnergebühr {fee}',
  kycAbove: 'Über {amount} ist eine Identitätsprüfung erforderlich.',
  rateFixedUntil: 'Kurs garantiert bis ',
  continue: 'Weiter',
  yourDetails: 'Ihre Angaben',
  walletAddress: '{asset}-Wallet-Adresse',
  email: 'E-Mail',
  country: 'Land',
  card: 'Karte',
  cardNumber: 'Kartennummer',
  nameOnCard: 'Name auf der Karte',
  month: 'Monat (MM)',
  monthPlaceholder: 'MM',
  year: 'Jahr (JJ)',
  yearPlaceholder: 'JJ',
  cvc: 'CVC',
  identity: 'Identitätsprüfung',
  identityNote: 'Käufe in dieser Höhe erfordern einen Identitätsnachweis.',
  firstName: 'Vorname',
  lastName: 'Nachname',
  birthDate: 'Geburtsdatum',
  documentNumber: 'Ausweisnummer',
  confirm: 'Bestätigen',
  toWallet: 'An Wallet',
  for: 'Für',
  operation: 'Vorgang',
  pay: '{amount} bezahlen',
  processing: 'Wird verarbeitet',
  done: 'Fertig',
  notCompleted: 'Nicht abgeschlossen',
  onItsWay: 'Ihre Kryptowährung ist unterwegs.',
  didNotGoThrough: 'Der Kauf ist nicht zustande gekommen: {reason}.',
  viewTransaction: 'Transaktion ansehen',
  buyAgain: 'Erneut kaufen',
  tryAgain: 'Erneut versuchen',
  waitingStore: 'Warten auf die Bestätigung durch den Shop…',
  status: 'Status: {words}',
  statusNotCompleted: 'Status: nicht abgeschlossen ({reason})',
  statusWaiting: 'Status: Warten auf Ihre Zahlung',
  statusInProgress: 'Status: in Bearbeitung',
  testCards: 'Testkarten (zum Verwenden anklicken):',
  enterAmount: 'Geben Sie einen Betrag ein.',
  unreachable: 'Der Dienst ist nicht erreichbar ({message}).',
  declined: 'abgelehnt',
  steps: steps('Zahlung eingegangen', 'Identität geprüft', 'Tauschauftrag ausgeführt', 'Auszahlung angefordert', 'Transaktion erstellt', 'Abgeschlossen'),
  reasons: {
    101: 'Zahlung abgelehnt',
    102: 'vor der Zahlung abgebrochen',
    103: 'Identitätsprüfung fehlgeschlagen',
    104: 'Kartenprüfung fehlgeschlagen',
    105: 'die Kursgarantie ist abgelaufen',
    106: 'vom Shop storniert',
  },
};

const ES: FrameWords = {
  buyCrypto: 'Comprar criptomonedas',
  back: 'Atrás',
  close: 'Cerrar',
  footer: 'Sandbox: no se realiza ningún pago real.',
  somethingWrong: 'Algo salió mal',
  youPay: 'Pagas',
  youGet: 'Recibes',
  partnerFee: 'comisión del socio {fee}',
  kycAbove: 'Por encima de {amount} se requiere verificar la identidad.',
  rateFixedUntil: 'Tipo de cambio garantizado hasta las ',
  continue: 'Continuar',
  yourDetails: 'Tus datos',
  walletAddress: 'Dirección del monedero {asset}',
  email: 'Correo electrónico',
  country: 'País',
  card: 'Tarjeta',
  cardNumber: 'Número de tarjeta',
  nameOnCard: 'Nombre en la tarjeta',
  month: 'Mes (MM)',
  monthPlaceholder: 'MM',
  year: 'Año (AA)',
  yearPlaceholder: 'AA',
  cvc: 'CVC',
  identity: 'Verificación de identidad',
  identityNote: 'Las compras de este importe requieren verificar tu identidad.',
  firstName: 'Nombre',
  lastName: 'Apellidos',
  birthDate: 'Fecha de nacimiento',
  documentNumber: 'Número del documento de identidad',
  confirm: 'Confirmar',
  toWallet: 'Al monedero',
  for: 'Para',
  operation: 'Operación',
  pay: 'Pagar {amount}',
  processing: 'Procesando',
  done: 'Listo',
  notCompleted: 'No completada',
  onItsWay: 'Tus criptomonedas están en camino.',
  didNotGoThrough: 'La compra no se ha completado: {reason}.',
  viewTransaction: 'Ver la transacción',
  buyAgain: 'Comprar de nuevo',
  tryAgain: 'Intentar de nuevo',
  waitingStore: 'Esperando la confirmación de la tienda…',
  status: 'Estado: {words}',
  statusNotCompleted: 'Estado: no completada ({reason})',
  statusWaiting: 'Estado: esperando tu pago',
  statusInProgress: 'Estado: en curso',
  testCards: 'Tarjetas de prueba (haz clic para usar una):',
  enterAmount: 'Introduce un importe.',
  unreachable: 'No se puede conectar con el servicio ({message}).',
  declined: 'rechazada',
  steps: steps('Pago recibido', 'Identidad verificada', 'Orden de cambio ejecutada', 'Retiro solicitado', 'Transacción creada', 'Completada'),
  reasons: {
    101: 'pago rechazado',
    102: 'cancelada antes del pago',
    103: 'falló la verificación de identidad',
    104: 'falló la verificación de la tarjeta',
    105: 'el tipo de cambio garantizado caducó',
    106: 'cancelada por la tienda',
  },
};

const FR: FrameWords = {
  buyCrypto: 'Acheter des cryptos',
  back: 'Retour',
  close: 'Fermer',
  footer: 'Sandbox : aucun paiement réel n’est effectué.',
  somethingWrong: 'Un problème est survenu',
  youPay: 'Vous payez',
  youGet: 'Vous recevez',
  partnerFee: 'frais du partenaire {fee}',
  kycAbove: 'Au-delà de {amount}, une vérification d’identité est nécessaire.',
  rateFixedUntil: 'Taux garanti jusqu’à ',
  continue: 'Continuer',
  yourDetails: 'Vos informations',
  walletAddress: 'Adresse du portefeuille {asset}',
  email: 'E-mail',
  country: 'Pays',
  card: 'Carte',
  cardNumber: 'Numéro de carte',
  nameOnCard: 'Nom sur la carte',
  month: 'Mois (MM)',
  monthPlaceholder: 'MM',
  year: 'Année (AA)',
  yearPlaceholder: 'AA',
  cvc: 'CVC',
  identity: 'Vérification d’identité',
  identityNote: 'Les achats de ce montant nécessitent de vérifier votre identité.',
  firstName: 'Prénom',
  lastName: 'Nom',
  birthDate: 'Date de naissance',
  documentNumber: 'Numéro de la pièce d’identité',
  confirm: 'Confirmer',
  toWallet: 'Vers le portefeuille',
  for: 'Pour',
  operation: 'Opération',
  pay: 'Payer {amount}',
  processing: 'Traitement en cours',
  done: 'Terminé',
  notCompleted: 'Non abouti',
  onItsWay: 'Vos cryptos sont en route.',
  didNotGoThrough: 'L’achat n’a pas abouti : {reason}.',
  viewTransaction: 'Voir la transaction',
  buyAgain: 'Acheter à nouveau',
  tryAgain: 'Réessayer',
  waitingStore: 'En attente de la confirmation de la boutique…',
  status: 'Statut : {words}',
  statusNotCompleted: 'Statut : non abouti ({reason})',
  statusWaiting: 'Statut : en attente de votre paiement',
  statusInProgress: 'Statut : en cours',
  testCards: 'Cartes de test (cliquez pour en utiliser une) :',
  enterAmount: 'Saisissez un montant.',
  unreachable: 'Le service est injoignable ({message}).',
  declined: 'refusé',
  steps: steps('Paiement reçu', 'Identité vérifiée', 'Ordre de change exécuté', 'Retrait demandé', 'Transaction créée', 'Terminé'),
  reasons: {
    101: 'paiement refusé',
    102: 'annulé avant le paiement',
    103: 'échec de la vérification d’identité',
    104: 'échec de la vérification de la carte',
    105: 'le taux garanti a expiré',
    106: 'annulé par la boutique',
  },
};

const TABLES: Readonly<Record<string, FrameWords>> = { en: EN, de: DE, es: ES, fr: FR };

/** The languages the sandbox's widget is written in: every language the payment page is offered in. */
export const SANDBOX_LANGUAGES: readonly string[] = Object.freeze(PAYMENT_PAGE_LANGUAGES.map((l) => l.code));

/**
 * The language a frame shows for a requested `lang` (any ISO 639-1 code is
 * accepted, as the spec says): that language when the sandbox is written in
 * it, else English, the spec's default.
 */
export function frameLanguage(lang: unknown): string {
  return typeof lang === 'string' && SANDBOX_LANGUAGES.includes(lang) && TABLES[lang] ? lang : 'en';
}

/** The words of a frame in `lang` (a frameLanguage() answer). */
export function frameWords(lang: string): FrameWords {
  return TABLES[lang] ?? EN;
}
