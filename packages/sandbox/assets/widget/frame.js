/*
 * The widget frame: the purchase flow shown inside the partner's page.
 * amount -> your details (wallet, e-mail, country; the operation is created)
 * -> card -> identity (above the KYC threshold) -> confirm (Pay) -> progress
 * -> result. Every documented event goes to the parent page by postMessage,
 * to the parent's origin only, tagged with this widget instance.
 * Amounts are parsed and formatted with core's money functions.
 */
import { formatMinorUnits, toMinorUnits } from '/widget/core/browser.js';

const boot = JSON.parse(document.getElementById('c2c-boot').textContent);
const app = document.getElementById('app');
// Everything the frame says, in the page's language (src/widget/frame-words.ts).
const W = boot.words;

/** A phrase of W with its {name} parts filled in. */
function say(text, values) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}
const POLL_MS = 300;

// ------------------------------------------------------------ messaging

function emit(event, data) {
  const target = boot.parentOrigin || '*';
  // Without a known parent origin only the error may be told (it carries nothing private).
  if (target === '*' && event !== 'error' && event !== 'loaded') {
    return;
  }
  window.parent.postMessage({ protocol: boot.protocol, instance: boot.instance, event, data }, target);
}

window.addEventListener('message', (event) => {
  if (event.source !== window.parent || event.origin !== boot.parentOrigin) {
    return;
  }
  const msg = event.data;
  if (!msg || msg.protocol !== boot.protocol || msg.instance !== boot.instance) {
    return;
  }
  if (msg.command === 'close') {
    close();
  }
});

// ------------------------------------------------------------ size

let loaded = false;
let lastSize = '';
function measure() {
  const rect = app.getBoundingClientRect();
  const style = getComputedStyle(app);
  return {
    width: Math.round(rect.width + parseFloat(style.marginLeft) + parseFloat(style.marginRight)),
    height: Math.ceil(rect.height + parseFloat(style.marginTop) + parseFloat(style.marginBottom)),
  };
}
new ResizeObserver(() => {
  const size = measure();
  const key = `${size.width}x${size.height}`;
  if (key === lastSize) {
    return;
  }
  lastSize = key;
  if (!loaded) {
    loaded = true;
    emit('loaded', size);
    afterLoad();
  } else {
    emit('resize', size);
  }
}).observe(app);

