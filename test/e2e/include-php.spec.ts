/**
 * A PHP site including the relay's fragments with docs/examples/price-board-include.php (the file
 * itself, with only the relay's address and the cache folder changed), its host page written as
 * the recipe's header says, served by `php -S` on a port of its own. The relay (PUBLIC_URL: the
 * address browsers reach it at) is reached through a door the test can stop or hold.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../helpers/cluster-processes';
import { expect, test } from './support/fixtures';
import {
  blankFrames,
  INCLUDED_WIDGETS,
  openLive,
  recipe,
  setRelayPrice,
  substitute,
  visitTwice,
  warmRenderer,
} from './support/includes';
import { startPhpServer, type PhpServer } from './support/php-server';
import { startRelayDoor, type RelayDoor } from './support/relay-door';
import { startRelayOnSandbox, type RelayOnSandbox } from './support/servers';

const BOARD = INCLUDED_WIDGETS.find((w) => w.tag === 'price-board')!;

let started: RelayOnSandbox;
let door: RelayDoor;
let php: PhpServer;
let dir: string;
let cacheDir: string;

test.beforeAll(async () => {
  const port = await freePort();
  const relayUrl = `http://127.0.0.1:${port}`;
  // The site's server is one address for all its visitors: its limit is raised.
  started = await startRelayOnSandbox('basic-key:e2e-php', { PUBLIC_URL: relayUrl, CLIENT_RPM: '100000' });
  door = await startRelayDoor(started.relay.url, port);
  await warmRenderer(started.relay.url);
  dir = await mkdtemp(join(tmpdir(), 'include-php-'));
  cacheDir = join(dir, 'cache');
  await mkdir(cacheDir);
  await writeFile(join(dir, 'favicon.ico'), '');
  const include = await recipe('price-board-include.php');
  await writeFile(
    join(dir, 'price-board-include.php'),
    substitute(include, [
      ["const PRICE_BOARD_RELAY = 'http://127.0.0.1:8788';", `const PRICE_BOARD_RELAY = '${relayUrl}';`],
      ["const PRICE_BOARD_PUBLIC_URL = 'https://prices.example.com';", `const PRICE_BOARD_PUBLIC_URL = '${relayUrl}';`],
      ["const PRICE_BOARD_CACHE_DIR = '';", `const PRICE_BOARD_CACHE_DIR = '${cacheDir}';`],
    ]),
  );
  // The host page: the two lines of the recipe's header, the symbols from the page's query.
  const usage = [...include.matchAll(/^ \* {3}(<\?php .*\?>)$/gm)].map((m) => m[1]!);
  expect(usage).toHaveLength(2);
  const host = `${usage[0]}
<!doctype html>
<html lang="fa" dir="rtl">
<head><meta charset="utf-8"><title>قیمت‌ها</title></head>
<body>
<h1>قیمت امروز</h1>
${substitute(usage[1]!, [["['symbols' => 'usd,eur']", "['symbols' => $_GET['symbols'] ?? 'usd,eur', 'chart' => 'none']"]])}
<p id="after">بقیهٔ صفحه.</p>
</body>
</html>
`;
  await writeFile(join(dir, 'index.php'), host);
  php = await startPhpServer(dir);
});

test.afterAll(async () => {
  await php?.close();
  await door?.close();
  await started?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const hostPage = (symbols: string) => `${php.url}/index.php?symbols=${symbols}`;

/** The include's kept files whose text is `text` (a fragment, or what it keeps while the relay is away). */
async function keptFiles(text: (kept: string) => boolean): Promise<string[]> {
  const files = (await readdir(cacheDir)).map((name) => join(cacheDir, name));
  const kept = [];
  for (const file of files) if (text(await readFile(file, 'utf8'))) kept.push(file);
  return kept;
}

// Each test starts with nothing kept: no fragment, and the relay not marked away.
test.beforeEach(async () => {
  for (const file of await keptFiles(() => true)) await rm(file, { force: true });
});

