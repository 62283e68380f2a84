/**
 * The WordPress plugin in a real WordPress (Debian's 6.1, MariaDB, `php -S`), installed from the
 * built zip and set to a relay over the sandbox: the shortcodes' and blocks' prices are in the
 * served HTML, the widgets go live in Chromium, an author saves a block, the settings page tests
 * the relay's address in Persian, and a post still renders when the relay is down.
 */
import { expect, persianGrouped, test } from './support/fixtures';
import { startRelayOnSandbox, type RelayOnSandbox } from './support/servers';
import { startWordPress, type WordPressPost, type WordPressSite } from './support/wordpress';

const WIDGETS = ['price-board', 'price-ticker', 'price-converter'] as const;

const POSTS: Record<string, WordPressPost> = {
  shortcodes: {
    type: 'post',
    title: 'shortcodes',
    content:
      '[price_board symbols="usd,eur,gold_18" chart="none"]\n\n[price_ticker symbols="usd,coin_emami"]\n\n[price_converter symbols="usd" amount="2"]',
  },
  plain: { type: 'page', title: 'plain', content: '<p>no widget here</p>' },
  relayDown: { type: 'post', title: 'relay down', content: '[price_board symbols="gold_24" chart="none"]' },
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

/** The served HTML of a page, as a search engine or a link preview reads it (no script run). */
async function servedHtml(url: string): Promise<string> {
  const answer = await fetch(url);
  expect(answer.status).toBe(200);
  return answer.text();
}

/** The markup of the first `<tag>` in `html`, from its opening tag to its end. */
function elementIn(html: string, tag: string): string {
  const start = html.indexOf(`<${tag} `);
  expect(start, `<${tag}> in the page`).toBeGreaterThanOrEqual(0);
  return html.slice(start, html.indexOf(`</${tag}>`, start) + tag.length + 3);
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  started = await startRelayOnSandbox('basic-key:e2e-wordpress');
  await setPrices([{ symbol: 'usd', price: '12345670' }]);
  // The relay in this process loads its renderer (the widgets' TypeScript, compiled on import) on
  // its first fragment: seconds here, beyond the plugin's 1 s wait. A deployed relay is built.
  for (const tag of WIDGETS) expect((await fetch(`${started.relay.url}/render/${tag}?script=0`)).status).toBe(200);
  site = await startWordPress({ settings: { mode: 'relay', relay_url: started.relay.url }, posts: POSTS });
});

test.afterAll(async () => {
  await site?.close();
  await started?.close();
});

test("a post's shortcodes are in its served HTML with the relay's Persian prices and the element's modules", async () => {
  const html = await servedHtml(site.postUrl('shortcodes'));
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
});
