/**
 * The order-received (thank-you) page while the payment is not final (loaded
 * only then, Order_View): asks the store's read-only payment-state route,
 * with back-off (2 s growing to 30 s; a hidden page waits until it is seen
 * again, then asks at once), naming the state it shows (`since`:
 * an unchanged state is answered with `{"changed":false}` before the store
 * loads WooCommerce, State_Poll), and puts its words in place of the
 * page's (an aria-live region), until the payment is final: paid, failed
 * (with the order's pay link) or on hold, and takes WooCommerce's Pay and
 * Cancel order actions away once the payment is anything but failed. After 10
 * minutes it stops and says so. Every text comes from the store: the route's answers and the page's
 * data (card2cryptoOrderReceived).
 */
export interface OrderReceivedConfig {
  rest: string;
  /** The version of the state the page was rendered with. */
  v?: string;
  i18n: { pay: string; stopped: string };
}
/** The store's answer (Order_View::answer()). */
export interface PaymentState {
  state: string;
  final: boolean;
  message: string;
  pay_url?: string;
  /** The state's version, named in the next ask. */
  v?: string;
}

/** The address of the next ask: the route, naming the state shown when there is one. */
export function askUrl(rest: string, version: string | undefined): string {
  if (!version) {
    return rest;
  }
  const url = new URL(rest, typeof window === 'undefined' ? undefined : window.location.href);
  url.searchParams.set('since', version);
  return url.href;
}

export const FIRST_DELAY = 2_000;
/**
 * The longest wait: 30 s. Measured (npm run bench, scale section 4): a
 * thousand buyers asking every 15 s slowed the shop page past its goal even
 * with the cheap unchanged answer; every 30 s halves that load.
 */
export const MAX_DELAY = 30_000;
export const GIVE_UP_AFTER = 10 * 60_000;

/** The wait after one of `delay`: half as long again, at most MAX_DELAY. */
export function nextDelay(delay: number): number {
  return Math.min(MAX_DELAY, Math.round(delay * 1.5));
}

function isState(body: unknown): body is PaymentState {
  const answer = body as Partial<PaymentState> | null;
  return Boolean(answer) && typeof answer!.message === 'string' && typeof answer!.final === 'boolean' && typeof answer!.state === 'string';
}

/** An http(s) address, else null (nothing else becomes a link). */
function safeUrl(url: unknown): string | null {
  if (typeof url !== 'string') {
    return null;
  }
  try {
    const parsed = new URL(url, window.location.href);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/**
 * WooCommerce's own "Pay" and "Cancel" order actions, rendered while the
 * order was pending: gone once the payment is anything but failed (paid,
 * under way, on hold), where paying again or cancelling would be wrong. The
 * store refuses both anyway (Buyer_Cancel); the page must not offer them.
 */
export function removeOrderActions(doc: Document = document): void {
  for (const button of Array.from(doc.querySelectorAll<HTMLElement>('.order-actions-button.pay, .order-actions-button.cancel'))) {
    const cell = button.parentElement;
    button.remove();
    if (cell && !cell.querySelector('a, button')) {
      cell.closest('tr')?.remove();
    }
  }
}

/**
 * Keeps the payment state in `root` (Order_View's section) up to date until
 * a final state or GIVE_UP_AFTER; answers a function that stops it.
 */
export function watch(config: OrderReceivedConfig, root: HTMLElement): () => void {
  const words = root.querySelector<HTMLElement>('.card2crypto-payment-words');
  const pay = root.querySelector<HTMLElement>('.card2crypto-payment-pay');
  const started = Date.now();
  let delay = FIRST_DELAY;
  let version = config.v;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  // A check that came due while the page was hidden, done when it is seen again.
  let due = false;

  const show = (answer: PaymentState): void => {
    if (words && words.textContent !== answer.message) {
      words.textContent = answer.message;
    }
    if (words) {
      words.dataset.state = answer.state;
    }
    if (answer.state !== 'failed') {
      removeOrderActions();
    }
    const link = safeUrl(answer.pay_url);
    if (pay && link) {
      const button = document.createElement('a');
      button.className = 'button';
      button.href = link;
      button.textContent = config.i18n.pay;
      pay.replaceChildren(button);
      pay.hidden = false;
    }
  };

  const schedule = (): void => {
    if (Date.now() - started + delay > GIVE_UP_AFTER) {
      stopped = true;
      if (words) {
        words.textContent = `${words.textContent ?? ''} ${config.i18n.stopped}`.trim();
      }
      return;
    }
    timer = setTimeout(() => void check(), delay);
    delay = nextDelay(delay);
  };

  const check = async (): Promise<void> => {
    if (document.visibilityState === 'hidden') {
      due = true;
      return;
    }
    let answer: PaymentState | null = null;
    try {
      const response = await fetch(askUrl(config.rest, version), { credentials: 'same-origin', cache: 'no-store', headers: { Accept: 'application/json' } });
      const body: unknown = await response.json().catch(() => null);
      answer = response.ok && isState(body) ? body : null;
      // {"changed":false} is no state: the page already shows the store's, and asks again after the next wait.
      if (answer) {
        version = typeof answer.v === 'string' ? answer.v : undefined;
      }
    } catch {
      // Offline for a moment, or the store is busy: asked again after the next wait.
    }
    if (stopped) {
      return;
    }
    if (answer) {
      show(answer);
      if (answer.final) {
        stopped = true;
        return;
      }
    }
    schedule();
  };

  const onVisible = (): void => {
    if (due && !stopped && document.visibilityState !== 'hidden') {
      due = false;
      void check();
    }
  };
  document.addEventListener('visibilitychange', onVisible);

  schedule();
  return () => {
    stopped = true;
    clearTimeout(timer);
    document.removeEventListener('visibilitychange', onVisible);
  };
}

declare const card2cryptoOrderReceived: OrderReceivedConfig | undefined;
const pageRoot = typeof card2cryptoOrderReceived === 'undefined' ? null : document.querySelector<HTMLElement>('.card2crypto-payment-state');
if (pageRoot) {
  watch(card2cryptoOrderReceived!, pageRoot);
}
