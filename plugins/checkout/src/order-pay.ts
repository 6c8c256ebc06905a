/**
 * Order-pay page of the embedded flow (loaded only there): ask the store for
 * widget settings signed just now, load the widget script, run it. The store
 * signs only values it decides; the secret never reaches this page. A failed
 * payment or an expired rate offers "Try again", which starts over with
 * freshly signed settings (and a fresh fixed rate): the page's own button
 * once the widget is closed, the widget's own while it shows its failure
 * (never two on the page). When the widget reports
 * a failure (onOperationFail) or is closed (onExit), the store asks the
 * service about the payment at once (the `returned` route) and the page says
 * what happened and what the buyer can do, in the store's words. When the
 * service refuses the store, the store's answer sends the buyer back to the
 * order's payment page, where a notice says so; an error the widget stops
 * with is never shown in its own words: the store is asked and answers in
 * its own. Each failure the widget reports is told (a second decline's words
 * replace the first's).
 *
 * While the page is open it watches the order (the read-only payment-state
 * route, answered cheaply while nothing changed): a payment started for the
 * order in another window replaces this window's (its widget is removed and
 * the buyer told); a page told that an earlier payment is under way offers
 * nothing that could pay, and updates when that payment ends.
 */
interface OrderPayConfig {
  rest: string;
  key: string;
  nonce: string;
  restNonce: string;
  script: string;
  run: string;
  element: string;
  success: string;
  returned: string;
  /** The order's payment-state route (Order_View), with the order key. */
  state: string;
  i18n: { loading: string; failed: string; retry: string; error: string; done: string; asking: string; replaced: string };
}
/** The payment-state route's answer (Order_View::answer()), or {changed: false} while the state named by `since` holds. */
interface PaymentState {
  changed?: false;
  state?: string;
  final?: boolean;
  message?: string;
  v?: string;
  attempt?: string | null;
  pay_url?: string;
}
/** The store's answer about a payment the buyer came back from (Order_Pay::rest_returned). */
interface Returned {
  kind: 'paid' | 'failed' | 'in_progress' | 'not_finished' | 'unconfirmed' | 'on_hold' | 'replaced' | 'unavailable';
  type: 'error' | 'notice' | 'success';
  message: string;
  retry: boolean;
  redirect?: string;
}
type RunFunction = (settings: Record<string, unknown>, method?: string) => void;

declare const card2cryptoOrderPay: OrderPayConfig;
const config = card2cryptoOrderPay;
const root = document.querySelector<HTMLElement>('.card2crypto-order-pay');
const statusLine = root?.querySelector<HTMLElement>('.card2crypto-status') ?? null;

/** A link the store sends with its words (the service's status page of a payment that stands in the way). */
interface Link {
  url: string;
  text: string;
}

/** The store's refusal, with its link when it has one, and whether pressing "Try again" could help. */
class Refusal extends Error {
  constructor(
    message: string,
    readonly link?: Link,
    readonly retry = true,
  ) {
    super(message);
  }
}

/** An earlier payment stands in the way (money may be moving, or it may still be paid): nothing here may start another. */
const HELD_KINDS = ['in_progress', 'open', 'on_hold'];

function say(message: string, retry = false, type = '', link?: Link): void {
  if (!statusLine) {
    return;
  }
  statusLine.textContent = message;
  statusLine.dataset.type = type;
  if (link && typeof link.text === 'string' && /^https?:\/\//i.test(String(link.url))) {
    const anchor = document.createElement('a');
    anchor.href = link.url;
    anchor.target = '_blank';
    anchor.rel = 'noopener noreferrer';
    anchor.textContent = link.text;
    statusLine.append(' ', anchor);
  }
  if (retry) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'button';
    button.textContent = config.i18n.retry;
    button.addEventListener('click', () => void start());
    statusLine.append(' ', button);
  }
}

let scriptLoaded: Promise<void> | undefined;
function loadWidgetScript(): Promise<void> {
  scriptLoaded ??= new Promise<void>((resolve, reject) => {
    const tag = document.createElement('script');
    tag.src = config.script;
    tag.async = true;
    tag.onload = () => resolve();
    tag.onerror = () => {
      scriptLoaded = undefined;
      reject(new Error('widget script'));
    };
    document.head.append(tag);
  });
  return scriptLoaded;
}

