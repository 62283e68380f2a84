/**
 * A site's nginx including the relay's fragments with SSI (DESIGN.md §13), as
 * docs/examples/nginx-ssi.conf and docs/examples/ssi-page.html say: the files themselves, with
 * only their ports and folders changed. nginx reaches the relay through a door the test can stop
 * or hold (support/relay-door.ts); pages are opened in Chromium with JavaScript off and on.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort } from '../helpers/cluster-processes';
import { nginxFolder, startNginx, type Nginx } from '../helpers/nginx';
import { expect, test } from './support/fixtures';
import {
  blankFrames,
  INCLUDED_WIDGETS,
  openLive,
  queryString,
  recipe,
  setRelayPrice,
  substitute,
  visitTwice,
  warmRenderer,
  watchFirstFrames,
} from './support/includes';
import { startRelayDoor, type RelayDoor } from './support/relay-door';
import { startRelayOnSandbox, type RelayOnSandbox } from './support/servers';

const VISITOR_WORDS = 'قیمت‌ها فعلاً در دسترس نیست.';

let started: RelayOnSandbox;
let door: RelayDoor;
let nginx: Nginx;
let site: string;
let pages = 0;

test.beforeAll(async () => {
  // The relay as docs/relay.md runs it behind nginx (TRUST_PROXY); every page of this spec comes
  // from one visitor address, so its limit is raised.
  started = await startRelayOnSandbox('basic-key:e2e-ssi', { TRUST_PROXY: '127.0.0.1', CLIENT_RPM: '100000' });
  door = await startRelayDoor(started.relay.url);
  // A relay's first fragment loads its renderer, which may take longer than the include's 1 s
  // (that visitor gets the bare element); the pages under test come after it.
  await warmRenderer(started.relay.url);
  const dir = await nginxFolder();
  const root = join(dir, 'site');
  await mkdir(root, { mode: 0o755 });
  await writeFile(join(root, 'favicon.ico'), '', { mode: 0o644 });
  const port = await freePort();
  const conf = substitute(await recipe('nginx-ssi.conf'), [
    ['server 127.0.0.1:8788;', `server 127.0.0.1:${door.port};`],
    ['listen 80;', `listen 127.0.0.1:${port};`],
    ['root /var/www/example;', `root ${root};`],
    ['/var/cache/nginx/price-board', join(dir, 'cache')],
  ]);
  nginx = await startNginx(dir, conf);
  site = `http://127.0.0.1:${port}`;
});

test.afterAll(async () => {
  await nginx?.close();
  await door?.close();
  await started?.close();
});

/**
 * A new page of the site including `tag` with `query`, as docs/examples/ssi-page.html (its stub
 * the bare element with the same attributes). Returns its address. nginx caches fragments by
 * query: a test that needs the relay asked uses a query of its own.
 */
async function includePage(tag: string, query: Record<string, string>): Promise<string> {
  const attributes = Object.entries(query)
    .map(([name, value]) => `${name}="${value}"`)
    .join(' ');
  const html = substitute(await recipe('ssi-page.html'), [
    ['<price-board symbols="usd,eur"></price-board>', `<${tag} ${attributes}></${tag}>`],
    ['src="/price-board.js"', `src="/${tag}.js"`],
    ['"/render/price-board?symbols=usd,eur"', `"/render/${tag}?${queryString(query)}"`],
  ]);
  pages += 1;
  const name = `page-${pages}.html`;
  await writeFile(join(nginx.dir, 'site', name), html, { mode: 0o644 });
  return `${site}/${name}`;
}

