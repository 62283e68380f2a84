/**
 * The plugin's blocks in WordPress's block editor (a real WordPress 6.1, as wordpress.spec.ts
 * stands it up, set to a relay over the sandbox): the sidebar's controls come from the attribute
 * table, and the preview is the element itself.
 */
import { expect, priceCell, test } from './support/fixtures';
import type { RelayOnSandbox } from './support/servers';
import type { WordPressPost, WordPressSite } from './support/wordpress';
import { logIn, openEditor, startWordPressOnRelay } from './support/wordpress-pages';

const POSTS: Record<string, WordPressPost> = {
  blocks: {
    type: 'page',
    title: 'blocks',
    content: [
      '<!-- wp:price-board/price-board {"symbols":"usd,eur","chart":"none"} /-->',
      '<!-- wp:price-board/price-ticker {"symbols":"usd,coin_emami"} /-->',
      '<!-- wp:price-board/price-converter {"symbols":"usd","amount":"2","reverse":false} /-->',
    ].join('\n\n'),
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

test("the block editor shows a block's attributes in its sidebar and the element itself as a live preview", async ({
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
  await page.locator('.wp-block[data-type="price-board/price-board"]').click();
  const columns = page.locator('.block-editor-block-inspector').getByLabel('columns');
  await expect(columns).toHaveValue('');
  await columns.fill('price,high');
  await expect(preview).toHaveAttribute('columns', 'price,high');
});
