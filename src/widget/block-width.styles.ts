import { css, unsafeCSS } from 'lit';

/** 100 em spaces (U+2003): a line break may follow each. */
// Em spaces do not break between one another in Chromium: a zero-width space after each is the
// break opportunity (min-content one em, not 100: a page sizing a grid track by it stayed 1,600 px wide).
const EM_SPACES = unsafeCSS(`'${'\u2003\u200b'.repeat(100)}'`);

/**
 * The host's intrinsic widths, for a widget whose own root is a size container (its content's
 * width, a ticker's tape or a board's columns, never reaches the page): a hidden row of em spaces,
 * each a break opportunity, 100 em wide on one line (the host's max-content: an inline-block or a
 * table cell takes the width there is, like a block) and one em at its narrowest (its min-content:
 * a grid track, a flex row or a table column never widens the page for it).
 */
export const blockWidth = css`
  :host::before {
    /* none of the page's text styles (it inherits the host's) */
    all: initial;
    content: ${EM_SPACES};
    display: block;
    block-size: 0;
    overflow: hidden;
    visibility: hidden;
    font: 16px/0 sans-serif;
  }
`;
