/**
 * The widget block's editor preview: a copy of the live widget's first step
 * (header "Buy crypto" with its ×, "You pay" and "You get" rows, Continue),
 * with the block's amount and currencies and the site's colours.
 */
import { render, screen } from '@testing-library/react';
import { previewModel } from '../../src/editor/controls';
import { WidgetPreview } from '../../src/editor/preview';

const SITE = { title: 'Buy crypto', amount: '100.00', fiatCurrency: 'EUR', cryptoCurrency: 'BTC', lang: '' };

test('the preview shows the first step of the live widget', () => {
  const model = previewModel({ title: 'Heading', amount: '75', fiatCurrency: 'USD', cryptoCurrency: 'ETH', lang: '' }, SITE, { color_primary_fill: '#ff0000' });
  const { container } = render(<WidgetPreview model={model} />);
  const preview = screen.getByLabelText('Preview of the purchase widget');
  expect(preview.querySelector('.c2c-preview__head')).toHaveTextContent('Buy crypto×');
  expect(preview.querySelector('.c2c-preview__close')).toHaveAttribute('aria-hidden', 'true');
  expect(screen.getByText('You pay')).toBeInTheDocument();
  expect(screen.getByText('You get')).toBeInTheDocument();
  expect(screen.getByTestId('c2c-preview-amount')).toHaveTextContent('75 USD');
  expect(screen.getByTestId('c2c-preview-crypto')).toHaveTextContent('— ETH');
  expect(screen.getByText('Ethereum')).toBeInTheDocument();
  expect(preview.querySelector('.c2c-preview__button')).toHaveTextContent(/^Continue$/);
  expect(container).not.toHaveTextContent(/Buy ETH/);
  // Nothing in it can be clicked or typed into.
  expect(container.querySelectorAll('button, input, select, a')).toHaveLength(0);
  expect(preview.style.getPropertyValue('--primaryFill')).toBe('#ff0000');
});

test('a block without its own purchase shows the site defaults', () => {
  render(<WidgetPreview model={previewModel({ title: '', amount: '', fiatCurrency: '', cryptoCurrency: '', lang: '' }, SITE, {})} />);
  expect(screen.getByTestId('c2c-preview-amount')).toHaveTextContent('100.00 EUR');
  expect(screen.getByTestId('c2c-preview-crypto')).toHaveTextContent('— BTC');
});
