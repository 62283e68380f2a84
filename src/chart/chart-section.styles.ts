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
  }
  .chart-bar {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: 4px 12px;
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
    white-space: nowrap;
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
    /*
     * One line down to 280 px, in a wide fallback font too: the four span buttons whole, the title
     * beside them cut short (the chart's room is kept for one line of this bar).
     */
    .chart-bar {
      flex-wrap: nowrap;
    }
    .spans {
      flex: none;
      gap: 2px;
    }
    .spans button {
      padding-inline: 6px;
    }
    /* close only: the crosshair's axis label shows the date */
    [part~=chart-legend] > :not(:last-child) {
      display: none;
    }
  }
`;
