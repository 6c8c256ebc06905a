/*
 * card2crypto widget script (sandbox). Include it with a <script src> and call
 *
 *   Card2CryptoWidget.run(settings, 'POST');
 *
 * settings: the signed widget settings plus optional event handlers.
 * The second argument is the HTTP method the settings are sent to the widget
 * frame with; 'POST' (the default) is the only one (decisions.md, "Widget run
 * function"). run() returns { instance, close() }.
 *
 * The settings (without handlers) are POSTed into an iframe served by the
 * sandbox, which checks them (signature, timestamp, partner) and runs the
 * purchase flow. The frame reports events with postMessage; this script only
 * accepts messages from the frame's origin, from that frame's window, carrying
 * this instance's id.
 */
(function () {
  'use strict';

  const PROTOCOL = 'card2crypto-widget';
  const EVENTS = {
    loaded: 'onLoaded',
    resize: 'onResize',
    exit: 'onExit',
    error: 'onError',
    started: 'onStarted',
    operationCreated: 'onOperationCreated',
    paymentSent: 'onPaymentSent',
    operationSuccess: 'onOperationSuccess',
    operationPending: 'onOperationPending',
    operationFail: 'onOperationFail',
  };
  const HANDLER_NAMES = Object.keys(EVENTS).map(function (k) {
    return EVENTS[k];
  });

  const script = document.currentScript;
  const scriptUrl = script && script.src ? new URL(script.src, location.href) : new URL('/widget.js', location.href);
  const serviceOrigin = scriptUrl.origin;
  const frameUrl = serviceOrigin + '/widget/frame';

  function randomId() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map
      .call(bytes, function (b) {
        return ('0' + b.toString(16)).slice(-2);
      })
      .join('');
  }

  function callHandler(settings, name, arg, hasArg) {
    const handler = settings && settings[name];
    if (typeof handler !== 'function') {
      return;
    }
    try {
      if (hasArg) {
        handler(arg);
      } else {
        handler();
      }
    } catch (error) {
      // A partner's handler that throws must not stop the widget.
      if (window.console) {
        console.error('card2crypto widget: ' + name + ' threw', error);
      }
    }
  }

  function run(settings, method) {
    const instance = randomId();
    const handle = { instance, close() {} };
    const fail = function (message) {
      // Asynchronous, like every other event, so handlers run after run() returns.
      setTimeout(function () {
        callHandler(settings, 'onError', { message }, true);
      }, 0);
      return handle;
    };
    if (settings === null || typeof settings !== 'object') {
      return fail('Widget settings must be an object.');
    }
    const httpMethod = method === undefined ? 'POST' : String(method).toUpperCase();
    if (httpMethod !== 'POST') {
      return fail('Unsupported method "' + String(method) + '": the widget sends its settings with POST.');
    }
    const targetId = settings.target_element;
    const target = typeof targetId === 'string' && targetId !== '' ? document.getElementById(targetId) : null;
    if (!target) {
      return fail('target_element "' + String(targetId) + '" does not name an element of this page.');
    }

    // Settings without handlers (they stay on this page); JSON keeps numbers as the partner signed them.
    const data = {};
    Object.keys(settings).forEach(function (key) {
      const value = settings[key];
      if (typeof value === 'function' || HANDLER_NAMES.indexOf(key) >= 0 || value === undefined) {
        return;
      }
      data[key] = value;
    });

    const frameName = 'card2crypto-widget-' + instance;
    const iframe = document.createElement('iframe');
    iframe.name = frameName;
    iframe.title = 'Buy crypto with a card';
    iframe.setAttribute('allow', 'payment');
    iframe.style.cssText = 'display:block;width:100%;max-width:480px;height:560px;border:0;background:transparent;';
    iframe.className = 'card2crypto-widget-frame';
    target.appendChild(iframe);

    let closed = false;
    function onMessage(event) {
      if (event.origin !== serviceOrigin || event.source !== iframe.contentWindow) {
        return;
      }
      const msg = event.data;
      if (!msg || msg.protocol !== PROTOCOL || msg.instance !== instance) {
        return;
      }
      const name = EVENTS[msg.event];
      if (!name) {
        return;
      }
      if (msg.event === 'loaded' || msg.event === 'resize') {
        if (msg.data && typeof msg.data.height === 'number') {
          iframe.style.height = Math.ceil(msg.data.height) + 'px';
        }
      }
      switch (msg.event) {
        case 'loaded':
        case 'resize':
        case 'error':
        case 'operationCreated':
        case 'operationSuccess':
        case 'operationPending':
        case 'operationFail':
          callHandler(settings, name, msg.data, true);
          break;
        case 'exit':
          teardown();
          callHandler(settings, name, undefined, false);
          break;
        default:
          callHandler(settings, name, undefined, false);
      }
    }
    function teardown() {
      if (closed) {
        return;
      }
      closed = true;
      window.removeEventListener('message', onMessage);
      if (iframe.parentNode) {
        iframe.parentNode.removeChild(iframe);
      }
    }
    window.addEventListener('message', onMessage);

    handle.close = function () {
      // Ask the frame to close (it ends an unpaid operation and sends exit); the page can also just remove it.
      if (closed) {
        return;
      }
      if (iframe.contentWindow) {
        iframe.contentWindow.postMessage({ protocol: PROTOCOL, instance, command: 'close' }, serviceOrigin);
      }
    };

    const form = document.createElement('form');
    form.method = 'POST';
    form.action = frameUrl;
    form.target = frameName;
    form.style.display = 'none';
    const fields = { settings: JSON.stringify(data), instance, parent_origin: location.origin };
    Object.keys(fields).forEach(function (key) {
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = key;
      input.value = fields[key];
      form.appendChild(input);
    });
    document.body.appendChild(form);
    form.submit();
    form.parentNode.removeChild(form);
    return handle;
  }

  window.Card2CryptoWidget = { run, version: 'sandbox' };
})();
