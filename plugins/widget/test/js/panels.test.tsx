/**
 * The block sidebar's panels rendered with the real @wordpress/components in
 * jsdom: what a person does in each control reaches the block's attributes,
 * and a value the settings rules refuse shows its message in place of the
 * help text.
 */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from '@wordpress/element';
import { type ButtonAttributes, type PurchaseAttributes, type SiteDefaults, type WidgetAttributes } from '../../src/editor/controls';
import { ButtonPanel, HeadingPanel, PurchasePanel } from '../../src/editor/panels';

const SITE: SiteDefaults = { title: 'Buy crypto', amount: '100.00', fiatCurrency: 'EUR', cryptoCurrency: 'BTC', lang: '' };
const EMPTY: PurchaseAttributes = { amount: '', fiatCurrency: '', cryptoCurrency: '', lang: '' };

/** Holds a block's attributes as the editor does, merging each setAttributes() call. */
function harness<A extends object>(
  Panel: (props: { attributes: A; setAttributes: (changes: Partial<A>) => void; defaults: SiteDefaults }) => JSX.Element,
  initial: A,
) {
  const seen: { attributes: A } = { attributes: initial };
  function Block() {
    const [attributes, set] = useState(initial);
    seen.attributes = attributes;
    return <Panel attributes={attributes} setAttributes={(changes) => set((current) => ({ ...current, ...changes }))} defaults={SITE} />;
  }
  render(<Block />);
  return seen;
}

describe('purchase panel', () => {
  test('typing an amount, choosing a currency, an asset and a language set the attributes', async () => {
    const user = userEvent.setup();
    const block = harness(PurchasePanel, EMPTY);
    await user.type(screen.getByLabelText('Amount'), '250.5');
    await user.selectOptions(screen.getByLabelText('Fiat currency'), 'USD');
    await user.selectOptions(screen.getByLabelText('Crypto currency'), 'ETH');
    await user.selectOptions(screen.getByLabelText('Language'), 'de');
    expect(block.attributes).toEqual({ amount: '250.5', fiatCurrency: 'USD', cryptoCurrency: 'ETH', lang: 'de' });
  });

  test('the choices start with the site default, then the supported currencies, assets and languages', () => {
    harness(PurchasePanel, EMPTY);
    const fiat = screen.getByLabelText<HTMLSelectElement>('Fiat currency');
    expect(fiat.options[0]).toHaveTextContent('Site default (EUR)');
    expect(screen.getByRole('option', { name: 'Euro (EUR)' })).toBeInTheDocument();
    expect(screen.getByLabelText<HTMLSelectElement>('Crypto currency').options[0]).toHaveTextContent('Site default (BTC)');
    expect(screen.getByLabelText<HTMLSelectElement>('Language').options[0]).toHaveTextContent('Site default (language of the page)');
    expect(screen.getByLabelText('Amount')).toHaveAttribute('placeholder', '100.00');
  });

  test("the languages are the payment page's; a block saved with another keeps it, shown in English (issue 32, point 7)", () => {
    harness(PurchasePanel, { ...EMPTY, lang: 'ja' });
    const lang = screen.getByLabelText<HTMLSelectElement>('Language');
    expect([...lang.options].map((o) => o.textContent)).toEqual([
      'Site default (language of the page)',
      'English (en)',
      'German (de)',
      'Spanish (es)',
      'French (fr)',
      'Japanese (ja): shown in English',
    ]);
    expect(lang).toHaveValue('ja');
  });

  test('an amount outside the currency limits shows its message instead of the help text, and a valid one clears it', async () => {
    const user = userEvent.setup();
    harness(PurchasePanel, { ...EMPTY, amount: '10' });
    expect(screen.getByRole('alert')).toHaveTextContent(/between 50\.00 and 5000\.00 EUR/);
    expect(screen.queryByText(/Pre-filled amount/)).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Amount'), '0');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByText(/Pre-filled amount/)).toBeInTheDocument();
  });

  test('an amount with decimals in a whole-number currency is refused on the amount control, not on the others', () => {
    harness(PurchasePanel, { ...EMPTY, amount: '100000.5', fiatCurrency: 'KRW' });
    expect(screen.getByRole('alert')).toHaveTextContent('KRW allows whole amounts only.');
    expect(screen.getByLabelText('Amount')).toHaveAccessibleDescription(/KRW allows whole amounts only/);
    expect(screen.getByLabelText('Fiat currency')).toHaveAccessibleDescription('Currency the buyer pays with.');
  });
});

describe('heading panel', () => {
  test('the heading follows the site title, takes its own text, and can be switched off', async () => {
    const user = userEvent.setup();
    const block = harness<WidgetAttributes>(HeadingPanel, { ...EMPTY });
    expect(screen.getByLabelText('Heading')).toHaveAttribute('placeholder', 'Buy crypto');
    await user.type(screen.getByLabelText('Heading'), 'Get bitcoin');
    expect(block.attributes.title).toBe('Get bitcoin');
    await user.clear(screen.getByLabelText('Heading'));
    expect(block.attributes.title).toBeUndefined();
    await user.click(screen.getByLabelText('Show a heading above the widget'));
    expect(block.attributes.title).toBe('');
    expect(screen.queryByLabelText('Heading')).not.toBeInTheDocument();
  });
});

describe('button panel', () => {
  test('text and redirect pages set the attributes; a relative address is refused', async () => {
    const user = userEvent.setup();
    const block = harness<ButtonAttributes>(ButtonPanel, { ...EMPTY, text: '', successUrl: '', failUrl: '' });
    await user.type(screen.getByLabelText('Text'), 'Get BTC');
    await user.type(screen.getByLabelText('Page after a successful purchase'), 'https://shop.example/thanks/');
    await user.type(screen.getByLabelText('Page after a failed purchase'), '/sorry');
    expect(block.attributes).toMatchObject({ text: 'Get BTC', successUrl: 'https://shop.example/thanks/', failUrl: '/sorry' });
    expect(screen.getByText(/Enter a full address starting with https:\/\//)).toBeInTheDocument();
  });
});
