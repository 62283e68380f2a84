import { css } from 'lit';

/**
 * The page's inherited text styles stop at the widget (DESIGN §9): a host page's `line-height`,
 * `letter-spacing`, `text-align-last: justify`, `text-indent`, `hyphens`, `white-space`, … set for
 * its own text would otherwise flow into the shadow tree and break rows, cells and the chart's
 * legend. `all: initial` on the widget's root (its one top element, `part="board|ticker|converter"`)
 * resets every property, inherited ones included, whatever the page sets on the element itself (a
 * theme's `* { … }` reaches the host, never its shadow tree); `direction` is left to the root's
 * `dir`. Of a class's weight and first in the sheet: the widget's own rules for its root (its
 * theme, font and box) set what it relies on again. Font sizes inside the widgets are in px, so
 * neither an inherited font size nor the page's root font size (`html { font-size: 62.5% }`)
 * reaches them.
 */
export const textReset = css`
  :host > :where([part]) {
    all: initial;
    display: block;
  }
`;
