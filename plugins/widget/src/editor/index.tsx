/**
 * Editor side of both blocks: the purchase widget (card2crypto/widget), with
 * its controls in the block sidebar and a live preview drawn from the site's
 * settings and colours (no call to the service), and the "Buy crypto"
 * landing link (card2crypto/buy-button). Both are dynamic blocks: save()
 * stores nothing but attributes; PHP renders them.
 */
import { Fragment } from '@wordpress/element';
import { type BlockConfiguration, registerBlockType } from '@wordpress/blocks';
import { InspectorControls, useBlockProps } from '@wordpress/block-editor';
import { ExternalLink, Notice, PanelBody, SelectControl, TextControl, ToggleControl } from '@wordpress/components';
import { __, sprintf } from '@wordpress/i18n';
import widgetMetadata from '../blocks/widget/block.json' with { type: 'json' };
import buttonMetadata from '../blocks/buy-button/block.json' with { type: 'json' };
import {
  type ButtonAttributes,
  type PurchaseAttributes,
  type PurchaseField,
  SCHEMA_DEFAULTS,
  type SiteDefaults,
  type WidgetAttributes,
  cryptoOptions,
  fiatOptions,
  languageOptions,
  previewModel,
  purchaseProblems,
  redirectProblem,
} from './controls.js';

interface EditorData {
  defaults: SiteDefaults;
  colors: Record<string, string>;
  configured: boolean;
  settingsUrl: string;
}

const data: EditorData = (window as unknown as { card2cryptoWidget?: EditorData }).card2cryptoWidget ?? {
  defaults: SCHEMA_DEFAULTS,
  colors: {},
  configured: false,
  settingsUrl: '',
};

interface EditProps<A> {
  attributes: A;
  setAttributes: (changes: Partial<A>) => void;
}

const common = { __next40pxDefaultSize: true, __nextHasNoMarginBottom: true };

/** Amount, currencies and language: the controls both blocks share. */
function PurchaseControls({ attributes, setAttributes }: EditProps<PurchaseAttributes>) {
  const problems = purchaseProblems(attributes, data.defaults);
  const help = (field: PurchaseField, text: string) =>
    problems[field] ? <span className="c2c-editor__problem" role="alert">{problems[field]}</span> : text;
  return (
    <PanelBody title={__('Purchase', 'card2crypto-widget')}>
      <TextControl
        {...common}
        label={__('Amount', 'card2crypto-widget')}
        value={attributes.amount}
        inputMode="decimal"
        placeholder={attributes.fiatCurrency && attributes.fiatCurrency !== data.defaults.fiatCurrency ? '' : data.defaults.amount}
        help={help('amount', __('Pre-filled amount in the fiat currency, e.g. 100 or 99.50. Empty: the site default, or none for another currency.', 'card2crypto-widget'))}
        onChange={(amount) => setAttributes({ amount })}
      />
      <SelectControl
        {...common}
        label={__('Fiat currency', 'card2crypto-widget')}
        value={attributes.fiatCurrency}
        options={fiatOptions(data.defaults)}
        help={help('fiatCurrency', __('Currency the buyer pays with.', 'card2crypto-widget'))}
        onChange={(fiatCurrency) => setAttributes({ fiatCurrency })}
      />
      <SelectControl
        {...common}
        label={__('Crypto currency', 'card2crypto-widget')}
        value={attributes.cryptoCurrency}
        options={cryptoOptions(data.defaults)}
        help={help('cryptoCurrency', __('Crypto asset preselected in the widget.', 'card2crypto-widget'))}
        onChange={(cryptoCurrency) => setAttributes({ cryptoCurrency })}
      />
      <SelectControl
        {...common}
        label={__('Language', 'card2crypto-widget')}
        value={attributes.lang}
        options={languageOptions(data.defaults)}
        help={help('lang', __('Language of the widget.', 'card2crypto-widget'))}
        onChange={(lang) => setAttributes({ lang })}
      />
    </PanelBody>
  );
}

function SetupNotice() {
  if (data.configured) return null;
  return (
    <Notice status="warning" isDismissible={false}>
      {__('Visitors will see an error until the partner token and secret are set.', 'card2crypto-widget')}{' '}
      {data.settingsUrl ? <ExternalLink href={data.settingsUrl}>{__('Open the widget settings', 'card2crypto-widget')}</ExternalLink> : null}
    </Notice>
  );
}

