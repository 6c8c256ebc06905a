/**
 * Front-end of the purchase widget block: no framework, under a kilobyte.
 * It asks the sign route once for all the block containers on the page
 * (settings signed at this moment), loads the widget script once, and runs
 * a widget in each container; a container follows its widget's size
 * (onLoaded/onResize) and shows a readable message when the settings or
 * the service fail (onError). A visitor who closes a widget (onExit: the
 * widget removes its frame) gets a short message and a button that starts
 * it again, with settings signed anew (the timestamp window is 30 s ahead
 * and 5 s behind, so the first settings are never reused).
 *
 * The page itself carries no signature: it may be served from a cache long
 * after it was made, and the timestamp is stamped by the server when asked.
 */

/** Global object the widget script defines; its run(settings, 'POST') starts a widget (docs/decisions.md). */
const WIDGET_GLOBAL = 'Card2CryptoWidget';

interface SignResult {
  settings?: Record<string, unknown>;
  message?: string;
}

interface SignAnswer {
  script?: string;
  results?: SignResult[];
  message?: string;
}

interface WidgetScript {
  run: (settings: Record<string, unknown>, method: string) => unknown;
}

/** The widget's event handlers (spec, "Widget event handlers"). */
const EVENTS = 'onLoaded onResize onExit onError onStarted onOperationCreated onPaymentSent onOperationSuccess onOperationPending onOperationFail';

const pageScripts: Record<string, Promise<unknown>> = ((window as unknown as { c2cScripts?: Record<string, Promise<unknown>> }).c2cScripts ??= {});

/** The widget script, loaded at most once per page whatever the number of blocks. */
const loadScript = (src: string): Promise<unknown> =>
  (pageScripts[src] ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.onload = resolve;
    script.onerror = reject;
    document.head.append(script);
  }));

/**
 * Replaces a container's content with a message. The server's and the
 * widget's messages are readable; network and script failures get the
 * site's own (translated) text instead of "Failed to fetch".
 */
const show = (frame: HTMLElement, message?: string): void => {
  const p = document.createElement('p');
  p.className = 'c2c-widget__error';
  p.setAttribute('role', 'alert');
  p.textContent = message || frame.dataset.c2cFail || '';
  frame.style.height = '';
  frame.replaceChildren(p);
};

/**
 * After the visitor closed the widget: the block's (translated) message and a
 * button that asks the sign route again, as the first start did.
 */
const closed = (frame: HTMLElement): void => {
  const p = document.createElement('p');
  const again = document.createElement('button');
  p.className = 'c2c-widget__closed';
  p.setAttribute('role', 'status');
  p.textContent = frame.dataset.c2cClosed || '';
  again.type = 'button';
  again.className = 'c2c-widget__again wp-element-button';
  again.textContent = frame.dataset.c2cAgain || '';
  again.onclick = () => {
    again.disabled = true;
    // A new start may again be retried once if the service refuses it.
    delete frame.dataset.c2cRetried;
    sign([frame]);
  };
  frame.style.height = '';
  frame.replaceChildren(p, again);
  // The × that had the focus went with the widget's frame.
  again.focus();
};

/** Runs the widget in a container with freshly signed settings. */
const run = (frame: HTMLElement, settings: Record<string, unknown>): void => {
  let started = false;
  const handlers: Record<string, (payload?: unknown) => void> = {};
  for (const event of EVENTS.split(' ')) {
    handlers[event] = (payload?: unknown) => {
      const height = (payload as { height?: number } | undefined)?.height;
      if (event === 'onStarted') {
        started = true;
      }
      if (event === 'onError') {
        // A start the service refuses (onError before onStarted: e.g. the answer took
        // longer than the 5 s the timestamp may lag, on a busy host) is tried once more
        // with settings signed anew; any other error is shown.
        if (!started && frame.dataset.c2cRetried === undefined) {
          return void ((frame.dataset.c2cRetried = ''), sign([frame]));
        }
        // The service's own text ("Wrong signature: …") is for the site's admin, not for a visitor: the block's short words.
        show(frame);
      } else if (event === 'onExit') {
        closed(frame);
      } else if ((event === 'onLoaded' || event === 'onResize') && height! > 0) {
        frame.style.height = `${height}px`;
      }
      // Every widget event is also a DOM event ("card2crypto-widget", detail { event, data })
      // bubbling from the block, so a theme or a test can follow a purchase.
      frame.dispatchEvent(new CustomEvent('card2crypto-widget', { bubbles: true, detail: { event, data: payload } }));
    };
  }
  frame.replaceChildren();
  (window as unknown as Record<string, WidgetScript>)[WIDGET_GLOBAL]!.run({ ...settings, ...handlers }, 'POST');
};

/** One sign request for these containers, then a widget (or a message) in each. */
const sign = (frames: HTMLElement[]): void => {
  fetch(frames[0]!.dataset.c2cSign!, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ blocks: frames.map((f) => ({ block: f.dataset.c2cBlock, ref: f.dataset.c2cRef, target: f.id })) }),
  })
    .then((response) =>
      response.json().then((answer: SignAnswer) => {
        if (!response.ok || !answer.results) {
          throw answer;
        }
        return loadScript(answer.script!).then(() =>
          answer.results!.forEach((result, i) => (result.settings ? run(frames[i]!, result.settings) : show(frames[i]!, result.message))),
        );
      }),
    )
    .catch((error: Error | SignAnswer) => frames.forEach((frame) => show(frame, error instanceof Error ? '' : error.message)));
};

const frames = [...document.querySelectorAll<HTMLElement>('[data-c2c-ref]:not([data-c2c-started])')];
frames.forEach((frame) => (frame.dataset.c2cStarted = ''));
if (frames.length) {
  sign(frames);
}
