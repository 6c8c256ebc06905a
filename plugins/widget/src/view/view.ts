/**
 * Front-end of the purchase widget block: no framework, a few hundred bytes.
 * For each block container on the page it asks the sign route for settings
 * signed at this moment, loads the widget script once for the whole page,
 * and runs the widget in the container; the container follows the widget's
 * size (onLoaded/onResize) and shows a readable message when the settings
 * or the service fail (onError).
 *
 * The page itself carries no signature: it may be served from a cache long
 * after it was made, and the timestamp is stamped by the server when asked.
 */

/** Global object the widget script defines; its run(settings, 'POST') starts a widget (docs/decisions.md). */
declare const WIDGET_GLOBAL: string;

interface SignAnswer {
  settings?: Record<string, unknown>;
  script?: string;
  message?: string;
}

interface Size {
  height?: number;
}

interface WidgetScript {
  run(settings: Record<string, unknown>, method: string): unknown;
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

const start = (frame: HTMLElement): void => {
  const data = frame.dataset;
  data.c2cStarted = '';
  const show = (message?: string): void => {
    const p = document.createElement('p');
    p.className = 'c2c-widget__error';
    p.setAttribute('role', 'alert');
    // The server's and the widget's messages are readable; network and script
    // failures get the site's own (translated) text instead of "Failed to fetch".
    p.textContent = message || data.c2cFail || '';
    frame.style.height = '';
    frame.replaceChildren(p);
  };
  // A start the service refuses (onError before onStarted: e.g. the answer took
  // longer than the 5 s the timestamp may lag, on a busy host) is tried once
  // more with settings signed anew; any other error is shown.
  let started = false;
  let retried = false;
  // Every widget event is also a DOM event ("card2crypto-widget", detail { event, data })
  // bubbling from the block, so a theme or a test can follow a purchase.
  const handlers: Record<string, (payload?: unknown) => void> = {};
  for (const event of EVENTS.split(' ')) {
    handlers[event] = (payload?: unknown) => {
      const height = (payload as Size | undefined)?.height;
      if (event === 'onStarted') started = true;
      if (event === 'onError') {
        if (!started && !retried) return void ((retried = true), run());
        show((payload as { message?: string } | undefined)?.message);
      } else if ((event === 'onLoaded' || event === 'onResize') && height! > 0) frame.style.height = `${height}px`;
      frame.dispatchEvent(new CustomEvent('card2crypto-widget', { bubbles: true, detail: { event, data: payload } }));
    };
  }
  const run = (): void => {
    fetch(data.c2cSign!, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ block: data.c2cBlock, ref: data.c2cRef, target: frame.id }),
    })
      .then((response) =>
        response.json().then((answer: SignAnswer) => {
          if (!response.ok || !answer.settings) throw answer;
          return loadScript(answer.script!).then(() => {
            frame.replaceChildren();
            (window as unknown as Record<string, WidgetScript>)[WIDGET_GLOBAL]!.run({ ...answer.settings, ...handlers }, 'POST');
          });
        }),
      )
      .catch((error: Error | SignAnswer) => show(error instanceof Error ? '' : error.message));
  };
  run();
};

document.querySelectorAll<HTMLElement>('[data-c2c-ref]:not([data-c2c-started])').forEach(start);
