/**
 * The payment method's settings page: draws the last 30 days of card
 * payments (src/books-chart-view.ts) into Admin\Books_Chart's box, from the
 * numbers the page carries (window.card2cryptoBooksChart). No request.
 */
import { createElement as h, createRoot } from '@wordpress/element';
import { BooksChart, type BooksChartData } from './books-chart-view.js';

declare global {
  interface Window {
    card2cryptoBooksChart?: BooksChartData;
  }
}

const data = window.card2cryptoBooksChart;
const root = document.getElementById('card2crypto-books-chart-root');
if (data && root) {
  createRoot(root).render(h(BooksChart, { data }));
}
