/**
 * The last 30 days of card payments, drawn (Admin\Books_Chart gives the
 * numbers and every word): two plain SVG bar charts, payments per day
 * (paid, declined and abandoned stacked) and bitcoin received per day, with
 * a legend, for sighted readers; the same numbers as a table for screen
 * readers (the charts are hidden from them). @wordpress/element only: React
 * as WordPress ships it, external to this script.
 */
import { createElement as h, Fragment } from '@wordpress/element';

export interface BooksDay {
  /** YYYY-MM-DD, the site's calendar. */
  date: string;
  /** The day as the site writes it short ("Mar 5"). */
  label: string;
  paid: number;
  declined: number;
  abandoned: number;
  /** Satoshis received (decimal digits). */
  sats: string;
  /** The same in BTC, 8 decimals (exact text). */
  btc: string;
}

export interface BooksChartData {
  test: boolean;
  days: BooksDay[];
  summary: string;
  texts: {
    title: string;
    payments: string;
    bitcoin: string;
    day: string;
    paid: string;
    declined: string;
    abandoned: string;
    btc: string;
    table: string;
  };
}

export const OUTCOMES = ['paid', 'declined', 'abandoned'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** WordPress's admin colours: success, error, a neutral grey; bitcoin's orange. */
export const COLORS: Record<Outcome | 'btc', string> = { paid: '#00a32a', declined: '#d63638', abandoned: '#a7aaad', btc: '#f7931a' };

const WIDTH = 600;
const HEIGHT = 120;
const AXIS = 16;

/** Heights of bars for values (drawing only: a float is fine here, the numbers shown are the exact text). */
export function heights(values: number[], height: number): number[] {
  const max = Math.max(0, ...values);
  return values.map((v) => (max > 0 ? (v / max) * height : 0));
}

/** Every 7th day and the last one are labelled under the bars. */
const labelled = (i: number, count: number) => i === count - 1 || (count - 1 - i) % 7 === 0;

function bars(days: BooksDay[], series: Array<{ key: string; color: string; values: number[] }>, top: string, name: string) {
  const slot = WIDTH / Math.max(1, days.length);
  const totals = days.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const scale = heights(totals, HEIGHT);
  const rects = [];
  for (let i = 0; i < days.length; i++) {
    let y = HEIGHT;
    for (const s of series) {
      const value = s.values[i] ?? 0;
      const height = totals[i]! > 0 ? (value / totals[i]!) * scale[i]! : 0;
      if (height > 0) {
        y -= height;
        rects.push(
          h('rect', {
            key: `${s.key}-${i}`,
            'data-series': s.key,
            'data-date': days[i]!.date,
            x: i * slot + 1,
            y,
            width: Math.max(1, slot - 2),
            height,
            fill: s.color,
          }),
        );
      }
    }
  }
  const labels = days.map((day, i) =>
    labelled(i, days.length) ? h('text', { key: day.date, x: i * slot + slot / 2, y: HEIGHT + AXIS - 3, textAnchor: 'middle', fontSize: 11 }, day.label) : null,
  );
  return h(
    'svg',
    {
      viewBox: `0 0 ${WIDTH} ${HEIGHT + AXIS}`,
      width: '100%',
      preserveAspectRatio: 'none',
      'aria-hidden': true,
      focusable: 'false',
      'data-chart': name,
      style: { display: 'block', maxHeight: '160px', overflow: 'visible' },
    },
    h('line', { x1: 0, y1: HEIGHT + 0.5, x2: WIDTH, y2: HEIGHT + 0.5, stroke: '#c3c4c7' }),
    h('text', { x: 0, y: 10, fontSize: 11, fill: '#50575e', 'data-top': name }, top),
    ...rects,
    ...labels,
  );
}

function legend(items: Array<{ key: string; color: string; label: string }>) {
  return h(
    'ul',
    { 'aria-hidden': true, style: { display: 'flex', gap: '12px', listStyle: 'none', margin: '4px 0', padding: 0 } },
    ...items.map((item) =>
      h(
        'li',
        { key: item.key, style: { margin: 0 } },
        h('span', { style: { display: 'inline-block', width: '10px', height: '10px', background: item.color, marginRight: '4px' } }),
        item.label,
      ),
    ),
  );
}

/** The largest of the days' BTC amounts, as the data writes it (the scale's top). */
function topBtc(days: BooksDay[]): string {
  let top = days[0];
  for (const day of days) {
    if (top === undefined || BigInt(day.sats) > BigInt(top.sats)) {
      top = day;
    }
  }
  return top?.btc ?? '0.00000000';
}

export function BooksChart({ data }: { data: BooksChartData }) {
  const { days, texts } = data;
  const counts = OUTCOMES.map((key) => ({ key, color: COLORS[key], values: days.map((d) => d[key]) }));
  const maxCount = Math.max(0, ...days.map((d) => d.paid + d.declined + d.abandoned));
  return h(
    Fragment,
    null,
    h('p', { style: { margin: '8px 0 0' }, 'aria-hidden': true }, texts.payments),
    legend(OUTCOMES.map((key) => ({ key, color: COLORS[key], label: texts[key] }))),
    bars(days, counts, String(maxCount), 'payments'),
    h('p', { style: { margin: '12px 0 0' }, 'aria-hidden': true }, texts.bitcoin),
    bars(days, [{ key: 'btc', color: COLORS.btc, values: days.map((d) => Number(d.sats)) }], topBtc(days), 'bitcoin'),
    h(
      'table',
      { className: 'screen-reader-text' },
      h('caption', null, texts.table),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          h('th', { scope: 'col' }, texts.day),
          ...OUTCOMES.map((key) => h('th', { key, scope: 'col' }, texts[key])),
          h('th', { scope: 'col' }, texts.btc),
        ),
      ),
      h(
        'tbody',
        null,
        ...days.map((day) =>
          h(
            'tr',
            { key: day.date },
            h('th', { scope: 'row' }, h('time', { dateTime: day.date }, day.label)),
            ...OUTCOMES.map((key) => h('td', { key }, String(day[key]))),
            h('td', null, day.btc),
          ),
        ),
      ),
    ),
  );
}
