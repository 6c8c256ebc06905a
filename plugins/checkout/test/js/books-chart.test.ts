/**
 * The settings page's chart of the last 30 days (src/books-chart-view.ts,
 * src/books-chart.ts) rendered with the real @wordpress/element from the data
 * Admin\Books_Chart puts in the page: the stacked payment bars and the bitcoin
 * bars at their heights, hidden from screen readers, and the same numbers,
 * exactly as the server wrote them, in a table they read; the entry script
 * draws into the box from window.card2cryptoBooksChart, and draws nothing
 * without it.
 */
import { render, screen, within } from '@testing-library/react';
import { createElement as h } from '@wordpress/element';
import { BooksChart, COLORS, heights, type BooksChartData, type BooksDay } from '../../src/books-chart-view';

const TEXTS: BooksChartData['texts'] = {
  title: 'Card payments, last 30 days',
  payments: 'Payments per day',
  bitcoin: 'Bitcoin received per day (BTC)',
  day: 'Day',
  paid: 'Paid',
  declined: 'Declined',
  abandoned: 'Abandoned',
  btc: 'Bitcoin received (BTC)',
  table: 'Card payments per day, last 30 days',
};

/** 30 days from Feb 7 to Mar 8; two with payments. */
function days(): BooksDay[] {
  return Array.from({ length: 30 }, (_, i) => {
    const date = new Date(Date.UTC(2025, 1, 7 + i));
    const iso = date.toISOString().slice(0, 10);
    const label = `${date.toLocaleString('en', { month: 'short', timeZone: 'UTC' })} ${date.getUTCDate()}`;
    return { date: iso, label, paid: 0, declined: 0, abandoned: 0, sats: '0', btc: '0.00000000' };
  });
}

function data(): BooksChartData {
  const all = days();
  Object.assign(all[26]!, { paid: 2, declined: 1, sats: '150000', btc: '0.00150000' });
  Object.assign(all[29]!, { paid: 1, abandoned: 3, sats: '50000', btc: '0.00050000' });
  return { test: false, days: all, summary: 'Last 30 days: 3 paid, 1 declined, 3 abandoned; 0.00200000 BTC received.', texts: TEXTS };
}

const rects = (container: HTMLElement, chart: string) =>
  Array.from(container.querySelectorAll(`svg[data-chart="${chart}"] rect`)).map((r) => ({
    series: r.getAttribute('data-series'),
    date: r.getAttribute('data-date'),
    height: Number(r.getAttribute('height')),
    y: Number(r.getAttribute('y')),
    fill: r.getAttribute('fill'),
  }));

