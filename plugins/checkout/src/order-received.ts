/**
 * The order-received (thank-you) page while the payment is not final (loaded
 * only then, Order_View): asks the store's read-only payment-state route,
 * with back-off (2 s growing to 15 s), and puts its words in place of the
 * page's (an aria-live region), until the payment is final: paid, failed
 * (with the order's pay link) or on hold, and takes WooCommerce's Pay and
 * Cancel order actions away once the payment is anything but failed. After 10
 * minutes it stops and says so. Every text comes from the store: the route's answers and the page's
 * data (card2cryptoOrderReceived).
 */
export interface OrderReceivedConfig {
  rest: string;
  i18n: { pay: string; stopped: string };
}
/** The store's answer (Order_View::answer()). */
export interface PaymentState {
  state: string;
  final: boolean;
  message: string;
  pay_url?: string;
}

export const FIRST_DELAY = 2_000;
export const MAX_DELAY = 15_000;
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
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

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
    let answer: PaymentState | null = null;
    try {
      const response = await fetch(config.rest, { credentials: 'same-origin', cache: 'no-store', headers: { Accept: 'application/json' } });
      const body: unknown = await response.json().catch(() => null);
      answer = response.ok && isState(body) ? body : null;
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

  schedule();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

declare const card2cryptoOrderReceived: OrderReceivedConfig | undefined;
const pageRoot = typeof card2cryptoOrderReceived === 'undefined' ? null : document.querySelector<HTMLElement>('.card2crypto-payment-state');
if (pageRoot) {
  watch(card2cryptoOrderReceived!, pageRoot);
}
