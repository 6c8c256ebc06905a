/* Sandbox dashboard: polls /dashboard/api/state and renders partners and operations with their history and callbacks. */
(function () {
  'use strict';

  const REFRESH_MS = 1500;
  const expanded = new Set();
  let limit = 50;
  let busy = false;
  let last = null;

  function el(tag, attrs) {
    const node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      const value = attrs[key];
      if (value === undefined || value === null || value === false) {
        return;
      }
      if (key.indexOf('on') === 0) {
        node.addEventListener(key.slice(2), value);
      } else if (key === 'text') {
        node.textContent = value;
      } else {
        node.setAttribute(key, value === true ? '' : String(value));
      }
    });
    for (let i = 2; i < arguments.length; i++) {
      const child = arguments[i];
      if (child === null || child === undefined || child === false) {
        continue;
      }
      if (Array.isArray(child)) {
        child.forEach(function (c) {
          if (c) {
            node.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
          }
        });
      } else {
        node.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
      }
    }
    return node;
  }

  function time(ms) {
    if (ms === null || ms === undefined) {
      return '';
    }
    return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
  }

  function act(path, body) {
    return fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-card2crypto-dashboard': '1' },
      body: JSON.stringify(body || {}),
    })
      .then(function (response) {
        return response.json().then(function (json) {
          if (!response.ok) {
            throw new Error(json && json.error ? json.error.message : 'HTTP ' + response.status);
          }
          return json;
        });
      })
      .then(
        function (json) {
          refresh();
          return json;
        },
        function (error) {
          alert(error.message);
          refresh();
        },
      );
  }

  function renderPartners(state) {
    const table = document.getElementById('partners');
    const rows = state.partners.map(function (p) {
      return el(
        'tr',
        { 'data-partner': p.token },
        el('td', {}, el('code', { text: p.token })),
        el('td', { text: p.callback_url || '(none)' }),
        el('td', { class: p.blocked ? 'bad' : 'good', text: p.blocked ? 'blocked' : 'active' }),
        el(
          'td',
          {},
          el('button', {
            type: 'button',
            class: 'block-toggle',
            text: p.blocked ? 'Unblock' : 'Block',
            onclick() {
              act('/dashboard/api/partners/' + encodeURIComponent(p.token) + '/block', { blocked: !p.blocked });
            },
          }),
        ),
      );
    });
    table.replaceChildren.apply(
      table,
      [el('tr', {}, el('th', { text: 'Token' }), el('th', { text: 'Callback URL' }), el('th', { text: 'State' }), el('th'))].concat(rows),
    );
  }

  function renderOperation(op, state) {
    const open = expanded.has(op.id);
    const outcomeSelect = el(
      'select',
      { class: 'outcome' },
      state.outcomes.map(function (o) {
        return el('option', { value: o.status_code, text: o.status + ' ' + o.status_code + ': ' + o.meaning });
      }),
    );
    const final = op.status === 'declined' || op.status_code === 0;
    const summary = el(
      'div',
      {
        class: 'op-summary',
        onclick(e) {
          if (e.target.closest('button, select, a')) {
            return;
          }
          if (expanded.has(op.id)) {
            expanded.delete(op.id);
          } else {
            expanded.add(op.id);
          }
          render(last);
        },
      },
      el('span', { class: 'toggle', text: open ? '▾' : '▸' }),
      el('code', { class: 'op-id', text: op.id }),
      el('span', { class: 'status ' + op.status.replace(' ', '-'), text: op.status + ' ' + op.status_code }),
      el('span', { text: op.partner_token + (op.partner_operation_id ? ' / ' + op.partner_operation_id : '') }),
      el('span', { class: 'amounts', text: op.from.display + ' → ' + op.to.display }),
      el('span', { class: 'muted', text: time(op.created_at) }),
      el('a', { href: op.status_url, target: '_blank', text: 'status page' }),
    );
    let details = null;
    if (open) {
      details = el(
        'div',
        { class: 'op-details' },
        el(
          'div',
          { class: 'move' },
          'Move to ',
          outcomeSelect,
          ' ',
          el('button', {
            type: 'button',
            class: 'move-button',
            disabled: final,
            text: 'Move',
            onclick() {
              act('/dashboard/api/operations/' + encodeURIComponent(op.id) + '/move', { status_code: Number(outcomeSelect.value) });
            },
          }),
          final ? el('span', { class: 'muted', text: ' (ended)' }) : null,
        ),
        el('h3', { text: 'Status history' }),
        el(
          'table',
          { class: 'grid history' },
          el('tr', {}, el('th', { text: 'Time' }), el('th', { text: 'Status' }), el('th', { text: 'By' }), el('th', { text: 'Note' })),
          op.history.map(function (h) {
            return el(
              'tr',
              {},
              el('td', { text: time(h.at) }),
              el('td', { text: h.status + ' ' + h.status_code }),
              el('td', { text: h.source }),
              el('td', { text: h.note }),
            );
          }),
        ),
        el('h3', { text: 'Callbacks' }),
        op.callbacks.length === 0 ? el('p', { class: 'muted', text: 'None.' }) : null,
        op.callbacks.map(function (c) {
          return el(
            'div',
            { class: 'callback', 'data-callback': c.id },
            el(
              'div',
              { class: 'callback-head' },
              el('strong', { text: c.status + ' ' + c.status_code }),
              el('span', { class: 'state ' + c.state, text: c.state }),
              el('span', { text: c.attempts + ' attempt' + (c.attempts === 1 ? '' : 's') }),
              c.state === 'pending' && c.next_attempt_at ? el('span', { class: 'muted', text: 'next ' + time(c.next_attempt_at) }) : null,
              el('button', {
                type: 'button',
                class: 'resend',
                text: 'Resend',
                onclick() {
                  act('/dashboard/api/callbacks/' + c.id + '/resend');
                },
              }),
            ),
            c.attempt_log.length === 0
              ? null
              : el(
                  'table',
                  { class: 'grid attempts' },
                  el(
                    'tr',
                    {},
                    el('th', { text: '#' }),
                    el('th', { text: 'Time' }),
                    el('th', { text: 'HTTP' }),
                    el('th', { text: 'Response' }),
                    el('th', { text: 'ms' }),
                  ),
                  c.attempt_log.map(function (a) {
                    return el(
                      'tr',
                      { class: 'attempt' },
                      el('td', { text: a.attempt === 0 ? 'resend' : String(a.attempt) }),
                      el('td', { text: time(a.at) }),
                      el('td', { class: 'http', text: a.http_status === null ? '—' : String(a.http_status) }),
                      el('td', { class: 'excerpt', text: a.error ? a.error : a.excerpt }),
                      el('td', { text: String(a.duration_ms) }),
                    );
                  }),
                ),
          );
        }),
      );
    }
    return el('div', { class: 'operation' + (open ? ' open' : ''), 'data-operation': op.id }, summary, details);
  }

  function render(state) {
    if (!state) {
      return;
    }
    renderPartners(state);
    document.getElementById('count').textContent = '(' + state.total_operations + ')';
    const list = document.getElementById('operations');
    list.replaceChildren.apply(
      list,
      state.operations.length
        ? state.operations.map(function (op) {
            return renderOperation(op, state);
          })
        : [el('p', { class: 'muted', text: 'No operations yet. Run the widget or the landing page to create one.' })],
    );
    const more = document.getElementById('more');
    more.hidden = state.total_operations <= state.operations.length;
  }

  function refresh() {
    if (busy) {
      return;
    }
    busy = true;
    fetch('/dashboard/api/state?limit=' + limit)
      .then(function (r) {
        return r.json();
      })
      .then(function (state) {
        last = state;
        // Keep a select the user is choosing in.
        if (!(document.activeElement && document.activeElement.tagName === 'SELECT')) {
          render(state);
        }
      })
      .catch(function () {})
      .then(function () {
        busy = false;
      });
  }

  document.getElementById('more').addEventListener('click', function () {
    limit += 50;
    refresh();
  });
  refresh();
  setInterval(refresh, REFRESH_MS);
})();
