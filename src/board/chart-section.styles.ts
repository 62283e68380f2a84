import { css } from 'lit';

/**
 * The chart section's styles, adopted with the board's extras (`board-extras.ts`) beside the
 * board's own, which the first rows need: the section is rendered only from then on.
 */
export const chartStyles = css`
  .chart-section {
    border-block-start: 1px solid var(--_border);
    margin-block-start: .25rem;
    padding: .5rem .75rem 0;
  }
  .chart-bar {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: .25rem .75rem;
    margin-block-end: .375rem;
  }
  .chart-title {
    font-weight: 600;
    font-size: .875rem;
    min-inline-size: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .spans {
    display: inline-flex;
    gap: .25rem;
  }
  .spans button {
    font: inherit;
    font-size: .8125rem;
    color: var(--_fg);
    background: transparent;
    border: 1px solid var(--_border);
    border-radius: 999px;
    padding: .05rem .7rem;
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
  .chart-note,
  .chart-message {
    margin: .375rem 0 0;
    font-size: .8125rem;
    color: var(--_muted);
  }
  .chart-message {
    display: grid;
    place-items: center;
    margin: 0;
    padding: 1rem;
    text-align: center;
    background: color-mix(in srgb, var(--_bg) 88%, transparent);
  }
  .chart-message[data-code] {
    color: var(--_fg);
  }

  /* the chart legend (chart/legend.ts): date and close only */
  @container price-board (width < 560px) {
    [part~=chart-legend] > :not(:first-child, :last-child) {
      display: none;
    }
  }
  @container price-board (width < 440px) {
    /* close only: the crosshair's axis label shows the date */
    [part~=chart-legend] > :not(:last-child) {
      display: none;
    }
  }
`;
