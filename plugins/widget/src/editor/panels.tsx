/**
 * The block sidebar's panels, apart from the editor's registration so they
 * render (and are tested) without a block editor: the heading of the widget
 * block, the link button's text and redirects, and the purchase controls both
 * blocks share. Each shows a control's problem in place of its help text.
 */
import { PanelBody, SelectControl, TextControl, ToggleControl } from '@wordpress/components';
import { __ } from '@wordpress/i18n';
import {
  type ButtonAttributes,
  type PurchaseAttributes,
  type PurchaseField,
  type SiteDefaults,
  type WidgetAttributes,
  cryptoOptions,
  fiatOptions,
  languageOptions,
  purchaseProblems,
  redirectProblem,
} from './controls.js';

export interface EditProps<A> {
  attributes: A;
  setAttributes: (changes: Partial<A>) => void;
}

interface SiteProps {
  /** The site's settings a block falls back to. */
  defaults: SiteDefaults;
}

const common = { __next40pxDefaultSize: true, __nextHasNoMarginBottom: true };

/** Amount, currencies and language: the controls both blocks share. */
export function PurchasePanel({ attributes, setAttributes, defaults }: EditProps<PurchaseAttributes> & SiteProps) {
  const problems = purchaseProblems(attributes, defaults);
  const help = (field: PurchaseField, text: string) =>
    problems[field] ? (
      <span className="c2c-editor__problem" role="alert">
        {problems[field]}
      </span>
    ) : (
      text
    );
  return (
    <PanelBody title={__('Purchase', 'card2crypto-widget')}>
      <TextControl
        {...common}
        label={__('Amount', 'card2crypto-widget')}
        value={attributes.amount}
        inputMode="decimal"
        placeholder={attributes.fiatCurrency && attributes.fiatCurrency !== defaults.fiatCurrency ? '' : defaults.amount}
        help={help(
          'amount',
          __('Pre-filled amount in the fiat currency, e.g. 100 or 99.50. Empty: the site default, or none for another currency.', 'card2crypto-widget'),
        )}
        onChange={(amount) => setAttributes({ amount })}
      />
      <SelectControl
        {...common}
        label={__('Fiat currency', 'card2crypto-widget')}
        value={attributes.fiatCurrency}
        options={fiatOptions(defaults)}
        help={help('fiatCurrency', __('Currency the buyer pays with.', 'card2crypto-widget'))}
        onChange={(fiatCurrency) => setAttributes({ fiatCurrency })}
      />
      <SelectControl
        {...common}
        label={__('Crypto currency', 'card2crypto-widget')}
        value={attributes.cryptoCurrency}
        options={cryptoOptions(defaults)}
        help={help('cryptoCurrency', __('Crypto asset preselected in the widget.', 'card2crypto-widget'))}
        onChange={(cryptoCurrency) => setAttributes({ cryptoCurrency })}
      />
      <SelectControl
        {...common}
        label={__('Language', 'card2crypto-widget')}
        value={attributes.lang}
        options={languageOptions(defaults, attributes.lang)}
        help={help('lang', __('Language of the widget.', 'card2crypto-widget'))}
        onChange={(lang) => setAttributes({ lang })}
      />
    </PanelBody>
  );
}

/** The widget block's heading: the site's title (undefined), none (""), or its own. */
export function HeadingPanel({ attributes, setAttributes, defaults }: EditProps<WidgetAttributes> & SiteProps) {
  const showTitle = attributes.title !== '';
  return (
    <PanelBody title={__('Heading', 'card2crypto-widget')}>
      <ToggleControl
        __nextHasNoMarginBottom
        label={__('Show a heading above the widget', 'card2crypto-widget')}
        checked={showTitle}
        onChange={(on) => setAttributes({ title: on ? undefined : '' })}
      />
      {showTitle ? (
        <TextControl
          {...common}
          label={__('Heading', 'card2crypto-widget')}
          value={attributes.title ?? ''}
          placeholder={defaults.title}
          help={__('Empty: the title from the widget settings.', 'card2crypto-widget')}
          onChange={(title) => setAttributes({ title: title === '' ? undefined : title })}
        />
      ) : null}
    </PanelBody>
  );
}

/** The link button's text and the pages the service sends the buyer back to. */
export function ButtonPanel({ attributes, setAttributes }: EditProps<ButtonAttributes>) {
  const redirect = (key: 'successUrl' | 'failUrl', label: string, help: string) => (
    <TextControl
      {...common}
      type="url"
      label={label}
      value={attributes[key]}
      placeholder="https://"
      help={redirectProblem(attributes[key]) ?? help}
      onChange={(value) => setAttributes({ [key]: value })}
    />
  );
  return (
    <PanelBody title={__('Button', 'card2crypto-widget')}>
      <TextControl
        {...common}
        label={__('Text', 'card2crypto-widget')}
        value={attributes.text}
        placeholder={__('Buy crypto', 'card2crypto-widget')}
        onChange={(text) => setAttributes({ text })}
      />
      {redirect('successUrl', __('Page after a successful purchase', 'card2crypto-widget'), __('Empty: the home page.', 'card2crypto-widget'))}
      {redirect('failUrl', __('Page after a failed purchase', 'card2crypto-widget'), __('Empty: the home page.', 'card2crypto-widget'))}
    </PanelBody>
  );
}
