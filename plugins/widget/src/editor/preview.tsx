/**
 * The widget block's preview in the editor: a static copy of the live
 * widget's first step (the service's "Buy crypto" step: a header with its ×,
 * the "You pay" and "You get" rows, the Continue button), drawn with the
 * site's colours and the block's amount and currencies. Nothing in it is a
 * control: the editor never calls the service (no signature, no secret).
 */
import { __ } from '@wordpress/i18n';
import { type PreviewModel } from './controls.js';

export function WidgetPreview({ model }: { model: PreviewModel }) {
  return (
    <div className="c2c-preview widgetColor" style={model.style} aria-label={__('Preview of the purchase widget', 'card2crypto-widget')}>
      <div className="c2c-preview__head">
        <span className="c2c-preview__heading">{__('Buy crypto', 'card2crypto-widget')}</span>
        <span className="c2c-preview__close" aria-hidden="true">
          ×
        </span>
      </div>
      <div className="c2c-preview__field">
        <span className="c2c-preview__label">{__('You pay', 'card2crypto-widget')}</span>
        <span className="c2c-preview__row" data-testid="c2c-preview-amount">
          <span className="c2c-preview__box c2c-preview__amount">{model.amount || '0'}</span> <span className="c2c-preview__box">{model.fiatCode}</span>
        </span>
      </div>
      <div className="c2c-preview__field">
        <span className="c2c-preview__label">{__('You get', 'card2crypto-widget')}</span>
        <span className="c2c-preview__row" data-testid="c2c-preview-crypto">
          {/* The live widget shows the quote here once the service answers. */}
          <span className="c2c-preview__box c2c-preview__amount">—</span> <span className="c2c-preview__box">{model.cryptoTicker}</span>
        </span>
        <span className="c2c-preview__label">{model.cryptoName}</span>
      </div>
      <span className="c2c-preview__button">{__('Continue', 'card2crypto-widget')}</span>
      <span className="c2c-preview__note">{__('Preview: visitors see the live widget here.', 'card2crypto-widget')}</span>
    </div>
  );
}
