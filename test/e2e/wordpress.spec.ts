/**
 * The WordPress plugin in a real WordPress (Debian's 6.1, MariaDB, `php -S`), installed from the
 * built zip and set to a relay over the sandbox: the shortcodes' and blocks' prices are in the
 * served HTML, the widgets go live in Chromium, an author saves a block, a shortcode's stored
 * `&amp;` reaches the element as `&`, an author sees the mistakes in a widget's attributes (a
 * visitor does not), a site with no address set shows visitors nothing, the
 * settings page tests addresses in Persian and saves key mode, the cache plugins' exclusion
 * filters hold, and a post still renders when the relay is down. Also: docs/wordpress.md lists the
 * shortcodes' attributes as the attribute table has them. The block editor: wordpress-editor.spec.ts.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { WIDGET_ATTRIBUTES } from '../../src/shared/attribute-table';
import { expect, persianGrouped, priceCell, test } from './support/fixtures';
import type { RelayOnSandbox } from './support/servers';
import type { WordPressPost, WordPressSite } from './support/wordpress';
import { BLOCKS_PAGE, WIDGETS, elementIn, logIn, servedHtml, startWordPressOnRelay } from './support/wordpress-pages';

const POSTS: Record<string, WordPressPost> = {
  shortcodes: {
    type: 'post',
    title: 'shortcodes',
    content:
      '[price_board symbols="usd,eur,gold_18" chart="none"]\n\n[price_ticker symbols="usd,coin_emami"]\n\n[price_converter symbols="usd" amount="2"]',
  },
  blocks: BLOCKS_PAGE,
  plain: { type: 'page', title: 'plain', content: '<p>no widget here</p>' },
  // As WordPress stores a shortcode's `&` (the Paragraph block, the classic editor, kses).
  link: {
    type: 'post',
    title: 'link',
    content: '[price_board symbols="usd" chart="none" link="https://example.com/p?s={symbol}&amp;x=1"]',
  },
  // An author's mistakes: a symbol the service does not have, a piece that is no symbol, a bad value.
  mistakes: {
    type: 'post',
    title: 'mistakes',
    content: '[price_board symbols="usd,nosuch,gold-18" theme="purple" chart="none"]',
  },
  relayDown: {
    type: 'post',
    title: 'relay down',
    content: '[price_board symbols="gold_24" chart="none"]\n\n[price_converter symbols="eur" reverse]',
  },
};

let started: RelayOnSandbox;
let site: WordPressSite;

/** Sets exact prices (rial) on the relay's sandbox; each is pushed to the relay's stream. */
async function setPrices(set: Array<{ symbol: string; price: string }>): Promise<void> {
  const answer = await fetch(`${started.sandbox.url}/__sandbox/market`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ set }),
  });
  expect(answer.ok).toBe(true);
}

/** Waits until the relay holds `price` (rial) for `symbol`: what its next fragment renders. */
async function relayHolds(symbol: string, price: string): Promise<void> {
  await expect
    .poll(async () => {
      const answer = await fetch(`${started.relay.url}/v1/prices?symbols=${symbol}`);
      const body = (await answer.json()) as { data: { quotes: Array<{ price: string }> } };
      return body.data.quotes[0]?.price;
    })
    .toBe(price);
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  ({ started, site } = await startWordPressOnRelay('basic-key:e2e-wordpress', POSTS));
});

test.afterAll(async () => {
  await site?.close();
  await started?.close();
});

/** The checks of a page showing the three widgets with `usd` at 1,234,567 toman (the converter: 2 of them). */
function expectRenderedWidgets(html: string): void {
  for (const tag of WIDGETS) {
    const element = elementIn(html, tag);
    // Rendered by the relay, pointed at it: the element's address is the relay's.
    expect(element).toMatch(new RegExp(`^<${tag} base-url="${started.relay.url}"`));
    expect(element).toContain('<template shadowroot="open" shadowrootmode="open">');
    // Modules from the plugin's own folder, kept away from delay-JS and combine optimizers.
    expect(html).toMatch(
      new RegExp(
        `<script type="module" data-cfasync="false"[^>]* nowprocket src=['"]${site.url}/wp-content/plugins/price-board/widgets/${tag}\\.js['"]`,
      ),
    );
  }
  expect(elementIn(html, 'price-board')).toContain(persianGrouped('1234567'));
  expect(elementIn(html, 'price-ticker')).toContain(persianGrouped('1234567'));
  expect(elementIn(html, 'price-converter')).toContain(persianGrouped('2469134'));
}