test.describe('JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  for (const widget of INCLUDED_WIDGETS) {
    test(`a page including ${widget.tag} shows its Persian prices with no script`, async ({ page }) => {
      const price = '1234560';
      await setRelayPrice(started.sandbox.url, started.relay.url, 'usd', price);
      await page.goto(await includePage(widget.tag, widget.query));
      const element = page.locator(widget.tag);
      // Never upgraded: what shows is the fragment's declarative shadow root.
      await expect(page.locator(`${widget.tag}:not(:defined)`)).toHaveCount(1);
      await expect(element.locator(widget.usdCell).first()).toHaveText(new RegExp(widget.usdText(price)));
      await expect(element.locator(widget.cells)).toHaveCount(widget.count);
      for (const cell of await element.locator(widget.cells).all()) await expect(cell).toHaveText(/[۰-۹]/);
      if (widget.tag === 'price-board') {
        await expect(element.locator('[part~="row"]').first()).toBeVisible();
        await expect(element.locator('[part~="title"]').first()).toHaveText('دلار آمریکا');
        const status = element.locator('[part~="status"]');
        await expect(status).toBeVisible();
        await expect(status).toHaveText(/\p{Script=Arabic}/u);
      } else {
        // No status line: when its prices were read is said after it (a page that runs scripts never shows it).
        await expect(page.locator(`${widget.tag} + noscript span`)).toHaveText(
          /^قیمت‌های [۰-۹]{2}:[۰-۹]{2} به وقت تهران$/,
        );
      }
      await expect(page.locator('#after')).toBeVisible();
    });
  }

  test('an include the relay refuses (a widget it does not render) gets its stub: no error text in the page', async ({
    page,
  }) => {
    // A typo in the widget's name: nginx puts any body the relay answers into the page.
    const url = await includePage('price-board', { symbols: 'usd' });
    const file = join(nginx.dir, 'site', url.slice(url.lastIndexOf('/') + 1));
    const html = (await readFile(file, 'utf8')).replace('"/render/price-board?', '"/render/price-bord?');
    await writeFile(file, html, { mode: 0o644 });
    await page.goto(url);
    await expect(page.locator('#after')).toBeVisible();
    // The stub: the bare element, which (with JavaScript) fetches as usual.
    await expect(page.locator('price-board')).toHaveCount(1);
    await expect(page.locator('body')).not.toContainText('not_found');
    await expect(page.locator('body')).not.toContainText('{');
  });

  test('invalid attribute values render as the element reads them: the defaults, with the prices (DESIGN.md §9)', async ({
    page,
  }) => {
    await page.goto(await includePage('price-board', { symbols: 'usd,eur', theme: 'purple', days: '9999' }));
    const rows = page.locator('price-board [part~="row"]');
    await expect(rows).toHaveCount(2);
    for (const price of await rows.locator('[part~="price"]').all()) await expect(price).toHaveText(/^[۰-۹٬]+$/);
    // A configuration mistake is the developer's: the visitor reads prices, not the error words.
    await expect(page.locator('price-board [part~="error"]')).toHaveCount(0);
    await expect(page.locator('price-board')).not.toContainText(VISITOR_WORDS);
    await expect(page.locator('#after')).toBeVisible();
  });
});

for (const [i, widget] of INCLUDED_WIDGETS.entries()) {
  test(`with JavaScript, an included ${widget.tag} goes live from its first frame: no blank cell, no /v1/prices${widget.tag === 'price-ticker' ? '' : ', no shift'}`, async ({
    page,
    problems,
  }) => {
    await setRelayPrice(started.sandbox.url, started.relay.url, 'usd', '1100000');
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(site)) outside.push(request.url());
    });
    const { frames, prices } = await openLive(page, await includePage(widget.tag, widget.query), widget);
    const takenOver = await frames();
    // The next price change reaches it over the stream.
    const next = String(1_200_000 + 10_000 * (i + 1));
    await setRelayPrice(started.sandbox.url, started.relay.url, 'usd', next);
    await expect(page.locator(widget.tag).locator(widget.usdCell).first()).toHaveText(new RegExp(widget.usdText(next)));
    const watched = await frames(true);
    expect(watched.frames.some((frame) => frame.length > 0)).toBe(true);
    expect(blankFrames(watched, widget)).toEqual([]);
    // The ticker's takeover: its own test below.
    if (widget.tag !== 'price-ticker') expect(takenOver.afterParsing).toEqual([]);
    expect(prices()).toBe(0);
    // Everything the page needs comes through the site's nginx.
    expect(outside).toEqual([]);
    expect(problems.all()).toEqual([]);
  });
}

