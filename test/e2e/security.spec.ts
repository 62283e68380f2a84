/**
 * Security of the built embeds (dist/, served by the "CDN" under a strict CSP on its HTML):
 *
 * - the loader `embed.js` resizes an iframe only on a message from that iframe's window *and*
 *   the embed page's origin (loader.spec.ts covers the page itself and a sibling frame of the
 *   CDN; here: the right window on the wrong origin, a frame of a third origin, a frame nested in
 *   the real one, and a page on the CDN's own origin posting to itself);
 * - `embed.html` takes URL parameters carrying markup as plain attribute values: no element is
 *   injected, no script runs, and the element reports `invalid_attribute` in Persian (to the developer only);
 * - the key in the embed page's URL does not leave it in a `Referer`.
 *
 * Strict CSP for the script-tag embed and the loader: see csp.spec.ts (not repeated here); every
 * test below also collects `securitypolicyviolation` events of every frame (`problems`).
 */
import type { Frame, Page } from '@playwright/test';
import { startSite } from './support/servers';
import {
  expect,
  hasHeight,
  htmlPage,
  recordMessages,
  recordWarnings,
  rows,
  sandboxBase,
  test,
  type Servers,
} from './support/fixtures';

const RESIZE = 'price-board:resize';

type Site = Awaited<ReturnType<typeof startSite>>;

/** A third origin, neither the embedding site nor the CDN. */
let evil: Site;
test.beforeAll(async () => {
  evil = await startSite();
});
test.afterAll(async () => {
  await evil.close();
});

function placeholder(servers: Servers, key: string, id: string, extra = ''): string {
  return `<div id="${id}" data-price-board data-symbols="usd" data-key="${key}" data-base-url="${sandboxBase(servers)}" data-chart="none"${extra}></div>`;
}

/** The loader's iframe in `#id`: its element height, once sized by its own frame. */
async function sizedHeight(page: Page, id: string): Promise<number> {
  const iframe = page.locator(`#${id} > iframe`);
  await expect(rows(page.frameLocator(`#${id} > iframe`))).toHaveCount(1);
  await expect.poll(() => iframe.evaluate((el) => el.getBoundingClientRect().height)).not.toBe(420);
  // Settled: two reads in a row agree.
  let last = -1;
  await expect
    .poll(async () => {
      const now = await iframe.evaluate((el) => el.getBoundingClientRect().height);
      const stable = now === last;
      last = now;
      return stable;
    })
    .toBe(true);
  return last;
}

async function frameOf(page: Page, selector: string): Promise<Frame> {
  return (await (await page.locator(selector).elementHandle())!.contentFrame())!;
}

/** Records dialogs (alert/confirm/prompt) and `price-board-error` details of every frame. */
async function watch(page: Page): Promise<{ dialogs: string[] }> {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.addInitScript(() => {
    const errors: unknown[] = [];
    (window as unknown as { __boardErrors: unknown[] }).__boardErrors = errors;
    document.addEventListener('price-board-error', (event) => errors.push((event as CustomEvent).detail));
  });
  return { dialogs };
}

