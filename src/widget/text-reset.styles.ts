import { css } from 'lit';

/**
 * The page's inherited text styles stop at the widget (DESIGN §9): a host page's `line-height`,
 * `letter-spacing`, `text-transform`, `white-space`, … set for its own text would otherwise flow
 * into the shadow tree and break cells. Each inherited property the widgets' text relies on is set
 * here, on `:host`, so a page's own rule on the element (`price-ticker { … }`) still wins.
 * Font sizes inside the widgets are in px, so neither an inherited font size nor the page's root
 * font size (`html { font-size: 62.5% }`) reaches them.
 */
export const textReset = css`
  :host {
    font-style: normal;
    font-weight: normal;
    font-variant: normal;
    font-stretch: normal;
    font-kerning: auto;
    font-feature-settings: normal;
    line-height: 1.5;
    letter-spacing: normal;
    word-spacing: normal;
    text-align: start;
    text-align-last: auto;
    text-indent: 0;
    text-transform: none;
    text-shadow: none;
    white-space: normal;
    word-break: normal;
    overflow-wrap: normal;
    hyphens: manual;
    writing-mode: horizontal-tb;
    direction: rtl;
    /* Never wider than its container, whatever the page's layout (flex, grid, table, inline-block). */
    min-width: 0;
    max-width: 100%;
  }
`;