test("a post's shortcodes are in its served HTML with the relay's Persian prices and the element's modules", async () => {
  expectRenderedWidgets(await servedHtml(site.postUrl('shortcodes')));
});

test("a page's blocks are rendered on the server the same way, and a page without a widget loads none of its files", async () => {
  expectRenderedWidgets(await servedHtml(site.postUrl('blocks')));
  expect(await servedHtml(site.postUrl('plain'))).not.toContain('/plugins/price-board/');
});

test('in Chromium the rendered widgets go live on the next price change', async ({ page, problems }) => {
  await page.goto(site.postUrl('shortcodes'));
  const board = page.locator('price-board');
  await expect(priceCell(board, 'usd')).toContainText(persianGrouped('1234567'));
  await expect(board.locator('[part~="status"]')).toHaveAttribute('data-status', 'live');
  await setPrices([{ symbol: 'usd', price: '13579240' }]);
  await expect(priceCell(board, 'usd')).toContainText(persianGrouped('1357924'));
  await expect(page.locator('price-ticker')).toContainText(persianGrouped('1357924'));
  await expect(page.locator('price-converter')).toContainText(persianGrouped('2715848'));
  // WordPress's test site has no favicon: the browser's own request for one is not the widgets'.
  expect(problems.all().filter((problem) => !problem.includes('/favicon.ico'))).toEqual([]);
});

/**
 * Publishes a post as the author (no unfiltered_html: WordPress runs kses on it) through the REST
 * API: its address and its content as stored.
 */
async function publishAsAuthor(title: string, content: string): Promise<{ link: string; content: { raw: string } }> {
  const answer = await fetch(`${site.url}/?rest_route=/wp/v2/posts&context=edit`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Authorization: `Basic ${Buffer.from(`author:${site.authorPassword}`).toString('base64')}`,
    },
    body: JSON.stringify({ title, status: 'publish', content }),
  });
  expect(answer.status).toBe(201);
  return (await answer.json()) as { link: string; content: { raw: string } };
}

test('an author (no unfiltered_html) saves a post with a block through the REST API, and it renders with prices', async () => {
  await setPrices([{ symbol: 'usd', price: '24680000' }]);
  await relayHolds('usd', '24680000');
  const saved = await publishAsAuthor(
    'by the author',
    '<!-- wp:price-board/price-board {"symbols":"eur,usd","chart":"none","columns":"price,change"} /-->',
  );
  const board = elementIn(await servedHtml(saved.link), 'price-board');
  expect(board).toMatch(/ symbols="eur,usd"/);
  expect(board).toMatch(/ columns="price,change"/);
  expect(board).toContain(persianGrouped('2468000'));
});

/** Each board's `usd` title link in the page at `url`, once its rows are there. */
async function expectLinks(page: Page, url: string, boards: number): Promise<void> {
  await page.goto(url);
  const board = page.locator('price-board');
  await expect(board).toHaveCount(boards);
  for (let n = 0; n < boards; n += 1) {
    await expect(board.nth(n)).toHaveAttribute('link', 'https://example.com/p?s={symbol}&x=1');
    const title = board.nth(n).locator('[data-symbol="usd"] [part~="title"] a');
    await expect(title).toHaveAttribute('href', 'https://example.com/p?s=usd&x=1');
  }
}

