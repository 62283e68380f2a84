/**
 * What the WordPress specs share: a WordPress (support/wordpress.ts) set to a relay over the
 * sandbox, its served HTML as a crawler reads it, logging in, and opening a post in the block
 * editor.
 */
import type { Page } from '@playwright/test';
import { expect } from './fixtures';
import { startRelayOnSandbox, type RelayOnSandbox } from './servers';
import { startWordPress, type WordPressPost, type WordPressSite } from './wordpress';

export const WIDGETS = ['price-board', 'price-ticker', 'price-converter'] as const;

/** A page with each widget's block, as the block editor saves them. */
export const BLOCKS_PAGE: WordPressPost = {
  type: 'page',
  title: 'blocks',
  content: [
    '<!-- wp:price-board/price-board {"symbols":"usd,eur","chart":"none"} /-->',
    '<!-- wp:price-board/price-ticker {"symbols":"usd,coin_emami"} /-->',
    '<!-- wp:price-board/price-converter {"symbols":"usd","amount":"2","reverse":false} /-->',
  ].join('\n\n'),
};

/**
 * A relay over the sandbox (with `usd` at 1,234,567 toman) and a WordPress set to it, with `posts`.
 * The relay in this process loads its renderer (the widgets' TypeScript, compiled on import) on
 * its first fragment: seconds, beyond the plugin's 1 s wait, so each widget's is asked for first.
 * A deployed relay is built.
 */
export async function startWordPressOnRelay(
  upstreamKey: string,
  posts: Record<string, WordPressPost>,
): Promise<{ started: RelayOnSandbox; site: WordPressSite }> {
  const started = await startRelayOnSandbox(upstreamKey);
  const answer = await fetch(`${started.sandbox.url}/__sandbox/market`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ set: [{ symbol: 'usd', price: '12345670' }] }),
  });
  expect(answer.ok).toBe(true);
  for (const tag of WIDGETS) expect((await fetch(`${started.relay.url}/render/${tag}?script=0`)).status).toBe(200);
  const site = await startWordPress({ settings: { mode: 'relay', relay_url: started.relay.url }, posts });
  return { started, site };
}

/** The served HTML of a page, as a search engine or a link preview reads it (no script run). */
export async function servedHtml(url: string): Promise<string> {
  const answer = await fetch(url);
  expect(answer.status).toBe(200);
  return answer.text();
}

/** The markup of the first `<tag>` in `html`, from its opening tag to its end. */
export function elementIn(html: string, tag: string): string {
  const start = html.indexOf(`<${tag} `);
  expect(start, `<${tag}> in the page`).toBeGreaterThanOrEqual(0);
  return html.slice(start, html.indexOf(`</${tag}>`, start) + tag.length + 3);
}

/** Logs `user` in (the administrator by default; the author has the same password). */
export async function logIn(page: Page, site: WordPressSite, user = 'admin'): Promise<void> {
  await page.goto(`${site.url}/wp-login.php`);
  await page.locator('#user_login').fill(user);
  await page.locator('#user_pass').fill(site.adminPassword);
  await page.locator('#wp-submit').click();
  await page.waitForURL(/wp-admin/);
}

/**
 * Opens post `id` in the block editor, once its editor is ready, with the welcome guide (shown on
 * a user's first visit, over the content) turned off.
 */
export async function openEditor(page: Page, site: WordPressSite, id: number): Promise<void> {
  await page.goto(`${site.url}/wp-admin/post.php?post=${id}&action=edit`);
  await page.locator('.block-editor-block-list__layout').waitFor();
  await page.evaluate(() => {
    type Data = {
      select(store: string): { isFeatureActive(name: string): boolean };
      dispatch(store: string): { toggleFeature(name: string): void };
    };
    const data = (window as unknown as { wp: { data: Data } }).wp.data;
    if (data.select('core/edit-post').isFeatureActive('welcomeGuide'))
      data.dispatch('core/edit-post').toggleFeature('welcomeGuide');
  });
  await expect(page.locator('.edit-post-welcome-guide')).toBeHidden();
}
