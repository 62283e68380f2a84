import { css } from 'lit';
import { blockWidth } from '../widget/block-width.styles';
import { hostStyles, themed } from '../widget/theme.styles';
import { textReset } from '../widget/text-reset.styles';
import { spanCounts } from './narrow-layouts.styles';

/*
 * Colours come from the shared theme (theme.styles.ts).
 * Static styles only (adopted style sheets): nothing inline, so a strict CSP holds.
 * What the first rows do not need (the live statuses' colours, the error box, hover, selection,
 * focus, missing rows) comes with the board's extras: board-controllers.styles.ts.
 */

export const styles = css`
  ${hostStyles}
  ${blockWidth}
  ${textReset}
  ${themed('.board')}
  /*
   * Any host page (DESIGN.md section 9). The board's box: a flex, grid or table item that is given
   * no width takes the width there is, like a block, but never asks for more than its container
   * nor, in a flex or grid track, for less than the narrowest layout (280 px) where that fits.
   * \`.board\` is a size container, so its own intrinsic width is nothing: the hidden ::before
   * (blockWidth) and ::after give the host its intrinsic widths: 100 em (its max-content), and a
   * 90 px line that yields to its container (its min-content, where a page sizes a track by it).
   */
  :host {
    min-inline-size: min(280px, 100%);
    /* in multi-column text (or on paper), one piece */
    break-inside: avoid;
  }
  /*
   * The least the host asks for (its min-content), where a page sizes a track or a table column by
   * it: 90 px, the narrowest one-column layout that shows every digit whole, so that a phone's grid
   * (1fr 2fr at 320 px, 1fr 260px at 390 px) or a two-cell table never widens the page for it. A
   * flex item keeps 280 px by min-inline-size above.
   */
  :host::after {
    content: '';
    display: block;
    inline-size: 90px;
    max-inline-size: 100%;
    block-size: 0;
    visibility: hidden;
  }
  .board {
    container: price-board / inline-size;
    padding: 8px 0;
    overflow: hidden;
    /* px, not rem: a page's root font size is the page's business; --_pad: the density's cell padding */
    --_pad: 6.4px;
    font: 15px/1.5 var(--_font);
  }

  /* status line */
  .top {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: 4px 16px;
    padding: 0 12px 6px;
  }
  /* one line high even before its text (which comes with the board's extras but while loading) */
  [part~=status] {
    display: inline-flex;
    align-items: center;
    gap: .4em;
    min-block-size: 1.5em;
    color: var(--_muted);
    font-size: 13px;
  }
  .dot {
    inline-size: .5em;
    block-size: .5em;
    border-radius: 50%;
    background: var(--_muted);
    flex: none;
  }

  /*
   * The table (its full form, after the first paint; the light form's below): every row is a grid
   * of its own with the same columns, so that a row can be laid out, styled and painted apart from
   * the others (containment), and not at all while off screen (content-visibility). Columns still
   * line up: a numeric cell's width comes from a hidden sizer (::before, no height) holding its
   * column's widest value shape and header (data-w, the same in every row), so all rows resolve the
   * same tracks. The title column may shrink to nothing
   * (minmax(0, ...)): a title from the service is text of any length, and a long unbreakable one
   * must never push the numbers out of their columns; it wraps anywhere, two lines at most.
   */
  /*
   * the title, then one track per cell of the columns shown (the \`columns\` attribute), whatever
   * their number; the light form's table has the same tracks
   */
  .row,
  .light {
    display: grid;
    grid-template-columns: minmax(0, 1.5fr);
    grid-auto-columns: minmax(max-content, 1fr);
  }
  .row {
    grid-auto-flow: column;
  }
  .rows .row {
    cursor: pointer;
    border-block-end: 1px solid color-mix(in srgb, var(--_border) 60%, transparent);
    outline: none;
  }
  /* in the initial styles: a row takes focus and clicks before the extras are there */
  .row[aria-current=true] {
    background: color-mix(in srgb, var(--_accent) 8%, var(--_bg));
    box-shadow: inset -3px 0 0 var(--_accent);
  }
  .row:focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: -2px;
  }
  /*
   * Until it is first laid out on screen, a row is a line of its cells (its border aside): as tall
   * as it then is, so that nothing moves (in the first frame of new rows, before the browser knows
   * which are on screen, or as the page scrolls). Where \`lh\` is unknown, a comfortable row's 36px
   * (behind @supports: with var() in it, the value would not fall back but be dropped).
   */
  .rows .row:nth-child(n+21) {
    content-visibility: auto;
    contain-intrinsic-block-size: auto 36px;
    /*
     * In the light form's table these span its tracks: a spanning item's max-content (a title on
     * one line) would widen the numbers' tracks and leave the title's none; they size their own.
     */
    contain: inline-size;
  }
  @supports (height: 1lh) {
    .rows .row:nth-child(n+21) {
      contain-intrinsic-block-size: auto calc(1lh + 2 * var(--_pad));
    }
  }
  .rows .row:last-child {
    border-block-end: 0;
  }
  /*
   * The first paint's light form (templates.ts): the same tracks, sized once for the table rather
   * than per row: the table is the grid, its row groups and rows take its tracks (subgrid, \`--n\`
   * of them: the title and the cells shown), and only the header's cells hold the sizers (and the
   * rows past the 20th, which are painted only once on screen, as after the first paint). A row
   * keeps its own box (border, selection, focus) and its own grid rows (the narrow layouts).
   */
  .light > * {
    display: grid;
  }
  .light > *,
  .light .row {
    grid-column: span var(--n);
  }
  /* the first 20 rows (templates.ts, LIGHT_ROWS); those past them stay grids of their own, with sizers */
  .light > *,
  .light .row:nth-child(-n+20) {
    grid-template-columns: subgrid;
    /* contained (the extras' rows), a row would be a grid of its own, no subgrid */
    contain: none;
  }
  ${spanCounts('n')}
  .cell {
    padding: var(--_pad) 10px;
    white-space: nowrap;
    font-variant-numeric: tabular-nums;
  }
  [data-w]::before {
    content: attr(data-w);
    display: block;
    block-size: 0;
    overflow: hidden;
    visibility: hidden;
    white-space: pre;
    font-size: 15px;
    font-weight: 600;
  }
  .head .cell {
    color: var(--_muted);
    font-size: 13px;
    font-weight: 500;
  }

  /*
   * --price-board-max-height: the most the board takes without its chart (its border and padding,
   * 2 × 9 px, the status line, the error and the column header included); beyond it the rows
   * scroll under the header. Unset, the calc is invalid and the sheet has no maximum.
   */
  .sheet {
    /* as wide as the board, a container of the same name: printed, it is zoomed */
    container: price-board / inline-size;
    display: flex;
    flex-direction: column;
    max-block-size: calc(var(--price-board-max-height) - 18px);
  }
  .table {
    flex: 1 1 auto;
    min-block-size: 0;
    overflow: auto;
  }
  /* the line under the header row, whatever its cells (one under another below 240 px) */
  .head {
    position: sticky;
    inset-block-start: 0;
    z-index: 1;
    background: var(--_bg);
    border-block-end: 1px solid var(--_border);
  }

  /* compact: a dense table for 20–40 symbols */
  [data-density=compact] {
    line-height: 1.25;
    --_pad: 2px;
  }
  [data-density=compact] .cell {
    padding-inline: 8px;
  }

  /* The clamp is visual: the whole title stays in the text, so assistive technology reads it. */
  [part~=title] {
    font-weight: 600;
    white-space: normal;
    overflow-wrap: anywhere;
    display: -webkit-box;
    -webkit-box-orient: vertical;
    -webkit-line-clamp: 2;
    line-clamp: 2;
    overflow: hidden;
  }
  [part~=time],
  [part~=high],
  [part~=low] {
    color: var(--_muted);
  }
  [part~=price] {
    font-weight: 600;
  }
  [data-unit]::after {
    content: ' ' attr(data-unit);
    font-weight: 400;
    font-size: .8em;
    color: var(--_muted);
  }
  .value {
    unicode-bidi: isolate;
  }
  [data-direction=up] [part~=change] {
    color: var(--_up);
  }
  [data-direction=down] [part~=change] {
    color: var(--_down);
  }
  .arrow {
    font-size: .75em;
    margin-inline-end: .25em;
  }
  [data-stale] [part~=price],
  [data-stale] [part~=title] {
    font-weight: 500;
  }
  [data-stale] [part~=time] .value::before {
    content: '◷ ';
  }

  .skeleton {
    display: inline-block;
    inline-size: 4.5em;
    block-size: .85em;
    vertical-align: middle;
    border-radius: 4px;
    background: color-mix(in srgb, var(--_fg) 12%, var(--_bg));
    animation: pulse 1.1s ease-in-out infinite alternate;
  }
  .short {
    inline-size: 2.5em;
  }
  @keyframes pulse {
    to {
      opacity: .45;
    }
  }

  /*
   * The chart's height (chart-section.styles.ts uses it), and the room its section takes until its
   * template and styles arrive with the board's extras: the rows below the board do not move then.
   */
  .chart-section,
  .chart-pending {
    --_chart-h: 260px;
  }
  .chart-pending {
    box-sizing: content-box;
    /*
     * the section's top padding (8px), its bar (one line of span buttons: 19.5 + 1.6 + 2px, in
     * either density: chart-section.styles.ts) and its gap (6px), then the chart
     */
    block-size: calc(37.1px + var(--_chart-h));
    margin-block-start: 4px;
    border-block-start: 1px solid var(--_border);
  }
  /* a page read without scripts (the relay's render) never gets a chart: no empty box under the rows */
  @media (scripting: none) {
    .chart-pending {
      display: none;
    }
  }
  .chart-pending p {
    margin: 0;
    padding: 32px 16px;
    color: var(--_muted);
    text-align: center;
  }

  /*
   * On paper (the light theme: themed()): every row drawn (none scrolled out of sight), no status
   * line (a printout is never live), and the sheet at 85 % (its width in its own px is then
   * 1 / 0.85 of the board's), so that the printed page's width (A4: 718 px) holds every column.
   */
  @media print {
    [part~=status] {
      display: none;
    }
    .rows .row:nth-child(n+21) {
      content-visibility: visible;
    }
    /* every row, whatever the max height */
    .sheet {
      max-block-size: none;
      zoom: .85;
    }
  }

  @media (prefers-reduced-motion: reduce) {
    .skeleton {
      animation: none;
    }
  }
`;
