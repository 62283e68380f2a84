/**
 * Every widget's `part="error"`. Text bindings only: a message may name symbols the page asked for.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { unknownSymbolsText, type PriceBoardError } from '../shared/errors';

/**
 * `part="error"`: the failure in Persian (in a visitor's words when only the site's developer can
 * fix it); the rows keep what the widget knew. Unknown symbols are named, each bidi-isolated.
 */
export function renderError(error: PriceBoardError | undefined): TemplateResult | typeof nothing {
  if (!error) return nothing;
  const ids =
    error.code === 'unknown_symbol' && Array.isArray(error.data?.symbols) ? (error.data.symbols as unknown[]) : [];
  const message = ids.length === 0 ? error.shownFa : unknownSymbolsText(error, ids);
  return html`<div part="error" role="alert" data-code=${error.code}>${message}</div>`;
}
