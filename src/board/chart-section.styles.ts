import { css } from 'lit';

/**
 * The chart section's styles, adopted by the chart area (`chart-area.ts`, a chunk loaded only when
 * a chart is shown) beside the board's own: the section is rendered only from then on.
 */
export const chartStyles = css`
  .chart-section {
    border-block-start: 1px solid var(--_border);
    margin-block-start: 4px;
    padding: 8px 12px 0;
    /* in either density (a compact board's is its table's): as tall as the room kept for it (.chart-pending) */
    line-height: 1.5;
  }
  /* one line: the span buttons whole, the title cut short (the chart's room keeps one line for it) */
  .chart-bar {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 12px;
    margin-block-end: 6px;
  }
  .chart-title {
    font-weight: 600;
    font-size: 14px;
    min-inline-size: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .spans {
    display: inline-flex;
    flex: none;
    gap: 4px;
  }
  .spans button {
    font: inherit;
    font-size: 13px;
    color: var(--_fg);
    background: transparent;
    border: 1px solid var(--_border);
    border-radius: 999px;
    padding: 0.8px 11.2px;
    cursor: pointer;
  }
  .spans button[aria-pressed=true] {
    background: var(--_accent);
    border-color: var(--_accent);
    color: var(--_bg);
  }
  .spans button:focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: 2px;
  }
  [part~=chart] {
    position: relative;
    block-size: var(--_chart-h); /* price-board.styles.ts */
    margin: 0;
  }
  .chart-canvas,
  .chart-message {
    position: absolute;
    inset: 0;
  }
  /*
   * The chart's canvases, legend and link have z-indexes of their own: in a stacking context of
   * their own (z-index 0), all of them stay under the loading and error messages.
   */
  .chart-canvas {
    z-index: 0;
  }
  /* the chart (price-chart.ts): the legend's line above the plot, which fills the rest */
  .chart-root {
    position: relative;
    block-size: 100%;
    display: flex;
    flex-direction: column;
  }
  .chart-plot {
    flex: 1;
    min-block-size: 0;
  }
  [part~=chart-legend] {
    /* clear of the price axis's column on the right */
    max-inline-size: calc(100% - 96px);
    overflow: hidden;
    pointer-events: none;
    display: flex;
    gap: 0 8px;
    font-size: 12px;
    line-height: 18px;
    white-space: nowrap;
  }
  .chart-message {
    z-index: 1;
  }
  .chart-note,
  .chart-message {
    margin: 6px 0 0;
    font-size: 13px;
    color: var(--_muted);
  }
  .chart-message {
    display: grid;
    place-items: center;
    margin: 0;
    padding: 16px;
    text-align: center;
    background: color-mix(in srgb, var(--_bg) 88%, transparent);
  }
  .chart-message[data-code] {
    color: var(--_fg);
  }

  /* the chart legend (chart/legend.ts), one line: date and close only */
  @container price-board (width < 720px) {
    [part~=chart-legend] > :not(:first-child, :last-child) {
      display: none;
    }
  }
  @container price-board (width < 440px) {
    /* the four span buttons beside a title down to 280 px, in a wide fallback font too */
    .spans button {
      padding-inline: 6px;
    }
    /* close only: the crosshair's axis label shows the date */
    [part~=chart-legend] > :not(:last-child) {
      display: none;
    }
  }
`;
