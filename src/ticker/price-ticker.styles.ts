import { css } from 'lit';
import { blockWidth } from '../widget/block-width.styles';
import { hostStyles, themed } from '../widget/theme.styles';
import { textReset } from '../widget/text-reset.styles';

/* Static styles only (adopted style sheets): nothing inline, so a strict CSP holds. */
export const styles = css`
  ${hostStyles}
  ${blockWidth}
  ${textReset}
  ${themed('.ticker')}
  :host {
    overflow: hidden;
    /* In a flex row (a site header) it takes the room left, as a block would. */
    flex-grow: 1;
  }
  /*
   * The tape is as long as its items, but the ticker's own size never comes from it (a size
   * container): in a flex or grid row, a table cell or an inline-block, it takes the container's
   * width, never the tape's, and its least is one em (blockWidth), never the tape's min-content.
   */
  .ticker {
    contain: inline-size;
    display: flex;
    align-items: stretch;
    font: 14px/1.5 var(--_font);
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
    padding: 6px 14px;
    white-space: nowrap;
    border-inline-end: 1px solid var(--_border);
    /*
     * The size an item keeps while it skips layout: its own, once laid out (so only laid-out
     * items skip: tape.ts, SIZED). The placeholder height is one line of text (14px × 1.5), so
     * an item never laid out does not make the tape taller (it was 32px: 44 px, not 35 px).
     */
    contain-intrinsic-size: auto 160px auto 21px;
  }
  /* Items off screen skip layout when their text changes (a long tape under heavy updates). */
  .sized [part~=item] {
    content-visibility: auto;
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
  .unit {
    color: var(--_muted);
    font-size: 12px;
  }
  .pause {
    flex: none;
    display: grid;
    place-items: center;
    min-width: 36px;
    font: inherit;
    color: var(--_muted);
    background: transparent;
    border: 0;
    border-inline-end: 1px solid var(--_border);
    padding: 0 10px;
    cursor: pointer;
  }
  /* Two bars (pause), drawn by CSS: no emoji font needed. */
  .icon {
    width: 10px;
    height: 12px;
    border-inline: 3px solid currentColor;
  }
  /* Paused: a triangle pointing the way the tape moves (play), on an accent tint. */
  .pause[aria-pressed=true] {
    color: var(--_accent);
    background: color-mix(in srgb, var(--_accent) 14%, transparent);
  }
  .pause[aria-pressed=true] .icon {
    width: 0;
    height: 0;
    border-inline: 0;
    border-block: 7px solid transparent;
    border-left: 10px solid currentColor;
  }
  .pause:focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: -3px;
  }
  [part~=error] {
    padding: 6px 14px;
    color: var(--_down);
  }
  /* On paper (the light theme: themed()), a still strip: the items wrap, none moves or repeats. */
  @media print {
    .track {
      transform: none !important;
      inline-size: auto;
    }
    .group {
      flex-wrap: wrap;
    }
    .group[aria-hidden],
    .pause {
      display: none;
    }
    .sized [part~=item] {
      content-visibility: visible;
    }
  }
  /* prices not current: said before the tape; a title not yet known: a placeholder */
  .stale {
    flex: none;
    align-self: center;
    padding: 0 10px;
    color: var(--_down);
    font-size: 12px;
    white-space: nowrap;
  }
  .skeleton {
    display: inline-block;
    inline-size: 3em;
    block-size: .8em;
    border-radius: 4px;
    background: color-mix(in srgb, var(--_fg) 12%, var(--_bg));
  }
`;
