/**
 * Editor side of both blocks: the purchase widget (card2crypto/widget), with
 * its controls in the block sidebar and a live preview drawn from the site's
 * settings and colours (no call to the service), and the "Buy crypto"
 * landing link (card2crypto/buy-button). Both are dynamic blocks: save()
 * stores nothing but attributes; PHP renders them.
 */
import { createElement, Fragment } from '@wordpress/element';
import { registerBlockType } from '@wordpress/blocks';
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

// createElement is what the compiled JSX calls.
void createElement;

interface EditorData {
  defaults: SiteDefaults;
  colors: Record<string, string>;
  configured: boolean;
  settingsUrl: string;
}

const DOMAIN = 'card2crypto-widget';
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
    <PanelBody title={__('Purchase', DOMAIN)}>
      <TextControl
        {...common}
        label={__('Amount', DOMAIN)}
        value={attributes.amount}
        inputMode="decimal"
        placeholder={attributes.fiatCurrency && attributes.fiatCurrency !== data.defaults.fiatCurrency ? '' : data.defaults.amount}
        help={help('amount', __('Pre-filled amount in the fiat currency, e.g. 100 or 99.50. Empty: the site default, or none for another currency.', DOMAIN))}
        onChange={(amount) => setAttributes({ amount })}
      />
      <SelectControl
        {...common}
        label={__('Fiat currency', DOMAIN)}
        value={attributes.fiatCurrency}
        options={fiatOptions(data.defaults)}
        help={help('fiatCurrency', __('Currency the buyer pays with.', DOMAIN))}
        onChange={(fiatCurrency) => setAttributes({ fiatCurrency })}
      />
      <SelectControl
        {...common}
        label={__('Crypto currency', DOMAIN)}
        value={attributes.cryptoCurrency}
        options={cryptoOptions(data.defaults)}
        help={help('cryptoCurrency', __('Crypto asset preselected in the widget.', DOMAIN))}
        onChange={(cryptoCurrency) => setAttributes({ cryptoCurrency })}
      />
      <SelectControl
        {...common}
        label={__('Language', DOMAIN)}
        value={attributes.lang}
        options={languageOptions(data.defaults)}
        help={help('lang', __('Language of the widget.', DOMAIN))}
        onChange={(lang) => setAttributes({ lang })}
      />
    </PanelBody>
  );
}

function SetupNotice() {
  if (data.configured) return null;
  return (
    <Notice status="warning" isDismissible={false}>
      {__('Visitors will see an error until the partner token and secret are set.', DOMAIN)}{' '}
      {data.settingsUrl ? <ExternalLink href={data.settingsUrl}>{__('Open the widget settings', DOMAIN)}</ExternalLink> : null}
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
        <PanelBody title={__('Heading', DOMAIN)}>
          <ToggleControl
            __nextHasNoMarginBottom
            label={__('Show a heading above the widget', DOMAIN)}
            checked={showTitle}
            onChange={(on) => setAttributes({ title: on ? undefined : '' })}
          />
          {showTitle ? (
            <TextControl
              {...common}
              label={__('Heading', DOMAIN)}
              value={attributes.title ?? ''}
              placeholder={data.defaults.title}
              help={__('Empty: the title from the widget settings.', DOMAIN)}
              onChange={(title) => setAttributes({ title: title === '' ? undefined : title })}
            />
          ) : null}
        </PanelBody>
        <PurchaseControls attributes={attributes} setAttributes={setAttributes as EditProps<PurchaseAttributes>['setAttributes']} />
      </InspectorControls>
      <div {...blockProps}>
        <SetupNotice />
        {model.title ? <h2 className="c2c-widget__title">{model.title}</h2> : null}
        <div className="c2c-preview widgetColor" style={model.style} aria-label={__('Preview of the purchase widget', DOMAIN)}>
          <div className="c2c-preview__row">
            <span className="c2c-preview__label">{__('You pay', DOMAIN)}</span>
            <span className="c2c-preview__amount" data-testid="c2c-preview-amount">
              {model.amount || '0'} <b>{model.fiatCode}</b>
            </span>
          </div>
          <div className="c2c-preview__row">
            <span className="c2c-preview__label">{__('You get', DOMAIN)}</span>
            <span className="c2c-preview__amount" data-testid="c2c-preview-crypto">
              <b>{model.cryptoTicker}</b> <span className="c2c-preview__label">{model.cryptoName}</span>
            </span>
          </div>
          <span className="c2c-preview__button">{sprintf(__('Buy %s', DOMAIN), model.cryptoTicker)}</span>
          <span className="c2c-preview__note">{__('Preview: visitors see the live widget here.', DOMAIN)}</span>
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
        <PanelBody title={__('Button', DOMAIN)}>
          <TextControl {...common} label={__('Text', DOMAIN)} value={attributes.text} placeholder={__('Buy crypto', DOMAIN)} onChange={(text) => setAttributes({ text })} />
          {redirect('successUrl', __('Page after a successful purchase', DOMAIN), __('Empty: the home page.', DOMAIN))}
          {redirect('failUrl', __('Page after a failed purchase', DOMAIN), __('Empty: the home page.', DOMAIN))}
        </PanelBody>
        <PurchaseControls attributes={attributes} setAttributes={setAttributes as EditProps<PurchaseAttributes>['setAttributes']} />
      </InspectorControls>
      <div {...blockProps}>
        <SetupNotice />
        <div className="wp-block-button">
          <span className="wp-block-button__link wp-element-button">{attributes.text || __('Buy crypto', DOMAIN)}</span>
        </div>
      </div>
    </Fragment>
  );
}

registerBlockType(widgetMetadata, { edit: WidgetEdit, save: () => null });
registerBlockType(buttonMetadata, { edit: ButtonEdit, save: () => null });
