import { css } from 'lit';
import { hostStyles, themed } from '../widget/theme.styles';
import { textReset } from '../widget/text-reset.styles';

/* Static styles only (adopted style sheets): nothing inline, so a strict CSP holds. */
export const styles = css`
  ${hostStyles}
  ${textReset}
  ${themed('.converter')}
  /* as a flex item, never wider than its row */
  :host {
    min-width: 0;
  }
  .converter {
    font: 15px/1.5 var(--_font);
    padding: 12px;
    display: grid;
    gap: 8px;
  }
  .fields {
    display: flex;
    flex-wrap: wrap;
    align-items: end;
    gap: 8px;
  }
  label {
    display: grid;
    gap: 2px;
    flex: 1 1 128px;
    min-width: 0;
    color: var(--_muted);
    font-size: 13px;
  }
  input,
  select,
  button {
    font: inherit;
    font-size: 15px;
    color: var(--_fg);
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: 8px;
    padding: 6px 8px;
    min-height: 36px;
    min-width: 0;
    max-width: 100%;
  }
  button {
    cursor: pointer;
    color: var(--_accent);
  }
  input:focus-visible,
  select:focus-visible,
  button:focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: 1px;
  }
  input[aria-invalid=true] {
    border-color: var(--_down);
  }
  .answer {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 4px 12px;
  }
  [part~=result] {
    flex: 1 1 192px;
    min-width: 0;
    /* A number of any length wraps inside the card. */
    overflow-wrap: anywhere;
    font-size: 18px;
    font-weight: 600;
    font-variant-numeric: tabular-nums;
  }
  [part~=result][data-state=invalid],
  [part~=result][data-state=no-price] {
    color: var(--_down);
    font-size: 14px;
    font-weight: normal;
  }
  [part~=result][data-state=waiting],
  [part~=result][data-state=empty] {
    color: var(--_muted);
    font-size: 14px;
    font-weight: normal;
  }
  .value {
    unicode-bidi: isolate;
  }
  .via,
  .copied {
    overflow-wrap: anywhere;
    color: var(--_muted);
    font-size: 13px;
  }
  [part~=error],
  .stale {
    color: var(--_down);
    font-size: 13px;
  }
`;
