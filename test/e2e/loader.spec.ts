/**
 * The loader `embed.js` on a third-party site: placeholders before and after the script and
 * added later become iframes of the CDN's `embed.html`, sized by their own resize messages and by
 * nobody else's.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Frame, Page } from '@playwright/test';
import { expect, hasHeight, htmlPage, recordMessages, rows, sandboxBase, test, type Servers } from './support/fixtures';

function placeholder(servers: Servers, key: string, id: string, symbols: string): string {
  return `<div id="${id}" data-price-board data-symbols="${symbols}" data-key="${key}" data-base-url="${sandboxBase(servers)}" data-chart="none"><a href="#">قیمت‌ها</a></div>`;
}

/** A site page at `path` with `body`, then the loader pasted as a classic script. */
function loaderPage(servers: Servers, path: string, body: string): string {
  return servers.site.page(path, htmlPage(`${body}<script src="${servers.cdn.url}embed.js"></script>`));
}

/** Height of the loader's iframe in `id`, and of the document inside it. */
async function heights(page: Page, id: string): Promise<{ outer: number; inner: number }> {
  const iframe = page.locator(`#${id} > iframe`);
  const outer = await iframe.evaluate((el) => el.getBoundingClientRect().height);
  const frame = (await (await iframe.elementHandle())!.contentFrame()) as Frame;
  const inner = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
  return { outer, inner };
}

async function expectSizedToContent(page: Page, id: string): Promise<void> {
  await expect(rows(page.frameLocator(`#${id} > iframe`))).not.toHaveCount(0);
  await expect
    .poll(async () => {
      const { outer, inner } = await heights(page, id);
      return outer === inner && inner > 80 ? 'sized' : `outer ${outer}, inner ${inner}`;
    })
    .toBe('sized');
}

test('turns placeholders before, after and added after the script into sized iframes, once', async ({
  page,
  servers,
  key,
  problems,
}) => {
  const loader = `${servers.cdn.url}embed.js`;
  const url = servers.site.page(
    '/loader.html',
    htmlPage(`${placeholder(servers, key, 'before', 'usd,eur')}
<script type="module" src="${loader}"></script>
${placeholder(servers, key, 'after', 'gold_18,coin_emami,ons,eur')}
<script type="module" src="${loader}?copy=2"></script>`),
  );
  await page.goto(url);

  for (const id of ['before', 'after']) {
    const iframe = page.locator(`#${id} > iframe`);
    await expect(iframe).toHaveCount(1);
    await expect(page.locator(`#${id} a`)).toHaveCount(0);
    const src = new URL((await iframe.getAttribute('src'))!);
    expect(`${src.origin}${src.pathname}`).toBe(`${servers.cdn.url}embed.html`);
    expect(src.searchParams.get('key')).toBe(key);
    await expect(iframe).toHaveAttribute('loading', 'lazy');
    await expect(iframe).toHaveAttribute('title', /[\u0600-\u06ff]/);
    await expectSizedToContent(page, id);
  }
  // Four rows are taller than two.
  expect((await heights(page, 'after')).outer).toBeGreaterThan((await heights(page, 'before')).outer);

  await page.evaluate(
    (html) => document.body.insertAdjacentHTML('beforeend', html),
    placeholder(servers, key, 'later', 'usd'),
  );
  await expect(page.locator('#later > iframe')).toHaveCount(1);
  await expectSizedToContent(page, 'later');

  // Loading the loader once more converts nothing twice (a copy scans at once when it runs: the
  // import has run it).
  await page.evaluate((src) => import(`${src}?copy=3`), loader);
  await expect(page.locator('iframe')).toHaveCount(3);
  expect(problems.all()).toEqual([]);
});

test('sends the key only to its own embed.html: not beside another script named embed.js, nor where the page names an element currentScript', async ({
  page,
  servers,
  key,
}) => {
  const other = servers.site.page('/other/embed.js', '/* another embed.js */', { 'Content-Type': 'text/javascript' });
  const pages = {
    // Another site's embed.js in the head; ours pasted as a module (it has no currentScript).
    named: htmlPage(
      `${placeholder(servers, key, 'board', 'usd')}<script type="module" src="${servers.cdn.url}embed.js"></script>`,
      `<script async src="${other}"></script>`,
    ),
    // HTML that names an element currentScript (a comment on the page, say): document.currentScript is that image.
    clobbered: htmlPage(
      `<img name="currentScript" src="${servers.site.origin}/other/x.png" alt="">${placeholder(servers, key, 'board', 'usd')}<script src="${servers.cdn.url}embed.js"></script>`,
    ),
  };
  for (const [name, html] of Object.entries(pages)) {
    await page.goto(servers.site.page(`/loader-${name}.html`, html));
    const iframe = page.locator('#board > iframe');
    await expect(iframe, name).toHaveCount(1);
    const src = new URL((await iframe.getAttribute('src'))!);
    expect(`${src.origin}${src.pathname}`, name).toBe(`${servers.cdn.url}embed.html`);
    await expectSizedToContent(page, 'board');
  }
});