/** "Card2CryptoWidget.run" -> the function at that path of window, bound to its object. */
function runFunction(): RunFunction | undefined {
  let owner: unknown;
  let value: unknown = window;
  for (const part of config.run.split('.')) {
    owner = value;
    value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  }
  return typeof value === 'function' ? (value as RunFunction).bind(owner) : undefined;
}

async function signedSettings(): Promise<Record<string, unknown>> {
  const response = await fetch(config.rest, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', 'X-WP-Nonce': config.restNonce },
    body: JSON.stringify({ key: config.key, nonce: config.nonce }),
  });
  const body = (await response.json().catch(() => ({}))) as {
    settings?: Record<string, unknown>;
    message?: string;
    redirect?: string;
    link?: Link;
    kind?: string;
  };
  if (body.redirect) {
    // The service refuses the store: back to the order, where the store says so in plain words (Order_Pay::rest_settings).
    window.location.assign(body.redirect);
  }
  if (!response.ok || !body.settings) {
    const held = typeof body.kind === 'string' && HELD_KINDS.includes(body.kind);
    if (held) {
      // No widget and no button: the page follows that payment and says when it ends.
      watch();
    }
    throw new Refusal(body.message || config.i18n.error, body.link, !held);
  }
  return body.settings;
}

/** The payment this page's widget runs (its partner_operation_id), '' while none runs. */
let mine = '';
/** The widget was removed because another window took over the payment. */
let replaced = false;
/** This page was told that an earlier payment stands in the way. */
let held = false;

function removeWidget(): void {
  const target = document.getElementById(config.element);
  if (target) {
    target.textContent = '';
  }
}

let watching = false;
let version = '';
let wait = 3000;
let timer: ReturnType<typeof setTimeout> | undefined;
const watchUntil = Date.now() + 60 * 60 * 1000;

/**
 * Follows the order while the page is open (the payment-state route: it
 * reads what the store holds and never asks the service): a later payment
 * of another window replaces this one; a payment that held this page back
 * ends. Asks after 3 s, each wait half as long again up to 20 s, at once
 * when the page is seen again, and stops after an hour.
 */
function watch(): void {
  if (watching || !config.state) {
    return;
  }
  watching = true;
  const later = () => {
    clearTimeout(timer);
    if (Date.now() < watchUntil) {
      timer = setTimeout(() => void look(), wait);
      wait = Math.min(Math.round(wait * 1.5), 20000);
    }
  };
  const look = async () => {
    clearTimeout(timer);
    try {
      const url = new URL(config.state, window.location.href);
      if (version) {
        url.searchParams.set('since', version);
      }
      const response = await fetch(url.href, { credentials: 'same-origin', cache: 'no-store', headers: { Accept: 'application/json' } });
      const body = (await response.json().catch(() => ({}))) as PaymentState;
      if (response.ok && body.changed !== false) {
        version = body.v ?? '';
        if (seen(body)) {
          return;
        }
      }
    } catch {
      // Asked again later.
    }
    later();
  };
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') {
      void look();
    }
  });
  window.addEventListener('focus', () => void look());
  later();
}

/** What a changed state means for this page; true when the watch is over. */
function seen(state: PaymentState): boolean {
  if (state.state === 'paid') {
    say(config.i18n.done, false, 'success');
    window.location.assign(config.success);
    return true;
  }
  if (mine && state.attempt && state.attempt !== mine && !replaced) {
    // Another window started paying the order: this window's payment was ended for it (Start_Gate).
    replaced = true;
    mine = '';
    removeWidget();
    say(config.i18n.replaced, true, 'notice');
    return false;
  }
  if (!mine && held && state.final && typeof state.message === 'string') {
    // The payment that held this page back has ended: the buyer reads how, and may pay.
    held = false;
    say(state.message, Boolean(state.pay_url), state.state === 'failed' ? 'error' : 'notice');
  }
  return false;
}

/** Run number of the widget the buyer sees: a late event of an earlier run is not told again. */
let runNumber = 0;
/** What was told already: each run's close once, each failed operation once (a second decline is told too). */
const told = new Set<string>();
/** The words told after a failure while the widget offered its own "Try again": the page's button is added once it closes. */
let withheld: [string, string] | undefined;
/** The last widget run the buyer closed. */
let closedRun = 0;

