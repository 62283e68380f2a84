/**
 * DESIGN.md section 9 on the board's light form (the first paint's: one grid for the table, its rows
 * on its tracks, the sizers in the header only), held as a page without the element's script holds
 * it: the relay's rendered board (`script=0`) in the host layouts of host-board.spec.ts, under hostile
 * inherited text styles, at phone to desktop widths.
 */
import { expect, test } from './support/fixtures';
import { boxProblems, HOST_LAYOUTS, HOSTILE_TEXT, measureBoards, SITE_TEXT, textStylesOf } from './support/host-pages';
import { htmlPage, startRelayOnSandbox, type RelayOnSandbox } from './support/servers';

let started: RelayOnSandbox;
/** The relay's board (no script): rendered once, one board per host layout. */
let rendered: string;

test.beforeAll(async () => {
  started = await startRelayOnSandbox('basic-key:e2e-host-light');
  const response = await fetch(
    `${started.relay.url}/render/price-board?symbols=usd,gold_18,coin_emami,ons&chart=none&script=0`,
  );
  expect(response.status).toBe(200);
  rendered = await response.text();
});
test.afterAll(async () => {
  await started.close();
});

for (const width of [320, 390, 768, 1280]) {
  test(`at ${width}px, the light form in every host layout: the page keeps its width, each board a usable box, every cell whole`, async ({
    page,
    servers,
  }) => {
    const sections = HOST_LAYOUTS.map(
      (l) => `<section>${l.html(rendered.replace('<price-board ', `<price-board id="${l.id}" `))}</section>`,
    );
    await page.setViewportSize({ width, height: 900 });
    await page.goto(
      servers.site.page(
        `/light-${width}.html`,
        htmlPage(`<div style="${HOSTILE_TEXT}">${sections.join('\n')}</div>`, `<style>${SITE_TEXT}</style>`),
      ),
    );
    // Every board is the light form, with its rows and prices.
    const forms = await page
      .locator('price-board')
      .evaluateAll((boards) =>
        boards.map(
          (b) =>
            `${b.shadowRoot?.querySelector('.table.light') ? 'light' : 'full'} ${b.shadowRoot?.querySelectorAll('.rows [data-w]').length}`,
        ),
      );
    expect(forms).toEqual(HOST_LAYOUTS.map(() => 'light 0'));
    await expect(page.locator('price-board').locator('[part~="row"][data-symbol="ons"] [part~="price"]')).toHaveText(
      HOST_LAYOUTS.map(() => /[۰-۹]/),
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    for (const board of await measureBoards(page)) expect(boxProblems(board, width), board.id).toEqual([]);
    // The columns line up: each cell of a row where the header's cell of its column is.
    const misaligned = await page.locator('price-board').evaluateAll((boards) =>
      boards.flatMap((b) => {
        const root = b.shadowRoot!;
        const head = [...root.querySelectorAll<HTMLElement>('.head .cell')];
        return [...root.querySelectorAll<HTMLElement>('.rows .row')].flatMap((row) =>
          [...row.children].flatMap((cell, i) => {
            const h = head[i]!.getBoundingClientRect();
            const c = cell.getBoundingClientRect();
            const moved = getComputedStyle(cell).gridRowStart === '2' || h.width <= 1 || c.width === 0;
            return moved || (Math.abs(h.left - c.left) < 0.5 && Math.abs(h.width - c.width) < 0.5)
              ? []
              : [
                  `${b.id} ${row.getAttribute('data-symbol')} ${cell.getAttribute('part')} ${h.left},${h.width} ${c.left},${c.width}`,
                ];
          }),
        );
      }),
    );
    expect(misaligned).toEqual([]);
    const style = await textStylesOf(page.locator('#sidebar [part~="row"][data-symbol="usd"] [part~="price"]'));
    expect(style).toBe('normal 0px none nowrap normal 15px 22.5px rtl');
  });
}
