import { css, unsafeCSS, type CSSResult } from 'lit';

/*
 * The theme every widget shares (board, ticker, converter): each colour comes from a public
 * custom property with a default per theme; the defaults meet WCAG AA (4.5:1) for text on the
 * background in both themes, including on the board's selected row tint and under the price flash.
 */

/*
 * The font stack: a Persian face where the system or page has one, then DejaVu Sans (most Linux
 * systems have it, Persian letters and digits included) before the generic family. Without a named
 * face that covers Persian, Chromium on Linux asks the system for a fallback font per character
 * (88 requests to its browser process in the bench board's first layout, and their waits).
 */
const lightDefaults = css`
  --_bg: var(--price-board-bg, #ffffff);
  --_fg: var(--price-board-fg, #1b1f24);
  --_muted: var(--price-board-muted, #59616e);
  --_border: var(--price-board-border, #d5dae1);
  --_up: var(--price-board-up, #0a7a3d);
  --_down: var(--price-board-down, #c0262d);
  --_accent: var(--price-board-accent, #1d5fc4);
  --_font: var(--price-board-font, Vazirmatn, Vazir, Tahoma, Segoe UI, Noto Sans Arabic, Geeza Pro, DejaVu Sans, sans-serif);
  color-scheme: light;
`;

const darkDefaults = css`
  --_bg: var(--price-board-bg, #16191e);
  --_fg: var(--price-board-fg, #e6e9ee);
  --_muted: var(--price-board-muted, #9ba4b2);
  --_border: var(--price-board-border, #323843);
  --_up: var(--price-board-up, #4cc987);
  --_down: var(--price-board-down, #ff7b7b);
  --_accent: var(--price-board-accent, #7fb0ff);
  color-scheme: dark;
`;

/**
 * The theme's private variables (`--_bg`, `--_fg`, …) on `root` (a fixed selector of ours, never
 * user input), by its `data-theme`: `light`, `dark`, or `auto` following the system, live; and
 * the surface every widget shares (colours, border, corners; each sets its own font from `--_font`);
 * printed, the light theme.
 */
export function themed(root: string): CSSResult {
  const r = unsafeCSS(root);
  return css`
    ${r} {
      ${lightDefaults}
      background: var(--_bg);
      color: var(--_fg);
      border: 1px solid var(--_border);
      border-radius: var(--price-board-radius, 12px);
    }
    /* on screen only: on paper, the light theme whatever the screen's (a dark background wastes ink) */
    @media screen {
      ${r}[data-theme=dark] {
        ${darkDefaults}
      }
      @media (prefers-color-scheme: dark) {
        ${r}[data-theme=auto] {
          ${darkDefaults}
        }
      }
    }
  `;
}

/**
 * What every widget's shadow root starts with: a block host never wider than its container,
 * border-box sizing, `.sr-only`.
 */
export const hostStyles = css`
  :host {
    display: block;
    max-width: 100%;
  }
  :host([hidden]) {
    display: none;
  }
  *,
  ::before,
  ::after {
    box-sizing: border-box;
  }

  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    padding: 0;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
`;
