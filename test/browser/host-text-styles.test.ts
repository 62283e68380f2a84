// A host page's inherited text styles (DESIGN.md §9), as Persian themes write them, on every
// widget: set on a wrapper (inherited) and on the elements themselves (a theme's `* { … }`). Rows
// and header cells stay aligned, and nothing of it reaches the board, its chart legend, the ticker
// or the converter.
import 'vazirmatn/Vazirmatn-Variable-font-face.css';
import { fixture, html } from '@open-wc/testing-helpers/pure';
import { afterEach, describe, expect, it } from 'vitest';
import '../../src/price-board';
import '../../src/price-ticker';
import '../../src/price-converter';
import type { PriceBoard } from '../../src/price-board';
import { base, part, rows, until, untilLoaded, useSandbox } from './helpers/board';

const KEY = 'pro-key:host-text';

/** What a theme hands down to everything (and sets on every element, the widgets' hosts included). */
const HOSTILE = `text-align: justify; text-align-last: justify; text-justify: inter-word; text-indent: 2em;
  word-spacing: 1em; letter-spacing: .2em; hyphens: auto; line-height: 2.6; text-transform: uppercase;
  white-space: pre-wrap; font-style: italic; font-variant: small-caps; font-size: 22px;`;

/** The inherited properties a widget must hold at its own values, and those values. */
const OWN: Record<string, (value: string) => boolean> = {
  textAlignLast: (v) => v === 'auto',
  textIndent: (v) => v === '0px',
  wordSpacing: (v) => v === '0px',
  letterSpacing: (v) => v === 'normal',
  hyphens: (v) => v === 'manual',
  textTransform: (v) => v === 'none',
  whiteSpace: (v) => !v.startsWith('pre'),
  fontStyle: (v) => v === 'normal',
  fontVariantCaps: (v) => v === 'normal',
  textAlign: (v) => v !== 'justify',
};

useSandbox();

let style: HTMLStyleElement | undefined;
afterEach(() => style?.remove());

/** The inherited styles of `el` that came from the page. */
function leaked(name: string, el: Element): string[] {
  const cs = getComputedStyle(el) as unknown as Record<string, string>;
  const found = Object.entries(OWN)
    .filter(([prop, ok]) => !ok(cs[prop] ?? ''))
    .map(([prop]) => `${name}: ${prop} ${cs[prop]}`);
  // text-justify where the browser knows it
  if (cs.textJustify !== undefined && cs.textJustify !== 'auto') found.push(`${name}: textJustify ${cs.textJustify}`);
  return found;
}

describe('a host page with justified, indented, spaced, hyphenated text', () => {
  it('keeps the board’s rows and header aligned, and reaches no widget (board, chart legend, ticker, converter)', async () => {
    style = document.createElement('style');
    style.textContent = `.hostile, .hostile * { ${HOSTILE} }`;
    document.head.append(style);
    const box = await fixture<HTMLDivElement>(html`<div class="hostile" dir="rtl" style="width: 900px">
      <p>متن صفحه</p>
      <price-board base-url=${base()} api-key=${KEY} stream="poll" symbols="usd,eur,gold_18,coin_emami"></price-board>
      <price-ticker base-url=${base()} api-key=${KEY} stream="poll" symbols="usd,eur,gold_18"></price-ticker>
      <price-converter base-url=${base()} api-key=${KEY} stream="poll" symbols="usd,gold_18"></price-converter>
    </div>`);
    const board = box.querySelector<PriceBoard>('price-board')!;
    await document.fonts.load('600 15px Vazirmatn', 'دلار آمریکا');
    await untilLoaded(board);
    const legend = () => board.shadowRoot!.querySelector('[part~="chart-legend"] span');
    await until(() => !!legend(), 'no chart legend');
    const ticker = box.querySelector('price-ticker')!;
    const converter = box.querySelector('price-converter')!;
    await until(
      () => /[۰-۹]/.test(ticker.shadowRoot?.querySelector('[part~="price"]')?.textContent ?? ''),
      'no ticker prices',
    );
    await until(
      () => converter.shadowRoot?.querySelector('[part~="result"]')?.getAttribute('data-state') === 'ok',
      'no result',
    );

    const probes: Array<[string, Element | null | undefined]> = [
      ['board title', rows(board)[0]!.querySelector('[part~="title"]')],
      ['board price', rows(board)[0]!.querySelector('[part~="price"] .value')],
      ['board header', board.shadowRoot!.querySelector('.head .cell')],
      ['board status', part(board, 'status')],
      ['chart legend', legend()],
      ['chart span button', board.shadowRoot!.querySelector('.spans button')],
      ['ticker title', ticker.shadowRoot!.querySelector('[part~="title"]')],
      ['ticker price', ticker.shadowRoot!.querySelector('[part~="price"]')],
      ['converter result', converter.shadowRoot!.querySelector('[part~="result"]')],
      ['converter label', converter.shadowRoot!.querySelector('label')],
    ];
    expect(probes.filter(([, el]) => !el).map(([name]) => name)).toEqual([]);
    expect(probes.flatMap(([name, el]) => leaked(name, el!))).toEqual([]);

    // Rows and the header line up, cell by cell; each title starts at its cell's start (right).
    const header = [...board.shadowRoot!.querySelectorAll<HTMLElement>('.head .cell')];
    for (const row of rows(board)) {
      const cells = [...row.querySelectorAll<HTMLElement>('[role=cell], [role=rowheader]')];
      expect(cells.map((c) => Math.round(c.getBoundingClientRect().right))).toEqual(
        header.map((c) => Math.round(c.getBoundingClientRect().right)),
      );
      const title = row.querySelector<HTMLElement>('[part~="title"]')!;
      const range = document.createRange();
      range.selectNodeContents(title);
      const text = range.getBoundingClientRect();
      const padding = parseFloat(getComputedStyle(title).paddingRight);
      expect(title.getBoundingClientRect().right - padding - text.right, row.dataset.symbol).toBeLessThan(2);
      // one line: the page's line height does not reach the row
      expect(row.getBoundingClientRect().height, row.dataset.symbol).toBeLessThan(48);
    }
  });
});