test("an attribute's `&`, stored by WordPress as `&amp;`, reaches the element as `&` (a shortcode as stored, and an author's shortcode and block through kses)", async ({
  page,
}) => {
  await expectLinks(page, site.postUrl('link'), 1);
  const link = 'https://example.com/p?s={symbol}&x=1';
  const saved = await publishAsAuthor(
    'links by the author',
    [
      `<!-- wp:paragraph --><p>[price_board symbols="usd" chart="none" link="${link}"]</p><!-- /wp:paragraph -->`,
      `<!-- wp:price-board/price-board ${JSON.stringify({ symbols: 'usd', chart: 'none', link })} /-->`,
    ].join('\n\n'),
  );
  // kses wrote the `&` as `&amp;`, in the shortcode's text and in the block's attribute alike
  // (`\u0026` is how a block comment writes `&`): what the plugin has to read back.
  expect(saved.content.raw).toContain('link="https://example.com/p?s={symbol}&amp;x=1"');
  expect(saved.content.raw).toContain('"link":"https://example.com/p?s={symbol}\\u0026amp;x=1"');
  await expectLinks(page, saved.link, 2);
  // Where the plugin writes the element itself (no fragment), a value is escaped once: text that
  // reads `&amp;` once decoded (stored `&amp;amp;`) stays that text.
  expect(
    site.php(
      `echo price_board_attribute_text( price_board_element_attributes( 'price-board', array( 'link' => '/p?a=1&amp;amp;b=2' ) ) );`,
    ),
  ).toBe(' link="/p?a=1&amp;amp;b=2"');
});

test('the mistakes in a widget’s attributes are shown under it to its authors, in Persian, never to visitors', async ({
  page,
}) => {
  // A visitor: the board of what could be read (usd, the default theme), and no word of the mistakes.
  const html = await servedHtml(site.postUrl('mistakes'));
  expect(elementIn(html, 'price-board')).toMatch(/^<price-board [^>]*symbols="usd"/);
  expect(html).not.toContain('price-board-mistakes');
  // Its author: the board, then what was wrong, each named.
  await logIn(page, site, 'author');
  await page.goto(site.postUrl('mistakes'));
  const notice = page.locator('price-board + .price-board-mistakes');
  await expect(notice).toBeVisible();
  await expect(notice.locator('li')).toHaveText([
    'این نمادها در سرویس قیمت نیستند: nosuch',
    'این‌ها در symbols نماد نیستند و کنار گذاشته شدند: gold-18',
    'مقدار این ویژگی‌ها نامعتبر است و مقدار پیش‌فرض به کار رفت: theme',
  ]);
});

test('with no relay or service set, visitors get nothing of a widget and an administrator gets a Persian notice pointing at the settings', async ({
  page,
}) => {
  site.php(`delete_option( 'price_board_settings' );`);
  try {
    // A visitor: no element (it would ask WordPress itself for prices), no script, no notice.
    const html = await servedHtml(site.postUrl('shortcodes'));
    for (const tag of WIDGETS) expect(html).not.toContain(`<${tag}`);
    expect(html).not.toContain('/plugins/price-board/');
    expect(html).not.toContain('price-board-unconfigured');
    // An author cannot set the address: nothing either.
    await logIn(page, site, 'author');
    await page.goto(site.postUrl('blocks'));
    await expect(page.locator('#wpadminbar')).toBeVisible();
    await expect(page.locator('.price-board-unconfigured')).toHaveCount(0);
    // An administrator: a notice in place of each widget, with the settings page's address.
    await page.context().clearCookies();
    await logIn(page, site);
    await page.goto(site.postUrl('shortcodes'));
    const notices = page.locator('.price-board-unconfigured');
    await expect(notices).toHaveCount(3);
    await expect(notices.first()).toContainText('تنظیمات ← تابلوی قیمت');
    await expect(notices.first().locator('a')).toHaveAttribute(
      'href',
      `${site.url}/wp-admin/options-general.php?page=price-board`,
    );
    await expect(page.locator(WIDGETS.join(', '))).toHaveCount(0);
    await expect(page.locator('script[src*="/plugins/price-board/"]')).toHaveCount(0);
  } finally {
    site.php(
      `update_option( 'price_board_settings', array( 'mode' => 'relay', 'relay_url' => '${started.relay.url}' ) );`,
    );
  }
});

