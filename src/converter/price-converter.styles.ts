import { css } from 'lit';
import { hostStyles, themed } from '../widget/theme.styles';
import { textReset } from '../widget/text-reset.styles';

/* Static styles only (adopted style sheets): nothing inline, so a strict CSP holds. */
export const styles = css`
  ${hostStyles}
  ${textReset}
  ${themed('.converter')}
  .converter {
    padding: .75rem;
    display: grid;
    gap: .5rem;
  }
  .fields {
    display: flex;
    flex-wrap: wrap;
    align-items: end;
    gap: .5rem;
  }
  label {
    display: grid;
    gap: .125rem;
    flex: 1 1 8rem;
    min-width: 0;
    color: var(--_muted);
    font-size: .8125rem;
  }
  input,
  select,
  button {
    font: inherit;
    font-size: .9375rem;
    color: var(--_fg);
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: 8px;
    padding: .375rem .5rem;
    min-height: 2.25rem;
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
    gap: .25rem .75rem;
  }
  [part~=result] {
    flex: 1 1 12rem;
    min-width: 0;
    /* A number of any length wraps inside the card. */
    overflow-wrap: anywhere;
    font-size: 1.125rem;
    font-weight: 600;
    font-variant-numeric: tabular-nums;
  }
  [part~=result][data-state=invalid],
  [part~=result][data-state=no-price] {
    color: var(--_down);
    font-size: .875rem;
    font-weight: normal;
  }
  [part~=result][data-state=waiting],
  [part~=result][data-state=empty] {
    color: var(--_muted);
    font-size: .875rem;
    font-weight: normal;
  }
  .value {
    unicode-bidi: isolate;
  }
  .via,
  .copied {
    overflow-wrap: anywhere;
    color: var(--_muted);
    font-size: .8125rem;
  }
  [part~=error] {
    color: var(--_down);
    font-size: .8125rem;
  }
`;
