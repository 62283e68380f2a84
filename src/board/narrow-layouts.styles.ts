import { css, unsafeCSS } from 'lit';

/** A column header the layout has no room for: out of sight, still read by screen readers. */
const headerHidden = css`
  position: absolute;
  inline-size: 1px;
  padding: 0;
  overflow: hidden;
  clip-path: inset(50%);
`;

/** `--n` of the light form's tables of class `{prefix}1` … `{prefix}9` (templates.ts, `spans`). */
export const spanCounts = (prefix: string) =>
  unsafeCSS(Array.from({ length: 9 }, (_, i) => `.${prefix}${i + 1}{--n:${i + 1}}`).join(''));

/**
 * The board's container queries on its own width: its sheet after the widest layout's
 * (price-board.styles.ts), in the element's styles. None of its rules sets a property that the
 * print or reduced-motion rules of that sheet set, so their order between them is free.
 */
export const narrowLayouts = css`
/*
 * The narrower layouts, by the slot of each column (templates.ts, slotsOf). Below 720 px: no
 * minor columns (high, low), the time under the title; below 600 px: no more columns than the
 * lead and second; below 440 px: the second under the lead. Headers of moved cells stay for
 * screen readers.
 */
@container price-board (width < 720px) {
  ${spanCounts('m')}
  .chart-section,
  .chart-pending {
    --_chart-h: 220px;
  }
  /* two lines: the title's, then the time's (12px, 0.8 of it) under it (below 440 px the change's, 13px, is 1.5px more) */
  .rows .row:nth-child(n+21) {
    contain-intrinsic-block-size: auto 54px;
  }
  @supports (height: 1lh) {
    .rows .row:nth-child(n+21) {
      contain-intrinsic-block-size: auto calc(1.8lh + 2 * var(--_pad));
    }
  }
  .minor {
    display: none;
  }
  .head .when {
    ${headerHidden}
  }
  [part~=title] {
    padding-block-end: 0;
  }
  .rows .when {
    grid-column: 1;
    grid-row: 2;
    padding-block-start: 0;
    font-size: 12px;
  }
  .rows .lead,
  .rows .second,
  .rows .more {
    grid-row: 1 / span 2;
    align-self: center;
  }
}
@container price-board (width < 600px) {
  ${spanCounts('s')}
  .more {
    display: none;
  }
}
@container price-board (width < 440px) {
  .row,
  .light {
    grid-template-columns: minmax(0, 1fr) auto;
    --n: 2;
  }
  .head .second {
    ${headerHidden}
  }
  .lead,
  .second {
    grid-column: 2;
    text-align: end;
  }
  .rows .lead {
    grid-row: 1;
    align-self: end;
    padding-block-end: 0;
  }
  .rows .second {
    grid-row: 2;
    align-self: start;
    padding-block-start: 0;
    font-size: 13px;
  }
}
/*
 * Narrower than a title beside a price (a 100-200 px column): the cells one under another, the
 * price and the change under the title, then the time (the header: the name, then the price and
 * its unit). A unit may go under its number; a number never breaks (digits and their separators
 * hold together: ۱۰٬۰۰۴ / ۰۰۰ would read as two) and is never cut: below 120 px the text's size
 * follows the board's width (13 digits fit at 90 px).
 */
@container price-board (width < 240px) {
  .row,
  .light,
  .light > * {
    display: block;
  }
  .cell {
    padding-inline: 6px;
    white-space: normal;
    font-size: min(1em, 12.5cqi);
  }
}
`;