// ------------------------------------------------------------ DOM helpers

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) {
      continue;
    }
    if (key.startsWith('on')) {
      node.addEventListener(key.slice(2), value);
    } else if (key === 'value') {
      node.value = value;
    } else {
      node.setAttribute(key, value === true ? '' : String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) {
      continue;
    }
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function field(label, input, name) {
  return el('div', { class: 'field' }, el('label', { for: input.id }, label), input, el('div', { class: 'error', 'data-error-for': name }));
}

function showErrors(error) {
  for (const node of app.querySelectorAll('.error')) {
    node.textContent = '';
  }
  const name = error && error.field;
  const slot = (name && app.querySelector(`[data-error-for="${CSS.escape(name)}"]`)) || app.querySelector('[data-error-for="form"]');
  if (slot) {
    slot.textContent = error.message;
  }
}

// ------------------------------------------------------------ state

const fiatBy = new Map((boot.fiat || []).map((f) => [f.code, f]));
const cryptoBy = new Map((boot.crypto || []).map((c) => [c.symbol, c]));
let state;

function initialState() {
  const p = boot.prefill || {};
  const fiat = fiatBy.get(p.from_currency) || fiatBy.get('EUR');
  const fromMinor = p.from_amount !== null && p.from_amount !== undefined ? String(p.from_amount) : null;
  return {
    step: 'amount',
    fromCurrency: fiat ? fiat.code : 'EUR',
    toCurrency: p.to_currency || 'BTC',
    fromText: fromMinor ? formatMinorUnits(fromMinor, fiat.code) : p.to_amount ? '' : defaultAmount(fiat),
    toAmountPrefill: !fromMinor && p.to_amount ? String(p.to_amount) : null,
    quote: null,
    toAccount: p.to_account || '',
    email: p.user_login || '',
    country: browserCountry() || boot.defaultCountry || 'DE',
    card: { number: '', holder: '', month: '', year: '', cvc: '' },
    kyc: { first_name: '', last_name: '', birth_date: '', document_number: '' },
    operation: null,
    data: null,
    seen: new Set(),
    outcome: null,
  };
}

function defaultAmount(fiat) {
  if (!fiat) {
    return '100';
  }
  const hundred = BigInt(100) * BigInt(10) ** BigInt(fiat.decimals);
  const min = BigInt(fiat.min);
  return formatMinorUnits(String(hundred > min ? hundred : min), fiat.code);
}

function cryptoText(minor, symbol) {
  const text = formatMinorUnits(String(minor), symbol);
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** The country of the browser's language (de-AT -> AT), when the service lists it. */
function browserCountry() {
  const listed = new Set((boot.countries || []).map((c) => c.alpha2));
  for (const tag of navigator.languages || [navigator.language]) {
    const region = /^[a-z]{2,3}[-_]([A-Z]{2})\b/i.exec(String(tag || ''));
    if (region && listed.has(region[1].toUpperCase())) {
      return region[1].toUpperCase();
    }
  }
  return '';
}

/** A rate (a decimal string, fiat per whole crypto unit) as the fiat is written: its own decimals, grouped. */
function rateText(rate, code) {
  const fiat = fiatBy.get(code);
  const decimals = fiat ? fiat.decimals : 2;
  const [whole, fraction = ''] = String(rate).split('.');
  // Rounded half up on the digits themselves: a display, never an amount.
  let digits = (whole + fraction.padEnd(decimals, '0').slice(0, decimals)).replace(/^0+(?=\d)/, '');
  if (Number(fraction.charAt(decimals) || '0') >= 5) {
    digits = (BigInt(digits) + 1n).toString();
  }
  digits = digits.padStart(decimals + 1, '0');
  const intPart = digits.slice(0, digits.length - decimals).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return decimals > 0 ? `${intPart}.${digits.slice(-decimals)}` : intPart;
}

/** A time in the buyer's locale (the browser's language and time zone). */
function localTime(ms) {
  return new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' }).format(new Date(ms));
}

function fiatText(minor, code) {
  return formatMinorUnits(String(minor), code);
}

// ------------------------------------------------------------ service calls

class FlowError extends Error {
  constructor(status, body) {
    super((body && body.error && body.error.message) || `HTTP ${status}`);
    this.status = status;
    this.field = body && body.error && body.error.field;
    this.code = body && body.error && body.error.code;
  }
}

async function call(path, body) {
  let response;
  try {
    response = await fetch(`/widget/api/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, session: boot.session }),
    });
  } catch (error) {
    fatal(say(W.unreachable, { message: error.message }));
    throw error;
  }
  const json = await response.json().catch(() => null);
  if (response.ok) {
    return json;
  }
  const error = new FlowError(response.status, json);
  // A session or partner refused mid-flow stops the process.
  if (response.status === 403 || response.status >= 500) {
    fatal(error.message);
  }
  throw error;
}

// ------------------------------------------------------------ steps

function header(title, back) {
  return el(
    'div',
    { class: 'head' },
    back ? el('button', { class: 'icon-button back', type: 'button', 'aria-label': W.back, onclick: back }, '←') : null,
    el('h1', {}, title),
    el('button', { class: 'icon-button close', type: 'button', 'aria-label': W.close, onclick: close }, '×'),
  );
}

function footer() {
  return el('div', { class: 'foot' }, W.footer);
}

function render() {
  const view = VIEWS[state.step]();
  app.replaceChildren(...view.filter((node) => node !== null && node !== undefined && node !== false), footer());
  app.dataset.step = state.step;
}

const VIEWS = {
  error() {
    return [header(W.somethingWrong), el('p', { class: 'error-message' }, state.error)];
  },

  amount() {
    const fixed = boot.fixed;
    const fiatSelect = el(
      'select',
      {
        id: 'from_currency',
        name: 'from_currency',
        disabled: !!fixed,
        onchange: (e) => {
          state.fromCurrency = e.target.value;
          requote();
        },
      },
      [...fiatBy.values()].map((f) => el('option', { value: f.code, selected: f.code === state.fromCurrency }, `${f.code}`)),
    );
    const cryptoSelect = el(
      'select',
      {
        id: 'to_currency',
        name: 'to_currency',
        disabled: !!fixed,
        onchange: (e) => {
          state.toCurrency = e.target.value;
          requote();
        },
      },
      [...cryptoBy.values()].map((c) =>
        el('option', { value: c.symbol, selected: c.symbol === state.toCurrency }, c.ticker === c.symbol ? c.symbol : `${c.ticker} (${c.chain})`),
      ),
    );
    const amountInput = el('input', {
      id: 'from_amount',
      name: 'from_amount',
      inputmode: 'decimal',
      autocomplete: 'off',
      value: state.fromText,
      disabled: !!fixed,
      class: 'amount',
      oninput: (e) => {
        state.fromText = e.target.value;
        state.toAmountPrefill = null;
        requote();
      },
    });
    const q = state.quote;
    const asset = cryptoBy.get(state.toCurrency);
    const fiat = fiatBy.get(state.fromCurrency);
    return [
      header(W.buyCrypto),
      el(
        'div',
        { class: 'field' },
        el('label', { for: 'from_amount' }, W.youPay),
        el('div', { class: 'row' }, amountInput, fiatSelect),
        el('div', { class: 'error', 'data-error-for': 'from_amount' }),
      ),
      el(
        'div',
        { class: 'field' },
        el('label', { for: 'to_currency' }, W.youGet),
        el('div', { class: 'row' }, el('div', { class: 'amount', id: 'to_amount' }, q ? cryptoText(q.to_amount, q.to_currency) : '—'), cryptoSelect),
        el('div', { class: 'currency-name' }, asset ? asset.name : ''),
        el('div', { class: 'error', 'data-error-for': 'to_amount' }),
      ),
      q
        ? el(
            'div',
            { class: 'note', id: 'rate' },
            `1 ${asset ? asset.ticker : q.to_currency} ≈ ${rateText(q.rate, q.from_currency)} ${q.from_currency} · ${say(W.partnerFee, { fee: `${cryptoText(q.fee_amount, q.to_currency)} ${asset ? asset.ticker : ''}`.trim() })}`,
          )
        : null,
      q && q.kyc_required && fiat
        ? el('div', { class: 'note', id: 'kyc-note' }, say(W.kycAbove, { amount: `${fiatText(fiat.kyc, fiat.code)} ${fiat.code}` }))
        : null,
      fixed ? el('div', { class: 'note' }, W.rateFixedUntil, el('span', { class: 'timer', id: 'fixed-until' }, localTime(fixed.expires_at))) : null,
      el('div', { class: 'error', 'data-error-for': 'form' }),
      el('button', { class: 'primary', id: 'continue', type: 'button', disabled: !q, onclick: () => go('details') }, W.continue),
    ];
  },

  details() {
    const countries = el(
      'select',
      { id: 'country', name: 'country', onchange: (e) => (state.country = e.target.value) },
      (boot.countries || []).map((c) => el('option', { value: c.alpha2, selected: c.alpha2 === state.country }, c.name)),
    );
    const asset = cryptoBy.get(state.toCurrency);
    return [
      header(W.yourDetails, () => go('amount')),
      field(
        say(W.walletAddress, { asset: asset ? asset.ticker : state.toCurrency }),
        el('input', {
          id: 'to_account',
          name: 'to_account',
          autocomplete: 'off',
          spellcheck: 'false',
          value: state.toAccount,
          oninput: (e) => (state.toAccount = e.target.value),
        }),
        'to_account',
      ),
      field(
        W.email,
        el('input', { id: 'email', name: 'email', type: 'email', autocomplete: 'email', value: state.email, oninput: (e) => (state.email = e.target.value) }),
        'email',
      ),
      field(W.country, countries, 'country'),
      el('div', { class: 'error', 'data-error-for': 'form' }),
      el('button', { class: 'primary', id: 'continue', type: 'button', onclick: createOperation }, W.continue),
    ];
  },

  card() {
    const c = state.card;
    const input = (id, attrs) => el('input', { id, name: id, value: c[id.replace('card_', '')] ?? '', ...attrs });
    const set = (key) => (e) => (state.card[key] = e.target.value);
    return [
      header(W.card, abandonAndGoBack),
      field(W.cardNumber, input('card_number', { inputmode: 'numeric', autocomplete: 'cc-number', value: c.number, oninput: set('number') }), 'card_number'),
      field(W.nameOnCard, input('card_holder', { autocomplete: 'cc-name', value: c.holder, oninput: set('holder') }), 'card_holder'),
      el(
        'div',
        { class: 'row' },
        field(
          W.month,
          input('expiry_month', { inputmode: 'numeric', maxlength: 2, placeholder: W.monthPlaceholder, value: c.month, oninput: set('month') }),
          'expiry_month',
        ),
        field(
          W.year,
          input('expiry_year', { inputmode: 'numeric', maxlength: 4, placeholder: W.yearPlaceholder, value: c.year, oninput: set('year') }),
          'expiry_year',
        ),
        field(W.cvc, input('cvc', { inputmode: 'numeric', maxlength: 4, value: c.cvc, oninput: set('cvc') }), 'cvc'),
      ),
      el('div', { class: 'error', 'data-error-for': 'form' }),
      el(
        'button',
        { class: 'primary', id: 'continue', type: 'button', onclick: () => go(state.quote && state.quote.kyc_required ? 'kyc' : 'confirm') },
        W.continue,
      ),
      testCards(),
    ];
  },

  kyc() {
    const k = state.kyc;
    const input = (id, attrs) => el('input', { id, name: id, value: k[id], oninput: (e) => (state.kyc[id] = e.target.value), ...attrs });
    return [
      header(W.identity, () => go('card')),
      el('p', { class: 'note' }, W.identityNote),
      el(
        'div',
        { class: 'row' },
        field(W.firstName, input('first_name', { autocomplete: 'given-name' }), 'kyc.first_name'),
        field(W.lastName, input('last_name', { autocomplete: 'family-name' }), 'kyc.last_name'),
      ),
      field(W.birthDate, input('birth_date', { type: 'date' }), 'kyc.birth_date'),
      field(W.documentNumber, input('document_number', {}), 'kyc.document_number'),
      el('div', { class: 'error', 'data-error-for': 'form' }),
      el('button', { class: 'primary', id: 'continue', type: 'button', onclick: () => go('confirm') }, W.continue),
    ];
  },

  confirm() {
    const q = state.quote;
    const asset = cryptoBy.get(q.to_currency);
    const digits = state.card.number.replace(/\D/g, '');
    const row = (label, value) => el('tr', {}, el('th', {}, label), el('td', {}, value));
    return [
      header(W.confirm, () => go(state.quote.kyc_required ? 'kyc' : 'card')),
      el(
        'table',
        { class: 'summary' },
        row(W.youPay, `${fiatText(q.from_amount, q.from_currency)} ${q.from_currency}`),
        row(W.youGet, `${cryptoText(q.to_amount, q.to_currency)} ${asset ? asset.ticker : q.to_currency}`),
        row(W.toWallet, state.toAccount),
        row(W.card, `•••• ${digits.slice(-4)}`),
        payee() ? row(W.for, payee()) : null,
        row(W.operation, state.operation),
      ),
      el('div', { class: 'error', 'data-error-for': 'form' }),
      el(
        'button',
        { class: 'primary', id: 'pay', type: 'button', onclick: pay },
        say(W.pay, { amount: `${fiatText(q.from_amount, q.from_currency)} ${q.from_currency}` }),
      ),
    ];
  },

  progress() {
    return [header(W.processing), statusList(), el('p', { class: 'note', id: 'status' }, statusLine())];
  },

  done() {
    const d = state.data;
    const ok = state.outcome === 'success';
    const info = d && d.operation_info && d.operation_info.to && d.operation_info.to.withdrawal_method_info;
    return [
      header(ok ? W.done : W.notCompleted),
      el(
        'div',
        { class: `result ${ok ? 'ok' : 'fail'}`, id: 'result' },
        el('div', { class: 'badge' }, ok ? '✓' : '!'),
        el('p', {}, ok ? W.onItsWay : say(W.didNotGoThrough, { reason: reason(d.status_code) })),
        info && info.blockchain_explorer_url
          ? el('a', { class: 'link', href: info.blockchain_explorer_url, target: '_blank', rel: 'noopener', id: 'tx-link' }, W.viewTransaction)
          : null,
      ),
      el('p', { class: 'note', id: 'status' }, statusLine()),
      el('button', { class: 'primary', id: 'again', type: 'button', onclick: restart }, ok ? W.buyAgain : W.tryAgain),
    ];
  },
};

// The words for each state, in the page's language (frame-words.ts; its English is the status page's, buyer-words.ts).
const REASONS = W.reasons || {};
function reason(code) {
  return REASONS[code] || W.declined;
}

const STEP_LABELS = W.steps || [];

/** Whom the buyer pays and for what ("card2crypto demo store · order 42"), or ''. */
function payee() {
  const p = boot.payee;
  return p ? [p.name, p.reference].filter(Boolean).join(' · ') : '';
}
const ORDER = [1, 2, 3, 8, 9, 4, 7, 6, 0];
function statusList() {
  const code = state.data ? state.data.status_code : 1;
  const at = ORDER.indexOf(code);
  return el(
    'ul',
    { class: 'steps' },
    STEP_LABELS.map(([c, label]) => {
      const i = ORDER.indexOf(c);
      return el('li', { class: at >= i ? 'done' : at + 1 === i || (code === 8 && c === 4) ? 'current' : '' }, label);
    }),
  );
}
function statusLine() {
  const d = state.data;
  if (!d) {
    return '';
  }
  if (d.status === 'awaiting confirm') {
    return W.waitingStore;
  }
  // Words, as a buyer reads them; the codes are for the partner (status page, dashboard).
  const step = STEP_LABELS.find(([code]) => code === d.status_code);
  if (step) {
    return say(W.status, { words: step[1] });
  }
  if (d.status === 'declined') {
    return say(W.statusNotCompleted, { reason: reason(d.status_code) });
  }
  return d.status_code === 1 ? W.statusWaiting : W.statusInProgress;
}

function testCards() {
  return el(
    'div',
    { class: 'test-cards' },
    W.testCards,
    el(
      'ul',
      {},
      (boot.testCards || []).map((c) =>
        el(
          'li',
          {},
          el('button', { type: 'button', 'data-card': c.number, onclick: () => useCard(c.number) }, c.number.replace(/(\d{4})(?=\d)/g, '$1 ')),
          ` ${c.outcome}`,
        ),
      ),
    ),
  );
}

function useCard(number) {
  const year = String(new Date().getFullYear() + 3).slice(-2);
  state.card = { number: number.replace(/(\d{4})(?=\d)/g, '$1 '), holder: state.card.holder || 'TEST BUYER', month: '12', year, cvc: '123' };
  render();
}

// ------------------------------------------------------------ actions

let quoteTimer = null;
let quoteSeq = 0;
function requote() {
  clearTimeout(quoteTimer);
  state.quote = null;
  const button = app.querySelector('#continue');
  if (button) {
    button.disabled = true;
  }
  quoteTimer = setTimeout(fetchQuote, 250);
}

async function fetchQuote() {
  const seq = ++quoteSeq;
  const body = { from_currency: state.fromCurrency, to_currency: state.toCurrency };
  if (!boot.fixed) {
    if (state.toAmountPrefill) {
      body.to_amount = state.toAmountPrefill;
    } else {
      try {
        body.from_amount = String(toMinorUnits(state.fromText.trim().replace(',', '.'), state.fromCurrency));
      } catch (error) {
        render();
        showErrors({ field: 'from_amount', message: state.fromText.trim() === '' ? W.enterAmount : error.message });
        return;
      }
    }
  }
  try {
    const quote = await call('quote', body);
    if (seq !== quoteSeq) {
      return;
    }
    state.quote = quote;
    if (state.toAmountPrefill) {
      state.fromText = fiatText(quote.from_amount, quote.from_currency);
    }
    if (state.step === 'amount') {
      rerenderKeepingFocus();
    }
  } catch (error) {
    if (seq !== quoteSeq || !(error instanceof FlowError) || error.status !== 400) {
      return;
    }
    rerenderKeepingFocus();
    showErrors(error.field === 'to_amount' && !state.toAmountPrefill ? { ...error, field: 'from_amount' } : error);
  }
}

function rerenderKeepingFocus() {
  const active = document.activeElement && document.activeElement.id;
  const caret = active === 'from_amount' ? document.activeElement.selectionStart : null;
  render();
  if (active) {
    const node = document.getElementById(active);
    if (node) {
      node.focus();
      if (caret !== null && node.setSelectionRange) {
        node.setSelectionRange(caret, caret);
      }
    }
  }
}

function go(step) {
  state.step = step;
  render();
  const first = app.querySelector('input:not([disabled]), select:not([disabled])');
  if (first && step !== 'amount') {
    first.focus();
  }
}

async function createOperation() {
  const q = state.quote;
  try {
    const body = { from_currency: q.from_currency, to_currency: q.to_currency, to_account: state.toAccount, email: state.email, country: state.country };
    // A purchase asked by to_amount keeps exactly that amount; otherwise the fiat amount decides.
    if (state.toAmountPrefill) {
      body.to_amount = state.toAmountPrefill;
    } else {
      body.from_amount = q.from_amount;
    }
    const created = await call('operations', body);
    state.operation = created.operation_id;
    state.data = created.operation_data;
    state.quote = created.quote;
    emit('operationCreated', created.operation_id);
    go('card');
  } catch (error) {
    if (error instanceof FlowError && error.status === 400) {
      showErrors(error);
    }
  }
}

/** Leaving the card step abandons the unpaid operation (declined 102). */
async function abandonAndGoBack() {
  await abandon('went back');
  if (state.step !== 'error') {
    go('details');
  }
}

async function abandon(why) {
  if (!state.operation || (state.data && state.data.status_code !== 1) || state.step === 'progress' || state.step === 'done') {
    return;
  }
  const id = state.operation;
  state.operation = null;
  try {
    const result = await call(`operations/${encodeURIComponent(id)}/abandon`, { reason: why });
    state.data = result.operation_data;
    emit('operationFail', result.operation_data);
  } catch {
    // reported by call() when it stops the process
  }
}

async function pay() {
  const button = app.querySelector('#pay');
  if (button) {
    button.disabled = true;
  }
  emit('paymentSent');
  const c = state.card;
  const body = { card_number: c.number, card_holder: c.holder, expiry_month: c.month, expiry_year: c.year, cvc: c.cvc };
  if (state.quote.kyc_required) {
    body.kyc = { ...state.kyc };
  }
  try {
    const result = await call(`operations/${encodeURIComponent(state.operation)}/pay`, body);
    state.data = result.operation_data;
    state.step = 'progress';
    render();
    emit('operationPending', result.operation_data);
    state.seen.add(`${result.operation_data.status} ${result.operation_data.status_code}`);
    poll();
  } catch (error) {
    if (!(error instanceof FlowError) || error.status !== 400) {
      return;
    }
    const back = String(error.field || '').startsWith('kyc') ? 'kyc' : 'card';
    go(back);
    showErrors(error);
  }
}

async function poll() {
  const id = state.operation;
  while (state.operation === id && (state.step === 'progress' || state.step === 'done')) {
    let result;
    try {
      result = await call(`operations/${encodeURIComponent(id)}`, {});
    } catch {
      return;
    }
    if (state.operation !== id) {
      return;
    }
    const d = result.operation_data;
    const key = `${d.status} ${d.status_code}`;
    const changed = !state.data || state.data.status_code !== d.status_code;
    state.data = d;
    if (!state.seen.has(key)) {
      state.seen.add(key);
      if (d.status === 'success' && state.outcome === null) {
        state.outcome = 'success';
        state.step = 'done';
        render();
        emit('operationSuccess', d);
      } else if (d.status === 'declined' && state.outcome === null) {
        state.outcome = 'fail';
        state.step = 'done';
        render();
        emit('operationFail', d);
      } else if (d.status === 'pending' || d.status === 'awaiting confirm') {
        render();
        emit('operationPending', d);
      } else if (changed) {
        render();
      }
    }
    if (d.status_code === 0 || d.status === 'declined') {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function restart() {
  const keep = { toAccount: state.toAccount, email: state.email, country: state.country };
  state = { ...initialState(), ...keep };
  render();
  emit('started');
  requote();
}

async function close() {
  await abandon('closed the widget');
  state.operation = null;
  emit('exit');
}

function fatal(message) {
  if (state.step === 'error') {
    return;
  }
  state.operation = null;
  state.step = 'error';
  state.error = message;
  render();
  emit('error', { message });
}

function afterLoad() {
  if (boot.error) {
    emit('error', { message: boot.error });
    return;
  }
  emit('started');
  requote();
}

// ------------------------------------------------------------ start

if (boot.error) {
  state = { step: 'error', error: boot.error };
} else {
  state = initialState();
}
render();