test.describe('JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('the PHP page shows the board’s Persian prices with no script', async ({ page }) => {
    const price = '1234560';
    await setRelayPrice(started.sandbox.url, started.relay.url, 'usd', price);
    await page.goto(hostPage('usd,eur'));
    await expect(page.locator('price-board:not(:defined)')).toHaveCount(1);
    await expect(page.locator('price-board').locator(BOARD.usdCell)).toHaveText(BOARD.usdText(price));
    await expect(page.locator('price-board [part~="row"]')).toHaveCount(2);
    await expect(page.locator('price-board [part~="title"]').first()).toHaveText('دلار آمریکا');
    await expect(page.locator('price-board [part~="status"]')).toHaveText(/\p{Script=Arabic}/u);
    await expect(page.locator('#after')).toBeVisible();
  });

  test('with the relay stopped, the page comes at once with the bare board and its script', async ({ page }) => {
    await door.stop();
    try {
      const since = Date.now();
      const answer = await page.goto(hostPage('usd,gold_18'));
      const took = Date.now() - since;
      const html = await answer!.text();
      expect(html).toContain(
        `<price-board symbols="usd,gold_18" chart="none"></price-board><script type="module" src="${door.url}/price-board.js"></script>`,
      );
      await expect(page.locator('#after')).toBeVisible();
      // Refused at once: far inside the include's timeout (1 s) and a loaded machine's slack.
      expect(took).toBeLessThan(5_000);
    } finally {
      await door.start();
    }
  });

  test('a relay slower than the include’s timeout: the page comes after about the timeout with the bare board', async ({
    page,
  }) => {
    door.hold();
    try {
      const since = Date.now();
      const answer = await page.goto(hostPage('usd,coin_emami'));
      const took = Date.now() - since;
      // The relay has not answered (held until the end): PHP gave up after its 1 s.
      expect(door.held).toBeGreaterThan(0);
      expect(took).toBeGreaterThanOrEqual(1_000);
      expect(took).toBeLessThan(5_000);
      expect(await answer!.text()).toContain('<price-board symbols="usd,coin_emami" chart="none"></price-board>');
      await expect(page.locator('#after')).toBeVisible();
    } finally {
      door.release();
    }
  });

  test('a relay that did not answer is not asked again for the cache’s seconds: the next pages come with the bare board', async ({
    page,
  }) => {
    door.hold();
    try {
      await page.goto(hostPage('usd,coin_emami'));
      expect(door.held).toBe(1);
      // Other symbols (nothing kept for them): the bare board, the relay not asked.
      const next = await page.goto(hostPage('eur,gold_18'));
      expect(await next!.text()).toContain('<price-board symbols="eur,gold_18" chart="none"></price-board>');
      await expect(page.locator('#after')).toBeVisible();
      expect(door.held).toBe(1);
      // Older than the cache's seconds: the relay is asked again.
      const away = await keptFiles((kept) => kept === 'away');
      expect(away).toHaveLength(1);
      const old = new Date(Date.now() - 60_000);
      await utimes(away[0]!, old, old);
      await page.goto(hostPage('eur,gold_18'));
      expect(door.held).toBe(2);
    } finally {
      door.release();
    }
  });
});

test('a second page within the cache’s seconds is served without asking the relay; an older copy is asked again', async () => {
  const url = hostPage('eur,gold_18');
  const { first, renders } = await visitTwice(url, door);
  expect(renders).toBe(1);
  const before = door.renders;
  // The kept copy made older than the cache's few seconds: the next page asks the relay again.
  const kept = await keptFiles((text) => first.includes(text));
  expect(kept).toHaveLength(1);
  const old = new Date(Date.now() - 60_000);
  await utimes(kept[0]!, old, old);
  await (await fetch(url)).text();
  expect(door.renders - before).toBe(1);
});

test('with JavaScript, the included board goes live with no blank frame and no /v1/prices', async ({
  page,
  problems,
}) => {
  await setRelayPrice(started.sandbox.url, started.relay.url, 'usd', '1100000');
  const { frames, prices } = await openLive(page, hostPage('usd,eur'), BOARD);
  const next = '1310000';
  await setRelayPrice(started.sandbox.url, started.relay.url, 'usd', next);
  await expect(page.locator('price-board').locator(BOARD.usdCell)).toHaveText(BOARD.usdText(next));
  const watched = await frames(true);
  expect(blankFrames(watched, BOARD)).toEqual([]);
  expect(watched.afterParsing).toEqual([]);
  expect(prices()).toBe(0);
  expect(problems.all()).toEqual([]);
});
