import { css } from 'lit';

/**
 * The board's styles that its first rows do not need, adopted with its extras (`board-controllers.ts`)
 * beside its own: the colours of the statuses the live data layer reports, the error box, the
 * rows' containment, the hover, the selected row and the focus ring, and rows the service did
 * not return.
 */
export const controllerStyles = css`
  /* the live dot: not beside «بازار بسته» (the dot stays muted) */
  [data-status=live][data-market=open] .dot {
    background: var(--_up);
  }
  [data-status=polling] .dot {
    background: var(--_accent);
  }
  [data-status=error] .dot,
  [data-status=offline] .dot {
    background: var(--_down);
  }

  [part~=error] {
    margin: 0 12px 8px;
    padding: 6px 10px;
    border-inline-start: 3px solid var(--_down);
    border-radius: 4px;
    background: color-mix(in srgb, var(--_down) 7%, var(--_bg));
    font-size: 14px;
  }

  /*
   * Once the first rows are painted, each row is laid out and painted apart from the others (as
   * content-visibility gives those past the 20th): a live change repaints its row only.
   */
  .rows .row {
    contain: content;
  }
  .rows .row:hover {
    background: color-mix(in srgb, var(--_fg) 4%, var(--_bg));
  }

  [data-missing] [part~=title] {
    color: var(--_muted);
    font-family: ui-monospace, monospace;
  }

  @media (forced-colors: active) {
    .row[aria-current=true] {
      outline: 2px solid Highlight;
    }
  }
`;
