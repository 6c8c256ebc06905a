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
import { ExternalLink, Notice } from '@wordpress/components';
import { __, sprintf } from '@wordpress/i18n';
import widgetMetadata from '../blocks/widget/block.json' with { type: 'json' };
import buttonMetadata from '../blocks/buy-button/block.json' with { type: 'json' };
import { type ButtonAttributes, SCHEMA_DEFAULTS, type SiteDefaults, type WidgetAttributes, previewModel } from './controls.js';
import { ButtonPanel, type EditProps, HeadingPanel, PurchasePanel } from './panels.js';

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

function SetupNotice() {
  if (data.configured) {
    return null;
  }
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
  return (
    <Fragment>
      <InspectorControls>
        <HeadingPanel attributes={attributes} setAttributes={setAttributes} defaults={data.defaults} />
        <PurchasePanel attributes={attributes} setAttributes={setAttributes} defaults={data.defaults} />
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
          <span className="c2c-preview__button">
            {
              /* translators: %s: ticker of the crypto currency, e.g. BTC. */
              sprintf(__('Buy %s', 'card2crypto-widget'), model.cryptoTicker)
            }
          </span>
          <span className="c2c-preview__note">{__('Preview: visitors see the live widget here.', 'card2crypto-widget')}</span>
        </div>
      </div>
    </Fragment>
  );
}

function ButtonEdit({ attributes, setAttributes }: EditProps<ButtonAttributes>) {
  const blockProps = useBlockProps({ className: 'wp-block-buttons c2c-buy-button' });
  return (
    <Fragment>
      <InspectorControls>
        <ButtonPanel attributes={attributes} setAttributes={setAttributes} />
        <PurchasePanel attributes={attributes} setAttributes={setAttributes} defaults={data.defaults} />
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