test('an included ticker takes over with no layout shift', async ({ page }) => {
  const ticker = INCLUDED_WIDGETS.find((w) => w.tag === 'price-ticker')!;
  const { frames } = await openLive(page, await includePage(ticker.tag, ticker.query), ticker);
  expect((await frames(true)).afterParsing).toEqual([]);
});

for (const widget of INCLUDED_WIDGETS) {
  test(`an included ${widget.tag} arriving in pieces (a slow network) shifts nothing while the page is parsed`, async ({
    page,
  }) => {
    // Known, for each widget (which one shows it varies with where the pieces end): a fragment
    // painted before its last cells arrive lays out without them, then shifts (the board's header
    // cells from 505 to 194 px wide, the converter's answer row, a ticker item). Skipped until the
    // fragment's layout holds while it is parsed.
    test.fixme();
    const url = await includePage(widget.tag, widget.query);
    const frames = await watchFirstFrames(page, [widget]);
    // About 16 KB a second: the fragment (its styles first) comes in several pieces, each painted.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: 16_000,
      uploadThroughput: -1,
    });
    await page.goto(url, { waitUntil: 'commit' });
    await expect(page.locator('#after')).toBeAttached({ timeout: 30_000 });
    const watched = await frames(true);
    expect(watched.whileParsing).toEqual([]);
  });
}

test('nginx serves a fragment from its cache to the next visitors: one request reaches the relay', async () => {
  const url = await includePage('price-board', { symbols: 'usd,eur,gold_18', chart: 'none' });
  expect((await visitTwice(url, door)).renders).toBe(1);
});

test('with the relay stopped, the page renders with the bare board, which fetches its prices once the relay is back', async ({
  page,
}) => {
  // A visit while the relay runs: the widget's scripts pass through nginx's cache, as on any site.
  await page.goto(await includePage('price-board', INCLUDED_WIDGETS[0]!.query));
  await expect(page.locator('price-board:defined')).toHaveCount(1);
  const url = await includePage('price-board', { symbols: 'usd,coin_emami' });
  await door.stop();
  try {
    const answer = await page.goto(url);
    const html = await answer!.text();
    expect(html).toContain(
      '<price-board symbols="usd,coin_emami"></price-board><script type="module" src="/price-board.js">',
    );
    expect(html).not.toContain('shadowrootmode');
    await expect(page.locator('#after')).toBeVisible();
    await expect(page.locator('price-board:defined')).toHaveCount(1);
  } finally {
    await door.start();
  }
  await expect(page.locator('price-board [part~="row"][data-symbol="coin_emami"] [part~="price"]')).toHaveText(
    /^[۰-۹٬]+$/,
    { timeout: 45_000 },
  );
});

test('a relay slower than the include’s timeout leaves the bare board, which fetches its prices', async ({ page }) => {
  const url = await includePage('price-board', { symbols: 'usd,gold_18' });
  door.hold();
  try {
    const answer = await page.goto(url);
    // nginx gave up on the fragment (1 s), not the relay on it: it is still held.
    expect(door.held).toBeGreaterThan(0);
    const html = await answer!.text();
    expect(html).toContain(
      '<price-board symbols="usd,gold_18"></price-board><script type="module" src="/price-board.js">',
    );
    await expect(page.locator('#after')).toBeVisible();
  } finally {
    door.release();
  }
  await expect(page.locator('price-board [part~="row"][data-symbol="gold_18"] [part~="price"]')).toHaveText(
    /^[۰-۹٬]+$/,
  );
});

test('with JavaScript, a board of invalid attribute values goes live from its first frame as any other: no blank cell, no /v1/prices, no shift', async ({
  page,
}) => {
  const board = INCLUDED_WIDGETS.find((w) => w.tag === 'price-board')!;
  const widget = { ...board, query: { ...board.query, theme: 'purple', columns: 'price,bogus' } };
  const { frames, prices } = await openLive(page, await includePage(widget.tag, widget.query), widget);
  const watched = await frames(true);
  expect(blankFrames(watched, widget)).toEqual([]);
  expect(watched.afterParsing).toEqual([]);
  expect(prices()).toBe(0);
  await expect(page.locator('#after')).toBeVisible();
});
