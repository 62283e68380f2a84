/**
 * Every widget's `part="error"`: what visitors read of a failure. Text bindings only.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { ERROR_MESSAGES } from '../shared/error-messages';
import type { PriceBoardError } from '../shared/errors';

/**
 * `part="error"`: the failure in Persian (in a visitor's words when only the site's developer can
 * fix it); the rows keep what the widget knew. A configuration mistake (`for: 'setup'`) is not
 * shown, unless it left the widget nothing to show (every symbol unknown): then the visitor's
 * words too, never the ids.
 */
export function renderError(error: PriceBoardError | undefined, nothingLeft = false): TemplateResult | typeof nothing {
  const shown = error?.for === 'setup' ? undefined : error;
  if (!shown && !nothingLeft) return nothing;
  return html`<div part="error" role="alert" data-code=${shown?.code ?? 'unknown_symbol'}>${shown?.shownFa ?? ERROR_MESSAGES.visitor}</div>`;
}