test.describe('the loader checks the origin and the source of resize messages', () => {
  test('ignores the real frame once it shows another origin, frames of a third origin, and a frame nested in the real one', async ({
    page,
    servers,
    key,
    problems,
  }) => {
    const evilPage = evil.page('/evil.html', htmlPage('<p>evil</p>'));
    const url = servers.site.page(
      '/security-loader.html',
      htmlPage(`${placeholder(servers, key, 'real')}
${placeholder(servers, key, 'hijacked')}
<iframe id="third" src="${evilPage}" title="third" width="300" height="100"></iframe>
<script type="module" src="${servers.cdn.url}embed.js"></script>`),
    );
    await page.goto(url);
    const real = await sizedHeight(page, 'real');
    const hijacked = await sizedHeight(page, 'hijacked');

    // 1. A frame of a third origin posts to its parent (wrong origin, wrong source).
    const third = await frameOf(page, '#third');
    await third.evaluate((type) => parent.postMessage({ type, height: 9999 }, '*'), RESIZE);

    // 2. The loader's own frame, navigated to the third origin, posts (right source, wrong origin).
    const hijackedFrame = await frameOf(page, '#hijacked > iframe');
    await hijackedFrame.goto(evilPage);
    expect(new URL(hijackedFrame.url()).origin).toBe(evil.origin);
    await hijackedFrame.evaluate((type) => {
      parent.postMessage({ type, height: 9999 }, '*');
      top!.postMessage({ type, height: 9999 }, '*');
    }, RESIZE);

    // 3. A frame of the CDN's origin nested in the real frame posts to the top (right origin, wrong source).
    const realFrame = await frameOf(page, '#real > iframe');
    await realFrame.evaluate(
      (src) => {
        const nested = document.createElement('iframe');
        nested.id = 'nested';
        nested.src = src;
        // Out of the flow: the real frame's own height must not change because of it.
        Object.assign(nested.style, { position: 'absolute', width: '1px', height: '1px', border: '0', top: '0' });
        document.body.append(nested);
      },
      `${servers.cdn.url}embed.html?symbols=usd&chart=none&key=${encodeURIComponent(key)}&base-url=${encodeURIComponent(sandboxBase(servers))}`,
    );
    await expect.poll(() => realFrame.childFrames().length).toBe(1);
    const nested = realFrame.childFrames()[0]!;
    await nested.waitForLoadState();
    expect(new URL(nested.url()).origin).toBe(servers.cdn.origin);
    const messages = await recordMessages(page);
    await nested.evaluate((type) => {
      top!.postMessage({ type, height: 9999 }, '*');
      parent.parent.postMessage({ type, height: 9999 }, '*');
    }, RESIZE);

    // Both spoofed messages reached the top window (and so its loader's listener).
    await expect.poll(async () => (await messages()).filter((d) => hasHeight(d, 9999)).length).toBe(2);
    const height = (id: string) => page.locator(`#${id} > iframe`).evaluate((el) => el.getBoundingClientRect().height);
    expect(await height('real')).toBe(real);
    expect(await realFrame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height))).toBe(
      real,
    );
    expect(await height('hijacked')).toBe(hijacked);

    // Not vacuous: the real frame's own message is obeyed.
    await realFrame.evaluate((type) => parent.postMessage({ type, height: 321 }, '*'), RESIZE);
    await expect.poll(() => height('real')).toBe(321);
    expect(problems.cspViolations).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
  });

  test('ignores a page on the embed page’s own origin posting to itself (right origin, wrong source)', async ({
    page,
    servers,
    key,
    problems,
  }) => {
    // The embedding page itself is served from the CDN's origin: its own messages carry the very
    // origin the loader accepts, so only the source check stands between them and the iframe.
    const url = `${servers.cdn.url}security-same-origin-host.html`;
    await page.route(url, (route) =>
      route.fulfill({
        contentType: 'text/html; charset=utf-8',
        body: htmlPage(
          `${placeholder(servers, key, 'p')}<script type="module" src="${servers.cdn.url}embed.js"></script>`,
        ),
      }),
    );
    await page.goto(url);
    const sized = await sizedHeight(page, 'p');
    expect(await page.evaluate(() => location.origin)).toBe(servers.cdn.origin);
    const messages = await recordMessages(page);
    await page.evaluate((type) => {
      window.postMessage({ type, height: 9999 }, '*');
      window.postMessage({ type, height: 9999 }, location.origin);
    }, RESIZE);
    // A window opened on the CDN's origin, not the iframe, posting to its opener.
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.evaluate((src) => void window.open(src, '_blank'), `${servers.cdn.url}embed.html?symbols=usd&chart=none`),
    ]);
    await popup.waitForLoadState();
    await popup.evaluate((type) => opener.postMessage({ type, height: 9999 }, '*'), RESIZE);
    // All three reached the page (and so its loader's listener).
    await expect.poll(async () => (await messages()).filter((d) => hasHeight(d, 9999)).length).toBe(3);
    expect(await page.locator('#p > iframe').evaluate((el) => el.getBoundingClientRect().height)).toBe(sized);
    expect(problems.pageErrors).toEqual([]);
  });
});