test("the frame goes from its first height straight to the board's, never folded shut between", async ({
  page,
  servers,
  key,
}) => {
  // Every height the loader gives the frame, as it gives it.
  await page.addInitScript(() => {
    const seen: string[] = ((window as unknown as { __heights: string[] }).__heights = []);
    new MutationObserver((records) => {
      for (const r of records)
        if (r.target instanceof HTMLIFrameElement) seen.push(r.target.getAttribute('height') ?? '');
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['height'] });
  });
  await page.goto(loaderPage(servers, '/loader-heights.html', placeholder(servers, key, 'board', 'usd,eur,gbp')));
  await expectSizedToContent(page, 'board');
  const seen = await page.evaluate(() => (window as unknown as { __heights: string[] }).__heights);
  expect(seen.length).toBeGreaterThan(0);
  expect(seen.filter((h) => Number(h) < 50)).toEqual([]);
});

test('ignores resize messages from another origin or another window', async ({ page, servers, key }) => {
  const url = servers.site.page(
    '/loader-spoof.html',
    htmlPage(`${placeholder(servers, key, 'real', 'usd')}
<iframe id="other" src="${servers.cdn.url}embed.html?symbols=usd&amp;chart=none&amp;key=${key}&amp;base-url=${sandboxBase(servers)}" title="other" width="300" height="100"></iframe>
<script type="module" src="${servers.cdn.url}embed.js"></script>`),
  );
  await page.goto(url);
  await expectSizedToContent(page, 'real');
  const sized = (await heights(page, 'real')).outer;
  const messages = await recordMessages(page);

  // The page itself (wrong origin) ...
  await page.evaluate(() => window.postMessage({ type: 'price-board:resize', height: 777 }, '*'));
  // ... and the CDN's origin from a frame the loader did not make (wrong source).
  const other = page.frame({ url: /embed\.html\?symbols=usd&chart=none/ })!;
  await other.evaluate(() => parent.postMessage({ type: 'price-board:resize', height: 777 }, '*'));
  // Malformed messages from the right frame are ignored too.
  const real = (await (await page.locator('#real > iframe').elementHandle())!.contentFrame())!;
  await real.evaluate(() => {
    parent.postMessage({ type: 'price-board:resize', height: 'tall' }, '*');
    parent.postMessage({ type: 'something-else', height: 777 }, '*');
    parent.postMessage('price-board:resize', '*');
  });
  // All five reached the page (and so the loader's listener).
  const spoofed = (d: unknown) => hasHeight(d, 777) || hasHeight(d, 'tall') || d === 'price-board:resize';
  await expect.poll(async () => (await messages()).filter(spoofed).length).toBe(5);
  expect((await heights(page, 'real')).outer).toBe(sized);

  // The real frame's own message does resize (the check above is not vacuous).
  await real.evaluate(() => parent.postMessage({ type: 'price-board:resize', height: 555 }, '*'));
  await expect.poll(async () => (await heights(page, 'real')).outer).toBe(555);
});

// The loader pasted the way embed snippets are pasted: as a classic script (what site builders
// allow), async or deferred, or as a module. Each finds the embed page beside itself.
for (const form of ['', 'async', 'defer', 'type="module"']) {
  test(`works pasted as <script ${form || '(classic)'} src>`, async ({ page, servers, key, problems }) => {
    const url = servers.site.page(
      `/loader-${form.replace(/\W/g, '') || 'classic'}.html`,
      htmlPage(`${placeholder(servers, key, 'before', 'usd')}
<script ${form} src="${servers.cdn.url}embed.js"></script>
${placeholder(servers, key, 'after', 'eur,ons')}`),
    );
    await page.goto(url);
    for (const id of ['before', 'after']) {
      const src = new URL((await page.locator(`#${id} > iframe`).getAttribute('src'))!);
      expect(`${src.origin}${src.pathname}`).toBe(`${servers.cdn.url}embed.html`);
      await expectSizedToContent(page, id);
    }
    expect(problems.all()).toEqual([]);
  });
}

test('passes the columns, density, link and max height of a placeholder to its frame', async ({
  page,
  servers,
  key,
  problems,
}) => {
  const url = servers.site.page(
    '/loader-columns.html',
    htmlPage(`<div id="board" data-price-board data-symbols="usd,coin_emami" data-key="${key}" data-base-url="${sandboxBase(servers)}" data-chart="none"
  data-columns="price,bubble" data-density="compact" data-link="/p/{symbol}?from=board" data-max-height="150"></div>
<script async src="${servers.cdn.url}embed.js"></script>`),
  );
  await page.goto(url);
  const iframe = page.locator('#board > iframe');
  await expect(iframe).toHaveCount(1);
  const src = new URL((await iframe.getAttribute('src'))!).searchParams;
  expect([src.get('columns'), src.get('density'), src.get('link'), src.get('max-height')]).toEqual([
    'price,bubble',
    'compact',
    // A relative link is the site's page, not the widget server's.
    `${servers.site.origin}/p/{symbol}?from=board`,
    '150',
  ]);
  const frame = page.frameLocator('#board > iframe');
  await expect(frame.locator('[data-symbol="coin_emami"] [part~="bubble"]')).toHaveText(/٪$/);
  await expect(frame.locator('[data-symbol="usd"] [part~="title"] a')).toHaveAttribute('target', '_top');
  await expect(frame.locator('[data-symbol="usd"] [part~="title"] a')).toHaveAttribute(
    'href',
    `${servers.site.origin}/p/usd?from=board`,
  );
  // The frame follows the board, bounded by the max height.
  await expectSizedToContent(page, 'board');
  expect((await heights(page, 'board')).outer).toBeLessThanOrEqual(150);
  expect(problems.all()).toEqual([]);
});

