/**
 * The plugin's blocks in WordPress's block editor (a real WordPress 6.1, as wordpress.spec.ts
 * stands it up, set to a relay over the sandbox): the sidebar's controls come from the attribute
 * table with Persian labels, the preview is the element itself with the site's defaults as the
 * published post has them, a typed field reaches the preview when the author pauses (not per key),
 * and with no address set the editor says where to set one.
 */
import type { Page } from '@playwright/test';
import { expect, priceCell, test } from './support/fixtures';
import type { RelayOnSandbox } from './support/servers';
import type { WordPressPost, WordPressSite } from './support/wordpress';
import {
  BLOCKS_PAGE,
  elementIn,
  logIn,
  openEditor,
  servedHtml,
  startWordPressOnRelay,
} from './support/wordpress-pages';

const POSTS: Record<string, WordPressPost> = {
  blocks: BLOCKS_PAGE,
  // Theme and unit left to the site.
  board: {
    type: 'post',
    title: 'board',
    content: '<!-- wp:price-board/price-board {"symbols":"usd","chart":"none"} /-->',
  },
};

let started: RelayOnSandbox;
let site: WordPressSite;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  ({ started, site } = await startWordPressOnRelay('basic-key:e2e-wordpress-editor', POSTS));
});

test.afterAll(async () => {
  await site?.close();
  await started?.close();
});

/** Sets the plugin's settings: the relay, with `more` (defaults, or another address). */
function settle(more: Record<string, string> = {}): void {
  const settings = { mode: 'relay', relay_url: started.relay.url, ...more };
  site.php(`update_option( 'price_board_settings', json_decode( '${JSON.stringify(settings)}', true ) );`);
}

/** Selects the first block of `type` and returns the sidebar (block inspector). */
async function selectBlock(page: Page, type: string) {
  await page.locator(`.wp-block[data-type="price-board/${type}"]`).first().click();
  return page.locator('.block-editor-block-inspector');
}

test("the block editor shows a block's attributes in its sidebar, labelled in Persian, and the element itself as a live preview", async ({
  page,
}) => {
  await logIn(page, site);
  await openEditor(page, site, site.posts.blocks!);
  const preview = page.locator('.block-editor-block-list__layout price-board');
  await expect(priceCell(preview, 'usd')).toHaveText(/[۰-۹]{3}/);
  // The block's attributes are the element's, from the attribute table, without the site's own.
  const names = await page.evaluate(() =>
    Object.keys(
      (
        window as unknown as { wp: { blocks: { getBlockType(name: string): { attributes: object } } } }
      ).wp.blocks.getBlockType('price-board/price-board').attributes,
    ),
  );
  expect(names).toEqual(expect.arrayContaining(['symbols', 'columns', 'days', 'density', 'link', 'theme', 'unit']));
  expect(names).not.toContain('api-key');
  expect(names).not.toContain('base-url');
  const inspector = await selectBlock(page, 'price-board');
  // Each control's label is Persian; the attribute's name (the shortcode's) is its help.
  const labels = inspector.locator('.components-base-control__label, .components-toggle-control label');
  await expect(labels.first()).toBeVisible();
  for (const label of await labels.allTextContents()) expect(label).toMatch(/^[^A-Za-z]*[\u0600-\u06ff][^A-Za-z]*$/);
  await expect(inspector.getByText('poll-interval', { exact: false })).toBeVisible();
  const columns = inspector.getByLabel('ستون‌ها');
  await expect(columns).toHaveValue('');
  await expect(columns).toHaveAccessibleDescription(/^columns · /);
  await columns.fill('price,high');
  await expect(preview).toHaveAttribute('columns', 'price,high');
});

test("the preview has the site's defaults for theme and unit, as the published post does", async ({ page }) => {
  settle({ theme: 'dark', unit: 'rial' });
  try {
    const published = elementIn(await servedHtml(site.postUrl('board')), 'price-board');
    expect(published).toMatch(/ unit="rial"/);
    expect(published).toMatch(/ theme="dark"/);
    await logIn(page, site);
    await openEditor(page, site, site.posts.board!);
    const preview = page.locator('.block-editor-block-list__layout price-board');
    await expect(preview).toHaveAttribute('theme', 'dark');
    await expect(preview).toHaveAttribute('unit', 'rial');
    // A value the block sets is its own.
    const inspector = await selectBlock(page, 'price-board');
    await inspector.getByLabel('واحد').selectOption('toman');
    await expect(preview).toHaveAttribute('unit', 'toman');
  } finally {
    settle();
  }
});

test('typing a symbol list into the sidebar asks for prices when the author pauses, not per key', async ({ page }) => {
  await logIn(page, site);
  await openEditor(page, site, site.posts.board!);
  const preview = page.locator('.block-editor-block-list__layout price-board');
  await expect(priceCell(preview, 'usd')).toHaveText(/[۰-۹]{3}/);
  const asked: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/v1/prices')) asked.push(request.url());
  });
  const list = 'usd,eur,gold_18,gold_24,coin_emami,coin_bahar,coin_half,coin_quarter,ons';
  // The request that follows the pause: its symbols end the list (the hub asks for the new ones).
  const last = page.waitForRequest(
    (request) =>
      request.url().includes('/v1/prices') &&
      (new URL(request.url()).searchParams.get('symbols') ?? '').split(',').includes('ons'),
  );
  const symbols = (await selectBlock(page, 'price-board')).getByLabel('نمادها');
  await symbols.selectText();
  // About a typist's pace: each key well within the preview's pause.
  await page.keyboard.type(list, { delay: 60 });
  await last;
  await expect(preview).toHaveAttribute('symbols', list);
  await expect(priceCell(preview, 'coin_quarter')).toHaveText(/[۰-۹]{3}/);
  // 72 keys: a request or two (a slow moment between keys may count as a pause), never one per key.
  expect(asked.length, asked.join('\n')).toBeLessThanOrEqual(3);
});

test('with no address set, the editor says where to set one in place of the preview, and asks nothing', async ({
  page,
}) => {
  site.php(`delete_option( 'price_board_settings' );`);
  try {
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/v1/')) asked.push(request.url());
    });
    await logIn(page, site);
    await openEditor(page, site, site.posts.board!);
    const notice = page.locator('.block-editor-block-list__layout .price-board-unconfigured');
    await expect(notice).toContainText('تنظیمات ← تابلوی قیمت');
    await expect(page.locator('.block-editor-block-list__layout price-board')).toHaveCount(0);
    expect(asked).toEqual([]);
  } finally {
    settle();
  }
});
