/**
 * Order-pay page of the embedded flow (loaded only there): ask the store for
 * widget settings signed just now, load the widget script, run it. The store
 * signs only values it decides; the secret never reaches this page. A failed
 * payment or an expired rate offers "Try again", which starts over with
 * freshly signed settings (and a fresh fixed rate).
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
  i18n: { loading: string; failed: string; retry: string; error: string; done: string };
}
type RunFunction = (settings: Record<string, unknown>, method?: string) => void;

declare const card2cryptoOrderPay: OrderPayConfig;
const config = card2cryptoOrderPay;
const root = document.querySelector<HTMLElement>('.card2crypto-order-pay');
const statusLine = root?.querySelector<HTMLElement>('.card2crypto-status') ?? null;

function say(message: string, retry = false): void {
  if (!statusLine) {
    return;
  }
  statusLine.textContent = message;
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
  const body = (await response.json().catch(() => ({}))) as { settings?: Record<string, unknown>; message?: string };
  if (!response.ok || !body.settings) {
    throw new Error(body.message || config.i18n.error);
  }
  return body.settings;
}

async function start(): Promise<void> {
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
        onOperationFail: () => say(config.i18n.failed, true),
        onError: (error: { message?: string }) => say(error?.message || config.i18n.error, true),
      },
      'POST',
    );
  } catch (error) {
    say(error instanceof Error ? error.message : config.i18n.error, true);
  }
}

if (root) {
  void start();
}