test('a placeholder with an empty data-api-key left beside its data-key shows live prices', async ({
  page,
  servers,
  key,
}) => {
  const board = placeholder(servers, key, 'board', 'usd,eur').replace('data-key=', 'data-api-key="" data-key=');
  await page.goto(loaderPage(servers, '/loader-empty-key.html', board));
  const frame = page.frameLocator('#board > iframe');
  await expect(rows(frame)).toHaveCount(2);
  await expect(frame.locator('price-board [part~="status"]')).toHaveAttribute('data-status', 'live');
  await expect(frame.locator('price-board [part~="error"]')).toHaveCount(0);
});

test('frames keep following their board after the page restores a cloned body (Turbo-style cache)', async ({
  page,
  servers,
  key,
}) => {
  await page.goto(loaderPage(servers, '/loader-restore.html', placeholder(servers, key, 'board', 'usd,eur,gbp')));
  await expectSizedToContent(page, 'board');
  // The cache's snapshot is a deep clone of the body; restoring it brings new iframe elements (the
  // snapshot here at the frame's first height, as one taken before its board had sized it).
  await page.evaluate(() => {
    const snapshot = document.body.cloneNode(true) as HTMLElement;
    const frame = snapshot.querySelector('#board > iframe') as HTMLIFrameElement;
    frame.height = '420';
    frame.style.height = '420px';
    document.body.replaceWith(snapshot);
  });
  await expect.poll(async () => (await heights(page, 'board')).outer).not.toBe(420);
  await expectSizedToContent(page, 'board');
});

test('a max height in viewport units is the page’s viewport, not the frame’s (which follows the board)', async ({
  page,
  servers,
  key,
}) => {
  await page.setViewportSize({ width: 900, height: 700 });
  const symbols = 'usd,eur,gbp,aed,try,cny,chf,gold_18,coin_emami,ons';
  const board = placeholder(servers, key, 'board', symbols).replace('<div ', '<div data-max-height="40vh" ');
  await page.goto(loaderPage(servers, '/loader-vh.html', board));
  await expect(rows(page.frameLocator('#board > iframe'))).toHaveCount(10);
  await expectSizedToContent(page, 'board');
  // Ten rows are taller than 280 px: the frame is held at 40 % of the page's 700 px, not folded smaller.
  const { outer } = await heights(page, 'board');
  expect(outer).toBeLessThanOrEqual(280);
  expect(outer).toBeGreaterThan(200);
  // The loader passed it in pixels.
  const src = new URL((await page.locator('#board > iframe').getAttribute('src'))!).searchParams;
  expect(src.get('max-height')).toBe('280');
});

test('a placeholder whose HTML arrives in two parts keeps only its frame, not the rest of its fallback', async ({
  page,
  servers,
  key,
}) => {
  // A page whose HTML stops inside the placeholder (a network packet boundary) until released.
  const [head, tail] = htmlPage(
    placeholder(servers, key, 'board', 'usd,eur'),
    `<script src="${servers.cdn.url}embed.js"></script>`,
  ).split('<a href="#">');
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const site = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.write(head);
    void released.then(() => res.end(`<a href="#">${tail}`));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = site.address() as AddressInfo;
    const loading = page.goto(`http://127.0.0.1:${port}/split.html`);
    // The loader converts the placeholder as soon as the parser has made it.
    await expect(page.locator('#board > iframe')).toHaveCount(1);
    release();
    await loading;
    await expect(rows(page.frameLocator('#board > iframe'))).toHaveCount(2);
    expect(await page.locator('#board').evaluate((el) => [...el.childNodes].map((n) => n.nodeName))).toEqual([
      'IFRAME',
    ]);
  } finally {
    release();
    site.closeAllConnections();
    site.close();
  }
});

test('a vh max height in a window without a height yet (a hidden frame) is passed on as written, not as 0 px', async ({
  page,
  servers,
  key,
}) => {
  const board = placeholder(servers, key, 'board', 'usd').replace('<div ', '<div data-max-height="40vh" ');
  const inner = loaderPage(servers, '/loader-vh-hidden-inner.html', board);
  await page.goto(
    servers.site.page('/loader-vh-hidden.html', htmlPage(`<iframe src="${inner}" height="0" title="hidden"></iframe>`)),
  );
  const frame = page.frameLocator('iframe[title="hidden"]');
  await expect(frame.locator('#board > iframe')).toHaveCount(1);
  const src = new URL((await frame.locator('#board > iframe').getAttribute('src'))!).searchParams;
  expect(src.get('max-height')).toBe('40vh');
});
