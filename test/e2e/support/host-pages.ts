/**
 * Host pages of the kind site owners write (DESIGN.md section 9): the board as a flex item, a grid
 * column, a table cell, in a 300 px sidebar, as an inline-block and in multi-column text, on a page
 * whose inherited text styles are hostile. Used by host-board.spec.ts and the screenshots.
 */
import type { Locator, Page } from '@playwright/test';

/** Text styles a page may hand down to everything inside it. */
export const HOSTILE_TEXT = `
  line-height: 3; letter-spacing: .3em; word-spacing: 1em; text-align: justify;
  text-transform: uppercase; white-space: pre; font-style: italic; direction: ltr; font-size: 23px;`;

/** A region of a plain Persian page: the browser's own text styles. */
const PLAIN_TEXT =
  'line-height:normal;letter-spacing:normal;word-spacing:normal;text-align:start;text-transform:none;white-space:normal;font:16px sans-serif';

/** The site's own text keeps sane styles of its own (its classes), as site text does. */
export const SITE_TEXT = `.site { font: 14px/1.4 sans-serif; letter-spacing: 0; word-spacing: 0; white-space: normal; text-transform: none; }`;

/** One host layout: its id and the markup around `board` (a `<price-board>`). */
export interface HostLayout {
  id: string;
  html(board: string): string;
}

export const HOST_LAYOUTS: readonly HostLayout[] = [
  {
    id: 'flex',
    html: (b) =>
      `<header style="display:flex;flex-wrap:wrap;align-items:center;gap:12px"><strong class="site">LOGO</strong>${b}<p class="site">A paragraph of the site, longer than one line at most widths of a page.</p></header>`,
  },
  {
    id: 'grid',
    html: (b) =>
      `<div style="display:grid;grid-template-columns:1fr 2fr;gap:12px"><aside>${b}</aside><main>Main column of the page, with text.</main></div>`,
  },
  // A grid whose one track is sized by its items (no template): the item's min-content counts. In a
  // plain Persian region (rtl, lang="fa", the browser's text styles), as in the demo page.
  {
    id: 'grid-auto',
    html: (b) =>
      `<div lang="fa" dir="rtl" style="display:grid;gap:12px;${PLAIN_TEXT}"><div class="panel"><div>${b}</div></div></div>`,
  },
  { id: 'table', html: (b) => `<table><tr><td>${b}</td><td>A second cell of the table.</td></tr></table>` },
  {
    id: 'sidebar',
    html: (b) =>
      `<div style="display:flex;gap:12px"><aside style="width:300px;flex:none;max-width:100%">${b}</aside><main style="min-width:0">Main</main></div>`,
  },
  { id: 'inline-block', html: (b) => `<div style="display:inline-block">${b}</div>` },
  // A column narrower than a title beside a price: one column, every digit shown.
  { id: 'narrow', html: (b) => `<div style="width:110px">${b}</div>` },
  {
    id: 'table-3',
    html: (b) => `<table><tr><td>${b}</td><td>A second cell of the table.</td><td>And a third one.</td></tr></table>`,
  },
  {
    id: 'columns',
    html: (b) =>
      `<div style="columns:2 200px"><p class="site">Text before the board.</p>${b}<p class="site">Text after it.</p></div>`,
  },
];

/** `<price-board>` markup with these attributes (values are the tests' own, never user input). */
export function boardTag(attrs: Record<string, string>): string {
  return `<price-board ${Object.entries(attrs)
    .map(([k, v]) => `${k}="${v}"`)
    .join(' ')}></price-board>`;
}

/** What a board shows on this page, per board (in document order), for assertions. */
export interface BoardBox {
  id: string;
  /** The board's width, and the width of its host's containing block. */
  width: number;
  /** Its host's edges in the viewport (a page that overflows its start side in RTL has no scroll to show it). */
  left: number;
  right: number;
  container: number;
  /** Cells of the first row (visible ones only): their names, texts and whether they fit. */
  problems: string[];
}

