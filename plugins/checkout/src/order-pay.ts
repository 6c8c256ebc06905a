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
 * order's payment page, where a notice says so.
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
  i18n: { loading: string; failed: string; retry: string; error: string; done: string; asking: string };
}
/** The store's answer about a payment the buyer came back from (Order_Pay::rest_returned). */
interface Returned {
  kind: 'paid' | 'failed' | 'in_progress' | 'not_finished' | 'unconfirmed' | 'on_hold';
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

/** The store's refusal, with its link when it has one. */
class Refusal extends Error {
  constructor(
    message: string,
    readonly link?: Link,
  ) {
    super(message);
  }
}

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
  const body = (await response.json().catch(() => ({}))) as { settings?: Record<string, unknown>; message?: string; redirect?: string; link?: Link };
  if (body.redirect) {
    // The service refuses the store: back to the order, where the store says so in plain words (Order_Pay::rest_settings).
    window.location.assign(body.redirect);
  }
  if (!response.ok || !body.settings) {
    throw new Refusal(body.message || config.i18n.error, body.link);
  }
  return body.settings;
}

/** Run number of the widget the buyer sees: a late event of an earlier run is not told again. */
let runNumber = 0;
let told = 0;
/** The words told after a failure while the widget offered its own "Try again": the page's button is added once it closes. */
let withheld: [string, string] | undefined;
/** The last widget run the buyer closed. */
let closedRun = 0;

/**
 * Asks the store what became of the payment and tells the buyer (once per widget run). After a failure the
 * widget stays open on its own "Try again": the page offers its button only once the widget is closed.
 */
async function tellReturn(event: 'fail' | 'exit', current: number): Promise<void> {
  if (current !== runNumber) {
    return;
  }
  if (event === 'exit') {
    closedRun = current;
  }
  if (told === current) {
    if (event === 'exit' && withheld) {
      say(withheld[0], true, withheld[1]);
      withheld = undefined;
    }
    return;
  }
  told = current;
  withheld = undefined;
  // Read once the store has answered: the buyer may have closed the widget meanwhile.
  const offer = () => closedRun === current;
  say(config.i18n.asking);
  try {
    const response = await fetch(config.returned, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-WP-Nonce': config.restNonce },
      body: JSON.stringify({ key: config.key, nonce: config.nonce, event }),
    });
    const body = (await response.json().catch(() => ({}))) as Partial<Returned>;
    if (!response.ok || typeof body.message !== 'string') {
      throw new Error(body.message || config.i18n.failed);
    }
    if (body.kind === 'paid' && body.redirect) {
      say(config.i18n.done, false, 'success');
      window.location.assign(body.redirect);
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
  const target = document.getElementById(config.element);
  if (target) {
    target.textContent = '';
  }
  try {
    const [settings] = await Promise.all([signedSettings(), loadWidgetScript()]);
    const run = runFunction();
    if (!run) {
      throw new Error(config.i18n.error);
    }
    say('');
    run(
      {
        ...settings,
        onOperationSuccess: () => {
          say(config.i18n.done);
          window.location.assign(config.success);
        },
        onOperationFail: () => void tellReturn('fail', current),
        onExit: () => void tellReturn('exit', current),
        onError: (error: { message?: string }) => say(error?.message || config.i18n.error, true),
      },
      'POST',
    );
  } catch (error) {
    say(error instanceof Error ? error.message : config.i18n.error, true, '', error instanceof Refusal ? error.link : undefined);
  }
}

if (root) {
  void start();
}