function WidgetEdit({ attributes, setAttributes }: EditProps<WidgetAttributes>) {
  const model = previewModel(attributes, data.defaults, data.colors);
  const blockProps = useBlockProps({ className: 'c2c-widget' });
  const showTitle = attributes.title !== '';
  return (
    <Fragment>
      <InspectorControls>
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
              placeholder={data.defaults.title}
              help={__('Empty: the title from the widget settings.', 'card2crypto-widget')}
              onChange={(title) => setAttributes({ title: title === '' ? undefined : title })}
            />
          ) : null}
        </PanelBody>
        <PurchaseControls attributes={attributes} setAttributes={setAttributes as EditProps<PurchaseAttributes>['setAttributes']} />
      </InspectorControls>
      <div {...blockProps}>
        <SetupNotice />
        {model.title ? <h2 className="c2c-widget__title">{model.title}</h2> : null}
        <div className="c2c-preview widgetColor" style={model.style} aria-label={__('Preview of the purchase widget', 'card2crypto-widget')}>
          <div className="c2c-preview__row">
            <span className="c2c-preview__label">{__('You pay', 'card2crypto-widget')}</span>
            <span className="c2c-preview__amount" data-testid="c2c-preview-amount">
              {model.amount || '0'} <b>{model.fiatCode}</b>
            </span>
          </div>
          <div className="c2c-preview__row">
            <span className="c2c-preview__label">{__('You get', 'card2crypto-widget')}</span>
            <span className="c2c-preview__amount" data-testid="c2c-preview-crypto">
              <b>{model.cryptoTicker}</b> <span className="c2c-preview__label">{model.cryptoName}</span>
            </span>
          </div>
          <span className="c2c-preview__button">{
            /* translators: %s: ticker of the crypto currency, e.g. BTC. */
            sprintf(__('Buy %s', 'card2crypto-widget'), model.cryptoTicker)
          }</span>
          <span className="c2c-preview__note">{__('Preview: visitors see the live widget here.', 'card2crypto-widget')}</span>
        </div>
      </div>
    </Fragment>
  );
}

function ButtonEdit({ attributes, setAttributes }: EditProps<ButtonAttributes>) {
  const blockProps = useBlockProps({ className: 'wp-block-buttons c2c-buy-button' });
  const redirect = (key: 'successUrl' | 'failUrl', label: string, help: string) => (
    <TextControl
      {...common}
      type="url"
      label={label}
      value={attributes[key]}
      placeholder="https://"
      help={redirectProblem(attributes[key]) ?? help}
      onChange={(value) => setAttributes({ [key]: value } as Partial<ButtonAttributes>)}
    />
  );
  return (
    <Fragment>
      <InspectorControls>
        <PanelBody title={__('Button', 'card2crypto-widget')}>
          <TextControl {...common} label={__('Text', 'card2crypto-widget')} value={attributes.text} placeholder={__('Buy crypto', 'card2crypto-widget')} onChange={(text) => setAttributes({ text })} />
          {redirect('successUrl', __('Page after a successful purchase', 'card2crypto-widget'), __('Empty: the home page.', 'card2crypto-widget'))}
          {redirect('failUrl', __('Page after a failed purchase', 'card2crypto-widget'), __('Empty: the home page.', 'card2crypto-widget'))}
        </PanelBody>
        <PurchaseControls attributes={attributes} setAttributes={setAttributes as EditProps<PurchaseAttributes>['setAttributes']} />
      </InspectorControls>
      <div {...blockProps}>
        <SetupNotice />
        <div className="wp-block-button">
          <span className="wp-block-button__link wp-element-button">{attributes.text || __('Buy crypto', 'card2crypto-widget')}</span>
        </div>
      </div>
    </Fragment>
  );
}

// block.json's attribute types read as plain strings from JSON (WordPress checks them when PHP registers the block).
type Registered<A> = A & Record<string, unknown>;
registerBlockType<Registered<WidgetAttributes>>(widgetMetadata as BlockConfiguration<Registered<WidgetAttributes>>, {
  edit: WidgetEdit,
  save: () => null,
});
registerBlockType<Registered<ButtonAttributes>>(buttonMetadata as BlockConfiguration<Registered<ButtonAttributes>>, {
  edit: ButtonEdit,
  save: () => null,
});