/**
 * Measures every board of the page: its box against its container's, and in every row whether
 * each visible cell's text is inside the cell and the board, and no two visible cells overlap.
 */
export function measureBoards(page: Page): Promise<BoardBox[]> {
  return page.evaluate(() => {
    const out: BoardBox[] = [];
    for (const board of document.querySelectorAll('price-board')) {
      const root = board.shadowRoot!;
      const box = board.getBoundingClientRect();
      const parent = board.parentElement!;
      const style = getComputedStyle(parent);
      const container = parent.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const problems: string[] = [];
      const frame = root.querySelector('[part~="board"]')!.getBoundingClientRect();
      for (const row of root.querySelectorAll<HTMLElement>('[part~="row"]')) {
        const cells = [...row.querySelectorAll<HTMLElement>('[part]')].filter(
          (c) => c.getClientRects().length > 0 && getComputedStyle(c).display !== 'none',
        );
        const rects = cells.map((c) => {
          const range = document.createRange();
          range.selectNodeContents(c);
          return {
            name: c.getAttribute('part')!,
            cell: c.getBoundingClientRect(),
            text: range.getBoundingClientRect(),
            content: c.textContent ?? '',
          };
        });
        for (const r of rects) {
          const where = `${row.dataset.symbol} ${r.name} «${r.content}»`;
          if (r.content.trim() === '') problems.push(`${where}: empty`);
          if (r.text.left < frame.left - 0.5 || r.text.right > frame.right + 0.5)
            problems.push(`${where}: outside the board`);
          if (r.name !== 'title' && (r.text.left < r.cell.left - 0.5 || r.text.right > r.cell.right + 0.5))
            problems.push(`${where}: clipped by its cell`);
        }
        for (let i = 0; i < rects.length; i++) {
          for (let j = i + 1; j < rects.length; j++) {
            const a = rects[i]!.text;
            const b = rects[j]!.text;
            const overlap =
              Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
              Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
            if (overlap) problems.push(`${row.dataset.symbol}: ${rects[i]!.name} overlaps ${rects[j]!.name}`);
          }
        }
      }
      // in columns (or pages), one piece: never split across two
      if (board.getClientRects().length !== 1) problems.push(`split into ${board.getClientRects().length} pieces`);
      out.push({ id: board.id, width: box.width, left: box.left, right: box.right, container, problems });
    }
    return out;
  });
}

/** The text styles a page could hand down, as an element (a board's cell) has them, in one line. */
export function textStylesOf(cell: Locator): Promise<string> {
  return cell.evaluate((el) => {
    const s = getComputedStyle(el);
    return [
      s.letterSpacing,
      s.wordSpacing,
      s.textTransform,
      s.whiteSpace,
      s.fontStyle,
      s.fontSize,
      s.lineHeight,
      s.direction,
    ].join(' ');
  });
}

/**
 * What is wrong with a board's box in a `width` px viewport, and inside it (`measureBoards`): inside
 * the viewport (the page is no wider: its scroll width misses an overflow on the side a page of
 * this direction does not scroll to), no wider than its container, and a usable size: the narrowest
 * layout (280 px) where it fits; in columns, a grid or table track that a phone's page shares out,
 * the narrowest one-column layout's (90 px: a `1fr 260px` grid at 390 px).
 */
export function boxProblems(board: BoardBox, width: number): string[] {
  const shared = ['columns', 'grid', 'table', 'table-3'].includes(board.id);
  const floor = Math.min(shared ? 90 : 280, board.container);
  const problems = [
    board.left < -0.5 && `its left edge at ${board.left}`,
    board.right > width + 0.5 && `its right edge at ${board.right}`,
    board.width > board.container + 0.5 && `${board.width} px wide in ${board.container} px`,
    board.width < floor - 0.5 && `${board.width} px wide, under ${floor} px`,
  ];
  return [...problems.filter((p): p is string => !!p), ...board.problems];
}