describe('the chart of the last 30 days', () => {
  test('payments per day: paid, declined and abandoned stacked, scaled to the busiest day', () => {
    const { container } = render(h(BooksChart, { data: data() }));
    expect(rects(container, 'payments')).toEqual([
      // Mar 5: 3 of the busiest day's 4 payments: 90 of 120 units high, paid 2 of them, declined 1.
      { series: 'paid', date: '2025-03-05', height: 60, y: 60, fill: COLORS.paid },
      { series: 'declined', date: '2025-03-05', height: 30, y: 30, fill: COLORS.declined },
      // Mar 8: 1 paid, 3 abandoned: the full height.
      { series: 'paid', date: '2025-03-08', height: 30, y: 90, fill: COLORS.paid },
      { series: 'abandoned', date: '2025-03-08', height: 90, y: 0, fill: COLORS.abandoned },
    ]);
    expect(container.querySelector('svg[data-chart="payments"] [data-top]')).toHaveTextContent('4');
    // Every 7th day back from today is labelled under the bars.
    const labels = Array.from(container.querySelectorAll('svg[data-chart="payments"] text:not([data-top])')).map((t) => t.textContent);
    expect(labels).toEqual(['Feb 8', 'Feb 15', 'Feb 22', 'Mar 1', 'Mar 8']);
  });

  test('bitcoin received per day, the scale topped by the largest amount as the server wrote it', () => {
    const { container } = render(h(BooksChart, { data: data() }));
    expect(rects(container, 'bitcoin')).toEqual([
      { series: 'btc', date: '2025-03-05', height: 120, y: 0, fill: COLORS.btc },
      { series: 'btc', date: '2025-03-08', height: 40, y: 80, fill: COLORS.btc },
    ]);
    expect(container.querySelector('svg[data-chart="bitcoin"] [data-top]')).toHaveTextContent('0.00150000');
  });

  test('screen readers get a table of every day instead of the drawings', () => {
    const { container } = render(h(BooksChart, { data: data() }));
    // The drawings and their legend are hidden from the accessibility tree; the table is not.
    expect(screen.queryAllByRole('img')).toHaveLength(0);
    for (const svg of Array.from(container.querySelectorAll('svg'))) {
      expect(svg).toHaveAttribute('aria-hidden', 'true');
    }
    expect(container.querySelector('ul')).toHaveAttribute('aria-hidden', 'true');
    const table = screen.getByRole('table', { name: TEXTS.table });
    expect(table).toHaveClass('screen-reader-text');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Day', 'Paid', 'Declined', 'Abandoned', 'Bitcoin received (BTC)']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(30);
    const cells = (row: HTMLElement) => Array.from(row.querySelectorAll('th, td')).map((c) => c.textContent);
    expect(cells(rows[0]!)).toEqual(['Feb 7', '0', '0', '0', '0.00000000']);
    expect(cells(rows[26]!)).toEqual(['Mar 5', '2', '1', '0', '0.00150000']);
    expect(cells(rows[29]!)).toEqual(['Mar 8', '1', '0', '3', '0.00050000']);
    expect(rows[29]!.querySelector('time')).toHaveAttribute('datetime', '2025-03-08');
  });

  test('no payments: empty charts, a table of zeros', () => {
    const empty: BooksChartData = { ...data(), days: days() };
    const { container } = render(h(BooksChart, { data: empty }));
    expect(container.querySelectorAll('rect')).toHaveLength(0);
    expect(container.querySelector('svg[data-chart="payments"] [data-top]')).toHaveTextContent('0');
    expect(container.querySelector('svg[data-chart="bitcoin"] [data-top]')).toHaveTextContent('0.00000000');
    expect(screen.getAllByRole('row')).toHaveLength(31);
  });

  test('heights are proportional to the largest value, and zero when all are zero', () => {
    expect(heights([1, 2, 4], 120)).toEqual([30, 60, 120]);
    expect(heights([0, 0], 120)).toEqual([0, 0]);
  });
});

/** The entry script run afresh (its own module registry, so its own React, whose updates are awaited with that React's act()). */
function runScript(): void {
  jest.isolateModules(() => {
    const { act } = require('react') as { act: (fn: () => void) => void };
    act(() => {
      require('../../src/books-chart');
    });
  });
}

describe('the settings page script', () => {
  afterEach(() => {
    delete window.card2cryptoBooksChart;
    document.body.innerHTML = '';
  });

  test("draws into Books_Chart's box from the page's data", () => {
    document.body.innerHTML = '<div class="card2crypto-books-chart"><div id="card2crypto-books-chart-root"></div><p>summary</p></div>';
    window.card2cryptoBooksChart = data();
    runScript();
    const root = document.getElementById('card2crypto-books-chart-root')!;
    expect(root.querySelectorAll('svg')).toHaveLength(2);
    expect(within(root).getByRole('table', { name: TEXTS.table })).toBeInTheDocument();
  });

  test('without its data the box keeps its sentence and nothing is drawn', () => {
    document.body.innerHTML = '<div class="card2crypto-books-chart"><div id="card2crypto-books-chart-root"></div><p>summary</p></div>';
    runScript();
    expect(document.getElementById('card2crypto-books-chart-root')!.childElementCount).toBe(0);
  });
});