test('the settings page tests the address typed and answers in Persian', async ({ page }) => {
  await logIn(page, site);
  await page.goto(`${site.url}/wp-admin/options-general.php?page=price-board`);
  const address = page.locator('#price-board-relay_url');
  const result = page.locator('#price-board-test-result');
  const test = page.locator('#price-board-test');
  await expect(address).toHaveValue(started.relay.url);

  await test.click();
  await expect(result).toHaveText(/^رله پاسخ داد: [۰-۹]+ قیمت\.$/);

  // Nothing listens there: a bad address.
  await address.fill('http://127.0.0.1:9');
  await test.click();
  await expect(result).toHaveText(/^نشانی نادرست است/);

  // The site itself answers, but it is not a relay.
  await address.fill(site.url);
  await test.click();
  await expect(result).toHaveText('این نشانی پاسخ داد، اما رلهٔ تابلوی قیمت نیست.');

  // A server that takes the connection and never answers: the test's own 5 s bound.
  const silent = createServer(() => {});
  await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
  try {
    await address.fill(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`);
    await test.click();
    await expect(result).toHaveText('این نشانی در ۵ ثانیه پاسخی نداد (زمان انتظار گذشت).', { timeout: 20_000 });
  } finally {
    silent.closeAllConnections();
    await new Promise((done) => silent.close(done));
  }
});

test("the cache plugins' exclusion filters leave out the widgets' folder or script handles", () => {
  const widgets = '/wp-content/plugins/price-board/widgets/';
  const handles = WIDGETS.map((tag) => `price-board-${tag}`);
  const filtered = JSON.parse(
    site.php(`
      $paths = array();
      foreach ( array( 'rocket_delay_js_exclusions', 'rocket_exclude_defer_js', 'rocket_exclude_js', 'litespeed_optimize_js_excludes', 'litespeed_optm_js_defer_exc', 'litespeed_optm_gm_js_exc' ) as $name ) {
        $paths[ $name ] = apply_filters( $name, array( '/other.js' ) );
      }
      $handles = array();
      foreach ( array( 'sgo_js_minify_exclude', 'sgo_javascript_combine_exclude', 'sgo_js_async_exclude' ) as $name ) {
        $handles[ $name ] = apply_filters( $name, array( 'other' ) );
      }
      echo wp_json_encode( array(
        'paths' => $paths,
        'handles' => $handles,
        'autoptimize' => apply_filters( 'autoptimize_filter_js_exclude', 'other.js' ),
        'w3tc' => apply_filters( 'w3tc_minify_js_do_tag_minification', true, '<script src="${site.url}${widgets}price-board.js"></script>', '' ),
        'w3tcOther' => apply_filters( 'w3tc_minify_js_do_tag_minification', true, '<script src="/other.js"></script>', '' ),
      ) );
    `),
  ) as { paths: object; handles: object; autoptimize: string; w3tc: boolean; w3tcOther: boolean };
  for (const list of Object.values(filtered.paths)) expect(list).toEqual(['/other.js', widgets]);
  for (const list of Object.values(filtered.handles)) expect(list).toEqual(['other', ...handles]);
  expect(filtered.autoptimize).toBe(`other.js, ${widgets}`);
  expect(filtered.w3tc).toBe(false);
  expect(filtered.w3tcOther).toBe(true);
});

test('key mode, saved on the settings page: the service answers the test, and posts get the bare element with its address and key', async ({
  page,
}) => {
  const key = 'pro-key:e2e-wordpress';
  await logIn(page, site);
  await page.goto(`${site.url}/wp-admin/options-general.php?page=price-board`);
  await page.locator('input[name="price_board_settings[mode]"][value="key"]').check();
  await page.locator('#price-board-service_url').fill(started.sandbox.url);
  await page.locator('#price-board-api_key').fill(key);
  await page.locator('#price-board-test').click();
  await expect(page.locator('#price-board-test-result')).toHaveText(/^سرویس پاسخ داد: [۰-۹]+ نماد\.$/);
  await page.locator('#price-board-unit').selectOption('rial');
  await page.locator('#submit').click();
  await expect(page.locator('#price-board-service_url')).toHaveValue(started.sandbox.url);

  // No relay: no fragment, and the element gets the service's address, the (public) key and the site's unit.
  const html = await servedHtml(site.postUrl('shortcodes'));
  expect(elementIn(html, 'price-board')).toBe(
    `<price-board base-url="${started.sandbox.url}" api-key="${key}" symbols="usd,eur,gold_18" unit="rial" chart="none"></price-board>`,
  );

  // Back to the relay, for what follows.
  await page.locator('input[name="price_board_settings[mode]"][value="relay"]').check();
  await page.locator('#price-board-unit').selectOption('');
  await page.locator('#submit').click();
  await expect(page.locator('input[name="price_board_settings[mode]"][value="relay"]')).toBeChecked();
});

test("a relay that takes the connection and never answers is asked once for a page of three widgets (1 s, the plugin's bound), then the bare elements", async () => {
  let asked = 0;
  const silent = createServer(() => {
    asked += 1;
  });
  await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
  const hanging = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  try {
    site.php(`update_option( 'price_board_settings', array( 'mode' => 'relay', 'relay_url' => '${hanging}' ) );`);
    const html = await servedHtml(site.postUrl('shortcodes'));
    // The first widget waits its 1 s (WordPress's own default is 5 s); the others do not ask.
    expect(asked).toBe(1);
    expect(elementIn(html, 'price-converter')).toMatch(/^<price-converter base-url="[^"]+"[^>]*><\/price-converter>$/);
    expect(elementIn(html, 'price-board')).toBe(
      `<price-board base-url="${hanging}" symbols="usd,eur,gold_18" chart="none"></price-board>`,
    );
  } finally {
    site.php(
      `update_option( 'price_board_settings', array( 'mode' => 'relay', 'relay_url' => '${started.relay.url}' ) );`,
    );
    silent.closeAllConnections();
    await new Promise((done) => silent.close(done));
  }
});

test('with the relay down a post still renders, with the bare element', async () => {
  await started.close();
  const html = await servedHtml(site.postUrl('relayDown'));
  expect(html).toContain(`<price-board base-url="${started.relay.url}" symbols="gold_24" chart="none"></price-board>`);
  // A shortcode's bare word is a flag.
  expect(html).toContain(`<price-converter base-url="${started.relay.url}" symbols="eur" reverse></price-converter>`);
  // Nothing of the plugin's own went wrong on the way (WordPress 6.1 itself is noisy on PHP 8.2).
  const pluginProblems = site
    .debugLog()
    .split('\n')
    .filter((line) => /PHP (Fatal|Warning|Notice|Deprecated)/.test(line) && line.includes('/plugins/price-board/'));
  expect(pluginProblems).toEqual([]);
});

test("docs/wordpress.md lists each shortcode's attributes: the element's table without the site's own", () => {
  const docs = readFileSync(new URL('../../docs/wordpress.md', import.meta.url), 'utf8');
  const shortcodes = { board: 'price_board', ticker: 'price_ticker', converter: 'price_converter' } as const;
  for (const [widget, shortcode] of Object.entries(shortcodes)) {
    const row = docs.split('\n').find((line) => line.startsWith(`| \`[${shortcode}]\``));
    const listed = [...(row ?? '').split('|')[2]!.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]);
    const table = Object.values(WIDGET_ATTRIBUTES[widget as keyof typeof shortcodes]) as Array<{
      attribute: string;
      kind: string;
    }>;
    // The plugin leaves the key, the service's address and the stream's to the settings page.
    const authors = table
      .filter((spec) => !['key', 'base-url', 'url'].includes(spec.kind))
      .map((spec) => spec.attribute);
    expect(listed, shortcode).toEqual(authors);
  }
});
