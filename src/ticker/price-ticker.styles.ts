import { css } from 'lit';
import { hostStyles, themed } from '../board/theme.styles';

/* Static styles only (adopted style sheets): nothing inline, so a strict CSP holds. */
export const styles = css`
  ${hostStyles}
  ${themed('.ticker')}
  .ticker {
    display: flex;
    align-items: stretch;
    font-size: .875rem;
    overflow: hidden;
  }
  .viewport {
    flex: 1;
    min-width: 0;
    overflow: hidden;
  }
  .viewport.still {
    overflow-x: auto;
  }
  .track {
    display: flex;
    width: max-content;
    will-change: transform;
  }
  .still .track {
    will-change: auto;
  }
  .group {
    display: flex;
    margin: 0;
    padding: 0;
    list-style: none;
  }
  [part~=item] {
    display: flex;
    align-items: baseline;
    gap: .4em;
    padding: .375rem .875rem;
    white-space: nowrap;
    border-inline-end: 1px solid var(--_border);
    /* Items off screen skip layout when their text changes (a long tape under heavy updates). */
    content-visibility: auto;
    contain-intrinsic-size: auto 10rem auto 2rem;
  }
  [part~=item]:focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: -3px;
  }
  [part~=title] {
    color: var(--_muted);
  }
  [part~=price],
  [part~=change] {
    font-variant-numeric: tabular-nums;
    unicode-bidi: isolate;
  }
  [part~=price] {
    font-weight: 600;
  }
  [data-direction=up] [part~=change] {
    color: var(--_up);
  }
  [data-direction=down] [part~=change] {
    color: var(--_down);
  }
  .pause {
    flex: none;
    font: inherit;
    color: var(--_muted);
    background: transparent;
    border: 0;
    border-inline-end: 1px solid var(--_border);
    padding: 0 .625rem;
    cursor: pointer;
  }
  .pause:focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: -3px;
  }
  [part~=error] {
    padding: .375rem .875rem;
    color: var(--_down);
  }
`;