test.describe('embed.html with markup in its URL parameters', () => {
  const MARKUP = {
    symbols: '<img src=x onerror="alert(1);window.__pwned=1">',
    theme: '"><script>alert(2);window.__pwned=2</script>',
    chart: '<iframe src="javascript:alert(3)"></iframe>',
    unit: '<svg onload="alert(4);window.__pwned=4">',
    days: '"><img src=x onerror=alert(5)>',
    'poll-interval': '<b>5</b>',
    'chart-symbol': '<math><mi xlink:href="javascript:alert(6)">x</mi></math>',
    'stream-url': 'javascript:alert(7)',
    title: '<img src=x onerror="alert(8);window.__pwned=8">',
    transparent: '"><img src=x onerror=alert(9)>',
  } satisfies Record<string, string>;

  test('injects no element, runs no script, and the element reports invalid_attribute in Persian', async ({
    page,
    servers,
    key,
    problems,
  }) => {
    const { dialogs } = await watch(page);
    const params = new URLSearchParams({ ...MARKUP, key, 'base-url': sandboxBase(servers) });
    await page.goto(`${servers.cdn.url}embed.html?${params.toString()}`);

    // The markup ids fell back to the default symbols: the board still works.
    await expect(rows(page)).toHaveCount(5);
    await expect(rows(page).first()).toHaveAttribute('data-symbol', 'usd');
    await expect(page.locator('price-board [part~="price"]').first()).toHaveText(/[۰-۹]/);

    const found = await page.evaluate(() => {
      const board = document.querySelector('price-board')!;
      const root = board.shadowRoot!;
      const count = (selector: string) =>
        document.querySelectorAll(selector).length + root.querySelectorAll(selector).length;
      const handlers = [...document.querySelectorAll('*'), ...root.querySelectorAll('*')].filter((el) =>
        [...el.attributes].some((a) => /^on/i.test(a.name)),
      );
      return {
        body: [...document.body.children].map((el) => el.localName),
        injected: ['img', 'svg', 'math', 'iframe', 'b', 'script:not([src])'].map((s) => `${s}: ${count(s)}`),
        handlers: handlers.map((el) => el.localName),
        pwned: (window as unknown as { __pwned?: number }).__pwned,
        // The values went in as attribute text, unchanged.
        symbols: board.getAttribute('symbols'),
        theme: board.getAttribute('theme'),
        errors: (window as unknown as { __boardErrors: Array<{ code: string; message: string }> }).__boardErrors,
      };
    });
    expect(found.body).toEqual(['price-board']);
    expect(found.injected).toEqual(['img: 0', 'svg: 0', 'math: 0', 'iframe: 0', 'b: 0', 'script:not([src]): 0']);
    expect(found.handlers).toEqual([]);
    expect(found.pwned).toBeUndefined();
    expect(found.symbols).toBe(MARKUP.symbols);
    expect(found.theme).toBe(MARKUP.theme);
    const invalid = found.errors.filter((e) => e.code === 'invalid_attribute');
    expect(invalid.length).toBeGreaterThanOrEqual(5);
    for (const e of invalid) {
      expect(e.message).toMatch(/[\u0600-\u06ff]/);
      // The message names the attribute; it never echoes the value.
      expect(e.message).not.toMatch(/<|>|alert|javascript/);
    }
    // No element of the markup is in the page (above), so nothing is left that could open a dialog later.
    expect(dialogs).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
    expect(problems.cspViolations).toEqual([]);
  });

  // In an iframe embed nobody outside can hear the price-board-error event; docs/embedding.md
  // promises the developer the element's warning in the frame's console, and visitors nothing of it.
  test("says invalid_attribute in the frame's console, never to visitors", async ({ page, servers, key }) => {
    const warnings = recordWarnings(page);
    const params = new URLSearchParams({
      symbols: MARKUP.symbols,
      theme: MARKUP.theme,
      key,
      'base-url': sandboxBase(servers),
      chart: 'none',
    });
    await page.goto(`${servers.cdn.url}embed.html?${params.toString()}`);
    await expect(rows(page)).toHaveCount(5);
    await expect
      .poll(() => warnings.filter((w) => w.includes('invalid_attribute') && w.includes('«theme»')).length)
      .toBe(1);
    // It names the attribute, never its value.
    expect(warnings.join('\n')).not.toContain('<');
    await expect(page.locator('price-board [part~="error"]')).toHaveCount(0);
  });

  test('the loader passes markup in data-* attributes as URL parameters only', async ({
    page,
    servers,
    key,
    problems,
  }) => {
    const { dialogs } = await watch(page);
    const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    const url = servers.site.page(
      '/security-loader-markup.html',
      htmlPage(`${placeholder(
        servers,
        key,
        'p',
        ` data-title="${attr(MARKUP.title)}" data-theme="${attr(MARKUP.theme)}" data-unit="${attr(MARKUP.unit)}" data-onload="${attr('alert(10)')}"`,
      )}
<script type="module" src="${servers.cdn.url}embed.js"></script>`),
    );
    await page.goto(url);
    const iframe = page.locator('#p > iframe');
    await expect(iframe).toHaveCount(1);
    await expect(rows(page.frameLocator('#p > iframe'))).toHaveCount(1);
    // The title is an attribute value; the markup reaches the frame only as URL parameters.
    await expect(iframe).toHaveAttribute('title', MARKUP.title);
    const src = new URL((await iframe.getAttribute('src'))!);
    expect(`${src.origin}${src.pathname}`).toBe(`${servers.cdn.url}embed.html`);
    expect(src.searchParams.get('theme')).toBe(MARKUP.theme);
    expect(src.searchParams.get('unit')).toBe(MARKUP.unit);
    expect(src.searchParams.has('onload')).toBe(false);
    expect(src.searchParams.has('title')).toBe(false);
    const top = await page.evaluate(() => ({
      injected: document.querySelectorAll('img, svg, script:not([src])').length,
      iframes: document.querySelectorAll('iframe').length,
      pwned: (window as unknown as { __pwned?: number }).__pwned,
    }));
    expect(top).toEqual({ injected: 0, iframes: 1, pwned: undefined });
    const frame = await frameOf(page, '#p > iframe');
    expect(
      await frame.evaluate(
        () =>
          document.querySelectorAll('img, svg').length +
          document.querySelector('price-board')!.shadowRoot!.querySelectorAll('img, svg').length,
      ),
    ).toBe(0);
    expect(dialogs).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
    expect(problems.cspViolations).toEqual([]);
  });
});

