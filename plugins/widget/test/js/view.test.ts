/**
 * The block's view script in jsdom, with the sign route (fetch) and the
 * widget script (window.Card2CryptoWidget) stood in: when the visitor closes
 * the widget (onExit), the container says so and offers to start again, and
 * starting again asks the sign route anew and runs the widget with the new
 * settings, never the first ones.
 */
type Settings = Record<string, unknown> & { onExit?: () => void };

const SCRIPT = 'https://service.test/widget.js';

function setUp() {
  document.body.innerHTML =
    '<div class="c2c-widget"><div id="c2c-widget-aaaaaaaaaaaa-1" class="c2c-widget__frame" data-c2c-ref="r" data-c2c-block="{}" data-c2c-sign="/sign"' +
    ' data-c2c-fail="Unavailable" data-c2c-closed="You closed the purchase widget." data-c2c-again="Start again"><p>Loading…</p></div></div>';
  let signed = 0;
  const fetchMock = jest.fn(async () => {
    signed += 1;
    const body = { script: SCRIPT, results: [{ settings: { partner_token: 't', timestamp: signed, signature: `sig-${signed}` } }] };
    return { ok: true, json: async () => body } as unknown as Response;
  });
  (globalThis as unknown as { fetch: typeof fetchMock }).fetch = fetchMock;
  const runs: Settings[] = [];
  const w = window as unknown as Record<string, unknown>;
  // The widget script counts as loaded; its run() records the settings it is given.
  w.c2cScripts = { [SCRIPT]: Promise.resolve() };
  w.Card2CryptoWidget = { run: (settings: Settings) => runs.push(settings) };
  jest.isolateModules(() => {
    require('../../src/view/view');
  });
  return { fetchMock, runs, frame: document.getElementById('c2c-widget-aaaaaaaaaaaa-1')! };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test('closing the widget shows a message and a button; the button starts it again with settings signed anew', async () => {
  const { fetchMock, runs, frame } = setUp();
  await settle();
  expect(fetchMock).toHaveBeenCalledTimes(1);
  expect(runs).toHaveLength(1);
  expect(runs[0]).toMatchObject({ signature: 'sig-1' });

  // The widget removed its frame and reports onExit.
  frame.style.height = '500px';
  runs[0]!.onExit!();
  expect(frame.querySelector('.c2c-widget__closed')).toHaveTextContent('You closed the purchase widget.');
  const again = frame.querySelector('button')!;
  expect(again).toHaveTextContent('Start again');
  expect(again).toHaveFocus();
  expect(frame.style.height).toBe('');

  again.click();
  expect(again).toBeDisabled();
  await settle();
  expect(fetchMock).toHaveBeenCalledTimes(2);
  expect(JSON.parse((fetchMock.mock.calls[1] as unknown as [string, RequestInit])[1].body as string)).toEqual({
    blocks: [{ block: '{}', ref: 'r', target: 'c2c-widget-aaaaaaaaaaaa-1' }],
  });
  expect(runs).toHaveLength(2);
  expect(runs[1]).toMatchObject({ signature: 'sig-2', timestamp: 2 });
  // The running widget replaced the message.
  expect(frame.querySelector('.c2c-widget__closed')).toBeNull();
});

test('closing does not count as an error', async () => {
  const { runs, frame } = setUp();
  await settle();
  runs[0]!.onExit!();
  expect(frame.querySelector('[role="alert"]')).toBeNull();
  expect(frame.querySelector('[role="status"]')).not.toBeNull();
});

test("an error from the service shows the block's short words, never the service's text", async () => {
  const { runs, frame } = setUp();
  await settle();
  // onStarted came: not the one retry of a refused start.
  (runs[0] as unknown as Record<string, (p?: unknown) => void>).onStarted!();
  (runs[0] as unknown as Record<string, (p?: unknown) => void>).onError!({ message: 'Wrong signature: signature does not match the body.' });
  expect(frame).toHaveTextContent('Unavailable');
  expect(frame).not.toHaveTextContent(/Wrong signature/);
});