/** The operation id a widget event carries (operation_data.operation_info.id), '' when none. */
function operationOf(data: unknown): string {
  const info = data && typeof data === 'object' ? (data as { operation_info?: { id?: unknown } }).operation_info : undefined;
  return info && typeof info.id === 'string' ? info.id : '';
}

/**
 * Asks the store what became of the payment and tells the buyer (once per widget run and operation). After a
 * failure the widget stays open on its own "Try again": the page offers its button only once the widget is closed.
 */
async function tellReturn(event: 'fail' | 'exit' | 'error', current: number, operation = ''): Promise<void> {
  if (current !== runNumber || replaced) {
    return;
  }
  if (event === 'exit') {
    closedRun = current;
  }
  const what = `${current}|${event === 'fail' ? operation : event}`;
  if (told.has(what)) {
    return;
  }
  told.add(what);
  const ask = () =>
    fetch(config.returned, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-WP-Nonce': config.restNonce },
      body: JSON.stringify({ key: config.key, nonce: config.nonce, event, ...(mine ? { attempt: mine } : {}) }),
    });
  if (event === 'exit' && withheld) {
    // The decline told while the widget offered its own "Try again" stays, now with the page's button; the store still
    // hears of the close (the outcome is known then, issue 32 point 3), and a payment that ended paid meanwhile is followed.
    const [message, type] = withheld;
    withheld = undefined;
    say(message, true, type);
    void ask()
      .then(async (response) => {
        const answer = (await response.json().catch(() => ({}))) as Partial<Returned>;
        if (answer.kind === 'paid' && answer.redirect && current === runNumber) {
          say(config.i18n.done, false, 'success');
          window.location.assign(answer.redirect);
        }
      })
      .catch(() => {});
    return;
  }
  withheld = undefined;
  // Read once the store has answered: the buyer may have closed the widget meanwhile.
  const offer = () => closedRun === current;
  say(config.i18n.asking);
  try {
    const response = await ask();
    const body = (await response.json().catch(() => ({}))) as Partial<Returned>;
    if (!response.ok || typeof body.message !== 'string') {
      throw new Error(body.message || config.i18n.failed);
    }
    if (current !== runNumber) {
      return;
    }
    if (body.redirect) {
      // Paid: to the order's page. The service refuses the store: back to the order, told in the store's words.
      say(body.kind === 'paid' ? config.i18n.done : body.message, false, body.kind === 'paid' ? 'success' : 'error');
      window.location.assign(body.redirect);
      return;
    }
    if (body.kind === 'replaced') {
      replaced = true;
      mine = '';
      removeWidget();
      say(body.message, Boolean(body.retry), body.type ?? 'notice');
      return;
    }
    say(body.message, Boolean(body.retry) && offer(), body.type ?? 'notice');
    withheld = body.retry && !offer() ? [body.message, body.type ?? 'notice'] : undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : config.i18n.failed;
    say(message, offer(), 'error');
    withheld = offer() ? undefined : [message, 'error'];
  }
}

async function start(): Promise<void> {
  const current = ++runNumber;
  say(config.i18n.loading);
  removeWidget();
  mine = '';
  replaced = false;
  try {
    const [settings] = await Promise.all([signedSettings(), loadWidgetScript()]);
    const run = runFunction();
    if (!run) {
      throw new Error(config.i18n.error);
    }
    say('');
    held = false;
    mine = typeof settings.partner_operation_id === 'string' ? settings.partner_operation_id : '';
    watch();
    run(
      {
        ...settings,
        onOperationSuccess: () => {
          say(config.i18n.done);
          window.location.assign(config.success);
        },
        onOperationFail: (data: unknown) => void tellReturn('fail', current, operationOf(data)),
        onExit: () => void tellReturn('exit', current),
        // The widget's own message is the service's (e.g. "Partner blocked."): the store says what it knows, in its words.
        onError: () => void tellReturn('error', current),
      },
      'POST',
    );
  } catch (error) {
    const refusal = error instanceof Refusal ? error : undefined;
    held = refusal !== undefined && !refusal.retry;
    say(error instanceof Error ? error.message : config.i18n.error, refusal?.retry ?? true, '', refusal?.link);
  }
}

if (root) {
  void start();
}
