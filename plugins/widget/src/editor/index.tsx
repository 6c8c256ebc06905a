/**
 * Editor side of both blocks: the purchase widget (card2crypto/widget), with
 * its controls in the block sidebar and a preview of the widget's first step
 * drawn from the site's settings and colours (no call to the service), and the "Buy crypto"
 * landing link (card2crypto/buy-button). Both are dynamic blocks: save()
 * stores nothing but attributes; PHP renders them.
 */
import { Fragment } from '@wordpress/element';
import { type BlockConfiguration, registerBlockType } from '@wordpress/blocks';
import { InspectorControls, useBlockProps } from '@wordpress/block-editor';
import { ExternalLink, Notice } from '@wordpress/components';
import { __ } from '@wordpress/i18n';
import widgetMetadata from '../blocks/widget/block.json' with { type: 'json' };
import buttonMetadata from '../blocks/buy-button/block.json' with { type: 'json' };
import { type ButtonAttributes, SCHEMA_DEFAULTS, type SiteDefaults, type WidgetAttributes, previewModel } from './controls.js';
import { ButtonPanel, type EditProps, HeadingPanel, PurchasePanel } from './panels.js';
import { WidgetPreview } from './preview.js';

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
        <WidgetPreview model={model} />
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