test('the key in embed.html’s URL never leaves the frame in a Referer', async ({ page, servers, key, problems }) => {
  const secret = `${key}-s3cr3t`;
  const seen: Array<{ url: string; referer: string }> = [];
  page.on('request', (request) => seen.push({ url: request.url(), referer: request.headers()['referer'] ?? '' }));
  const params = new URLSearchParams({ symbols: 'usd,eur', key: secret, 'base-url': sandboxBase(servers), days: '7' });
  await page.goto(`${servers.cdn.url}embed.html?${params.toString()}`);
  await expect(rows(page)).toHaveCount(2);
  await expect(page.locator('price-board [part~="chart"] canvas').first()).toBeVisible();
  const fromFrame = seen.filter((r) => !r.url.startsWith(`${servers.cdn.url}embed.html`));
  // The page's own assets, the prices, the stream and the history: all asked for with an origin-only Referer.
  expect(fromFrame.some((r) => r.url.startsWith(sandboxBase(servers)))).toBe(true);
  expect(fromFrame.filter((r) => r.referer.includes('s3cr3t') || r.url.includes('s3cr3t'))).toEqual([]);
  const { requests, keyInUrl } = (await (await fetch(`${sandboxBase(servers)}/__sandbox/stats`)).json()) as {
    requests: Array<{ key: string | null; url: string }>;
    keyInUrl: number;
  };
  expect(requests.filter((r) => r.key === secret).length).toBeGreaterThan(0);
  expect(keyInUrl).toBe(0);
  expect(problems.all()).toEqual([]);
});
