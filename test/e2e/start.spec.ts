/**
 * `npm start` as a new site owner meets it: it prints its addresses and the sandbox keys and
 * nothing else; its demo page offers snippets naming the built files a site can embed (no `/src/`
 * URL), by default the keyless relay form naming `npm start`'s own origin, which keeps working on
 * a page of another origin reloaded again and again; the preview shows what a paste shows; and
 * its market moves at any hour unless `SANDBOX_MARKET=closed`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FrameLocator, Locator, Page } from '@playwright/test';
import { expect, htmlPage, test } from './support/fixtures';

const root = fileURLToPath(new URL('../../', import.meta.url));
const { scripts } = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { scripts: Record<string, string> };

interface Started {
  /** The demo and the relay. */
  address: string;
  /** The sandbox, for keyed snippets. */
  sandbox: string;
  /** Everything it printed so far. */
  output(): string;
  stop(): Promise<void>;
}

/** The command `npm start` runs (npm's own banner aside), on free ports, with `env` added. */
async function npmStart(env: Record<string, string> = {}): Promise<Started> {
  const child: ChildProcess = spawn(scripts.start!, {
    cwd: root,
    shell: true,
    detached: true,
    env: {
      ...process.env,
      PORT: '0',
      SANDBOX_PORT: '0',
      PATH: `${root}node_modules/.bin:${process.env.PATH}`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const stream of [child.stdout!, child.stderr!])
    stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [address, sandbox] = await new Promise<string[]>((resolve, reject) => {
    child.stdout!.on('data', () => {
      const found = [...output.matchAll(/http:\/\/127\.0\.0\.1:\d+\//g)].map((m) => m[0]);
      if (found.length >= 2) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}: ${output}`)));
  });
  return {
    address: address!,
    sandbox: sandbox!,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    },
  };
}

/** A page of another origin (a second local server) serving `html`; closed by the returned function. */
async function otherOrigin(html: string): Promise<{ url: string; close(): Promise<void> }> {
  const other: Server = createServer((_req, res) => {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(html);
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://localhost:${(other.address() as AddressInfo).port}/`,
    async close() {
      other.closeAllConnections();
      await new Promise((resolve) => other.close(resolve));
    },
  };
}

/** The demo's three snippets as they are shown (and copied). */
async function snippets(page: Page): Promise<{ script: string; iframe: string; loader: string }> {
  const text = async (id: string) => (await page.locator(`#code-${id}`).textContent())!;
  return { script: await text('script'), iframe: await text('iframe'), loader: await text('loader') };
}

/** The families Chromium drew `inner`'s text with, inside the shadow root of the first `host`. */
async function fontsDrawn(page: Page, host: string, inner: string): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    await cdp.send('DOM.getDocument', { depth: -1, pierce: true });
    const { result } = await cdp.send('Runtime.evaluate', {
      expression: `document.querySelector(${JSON.stringify(host)}).shadowRoot.querySelector(${JSON.stringify(inner)})`,
    });
    const { nodeId } = await cdp.send('DOM.requestNode', { objectId: result.objectId! });
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    return fonts.map((f) => f.familyName).sort();
  } finally {
    await cdp.detach();
  }
}

test.describe.configure({ timeout: 120_000 });

test.describe('npm start', () => {
  let started: Started;
  test.beforeAll(async () => {
    test.setTimeout(180_000); // a build, then the servers
    started = await npmStart();
  });
  test.afterAll(async () => {
    await started.stop();
  });

  test('prints its addresses, the keys and the market setting, and its demo snippets name the built files', async ({
    page,
    problems,
  }) => {
    const { address, sandbox } = started;
    await page.goto(address);
    const codes = page.locator('pre code');
    await expect(codes).toHaveCount(6);
    await expect(codes.first()).toContainText('<price-board');
    for (const text of await codes.allTextContents()) {
      expect(text).not.toContain('/src/');
      expect(text).toMatch(new RegExp(`${address}(price-board\\.js|embed\\.html|embed\\.js)`));
      // The relay form: no key anywhere, and no other service address.
      for (const leak of ['api-key', 'data-key', 'key=', 'base-url', sandbox]) expect(text).not.toContain(leak);
    }
    await expect(page.locator('#hero-slot [part~="row"]')).toHaveCount(5);
    // The keyed form is there, naming the sandbox, and says that a key's plan is shared by every visitor.
    await page.locator('label:has(input[name="connection"][value="key"])').click();
    await expect(page.locator('#code-script')).toContainText('api-key="demo-key"');
    await expect(page.locator('#code-script')).toContainText(`base-url="${sandbox.slice(0, -1)}"`);
    await expect(page.locator('#connection-hint')).toContainText('برای همهٔ بازدیدکنندگان');
    expect(problems.all()).toEqual([]);

    expect(started.output()).toBe(
      `Demo and price relay (keyless snippets): ${address}\n` +
        `Sandbox price service (keyed snippets): ${sandbox} (keys: demo-key, basic-key, pro-key, enterprise-key, restricted-key; market: open, SANDBOX_MARKET=open|closed|auto)\n`,
    );
  });

  test('the demo can be reloaded many times in a row: no rate-limit error, rows and charts every time', async ({
    page,
    problems,
  }) => {
    test.setTimeout(180_000);
    const errors: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 429) errors.push(response.url());
    });
    await page.goto(started.address);
    for (let load = 1; load <= 12; load++) {
      if (load > 1) await page.reload();
      await expect(page.locator('#hero-slot [part~="row"]')).toHaveCount(5);
      await expect(page.locator('#hero-slot [part~="chart"] canvas').first()).toBeVisible();
      await expect(page.locator('#preview-slot [part~="chart"] canvas').first()).toBeVisible();
      await expect(page.locator('[part~="error"]'), `load ${load}`).toHaveCount(0);
    }
    expect(errors).toEqual([]);
    expect(problems.all()).toEqual([]);
  });

  test("the demo's snippets work pasted into a page of another origin", async ({ page, problems }) => {
    const { address } = started;
    await page.goto(`${address}?symbols=usd,eur,coin_emami&chart=none`);
    const codes = await snippets(page);
    await page.locator('label:has(input[name="widget"][value="ticker"])').click();
    const ticker = (await page.locator('#code-script').textContent())!;
    await page.locator('label:has(input[name="widget"][value="converter"])').click();
    const converter = (await page.locator('#code-script').textContent())!;

    const other = await otherOrigin(
      htmlPage(
        `<section id="s">${codes.script}</section><section id="t">${ticker}</section><section id="c">${converter}</section>` +
          `<section id="i">${codes.iframe}</section><section id="l">${codes.loader}</section>`,
      ),
    );
    try {
      expect(new URL(other.url).origin).not.toBe(new URL(address).origin);
      await page.goto(other.url);
      await expect(page.locator('#s price-board [part~="row"]')).toHaveCount(3);
      await expect(page.locator('#s price-board [part~="price"]').first()).toHaveText(/[۰-۹]/);
      await expect(page.locator('#t price-ticker [part~="price"]').first()).toHaveText(/[۰-۹]/);
      await expect(page.locator('#c price-converter [part~="result"]')).toHaveAttribute('data-state', 'ok');
      await expect(page.frameLocator('#i iframe').locator('[part~="row"]')).toHaveCount(3);
      await expect(page.frameLocator('#l iframe').locator('[part~="row"]')).toHaveCount(3);
    } finally {
      await other.close();
    }
    expect(problems.all()).toEqual([]);
  });

  test('the copied default snippet keeps its Persian prices and its chart on a page of another origin reloaded 20 times in a row (as fast as it loads: a minute or less here)', async ({
    page,
    problems,
  }) => {
    // Every widget in view: a chart is drawn once it is seen.
    await page.setViewportSize({ width: 1280, height: 2000 });
    await page.goto(started.address);
    const codes = await snippets(page);
    const other = await otherOrigin(
      htmlPage(
        `<section id="s">${codes.script}</section><section id="i">${codes.iframe}</section><section id="l">${codes.loader}</section>`,
      ),
    );
    const rateLimited: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 429) rateLimited.push(response.url());
    });
    const symbols = /symbols="([^"]+)"/.exec(codes.script)![1]!.split(',');
    /** A board (in this page or a frame) with all its Persian prices, no error, and candles in its chart. */
    const whole = async (board: Locator, label: string) => {
      await expect(board.locator('[part~="price"]'), label).toHaveText(symbols.map(() => /[۰-۹]/));
      await expect(board.locator('[part~="chart-legend"]'), label).toContainText(/[۰-۹]/);
      await expect(board.locator('[part~="error"]'), label).toHaveCount(0);
    };
    const framed = (frame: FrameLocator) => frame.locator('price-board');
    try {
      await page.goto(other.url);
      for (let load = 1; load <= 20; load++) {
        if (load > 1) await page.reload();
        await whole(page.locator('#s price-board'), `script tag, load ${load}`);
        await whole(framed(page.frameLocator('#i iframe')), `iframe, load ${load}`);
        await whole(framed(page.frameLocator('#l iframe')), `loader, load ${load}`);
        await expect(page.locator('body'), `load ${load}`).not.toContainText('قیمت‌ها فعلاً در دسترس نیست');
      }
    } finally {
      await other.close();
    }
    expect(rateLimited).toEqual([]);
    expect(problems.all()).toEqual([]);
  });

  test("the preview's theme and font are the pasted snippet's, for a visitor who prefers dark too", async ({
    page,
    problems,
  }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(started.address);
    const { script } = await snippets(page);
    expect(script).toContain('theme="light"');
    const look = async (host: string) => {
      await expect(page.locator(`${host} [part~="price"]`).first()).toHaveText(/[۰-۹]/);
      const board = page.locator(`${host} [part~="board"]`);
      return board.evaluate((el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el).color]);
    };
    const preview = await look('#preview-slot > price-board');
    await expect.poll(() => fontsDrawn(page, '#preview-slot > price-board', '[part~="price"]')).toContain('Vazirmatn');
    const font = await fontsDrawn(page, '#preview-slot > price-board', '[part~="price"]');

    // A light-only page of another origin, as most sites are.
    const other = await otherOrigin(htmlPage(script, '<meta name="color-scheme" content="light">'));
    try {
      await page.goto(other.url);
      expect(await look('price-board')).toEqual(preview);
      expect(preview).toEqual(['rgb(255, 255, 255)', expect.any(String)]);
      await expect.poll(() => fontsDrawn(page, 'price-board', '[part~="price"]')).toEqual(font);
    } finally {
      await other.close();
    }
    expect(problems.all()).toEqual([]);
  });

  test('the market moves by default, at any hour', async ({ page, problems }) => {
    await page.goto(started.address);
    const board = page.locator('#hero-slot > price-board');
    await expect(board.locator('[part~="status"]')).toHaveAttribute('data-market', 'open');
    const prices = () => board.locator('[part~="price"]').allTextContents();
    await expect(board.locator('[part~="price"]').first()).toHaveText(/[۰-۹]/);
    const first = await prices();
    // The sandbox reads its source every 5 s and changes some prices each time.
    await expect.poll(prices, { timeout: 60_000 }).not.toEqual(first);
    expect(problems.all()).toEqual([]);
  });
});

test('npm start with SANDBOX_MARKET=closed: the market stays closed, and says so', async ({ page, problems }) => {
  test.setTimeout(180_000);
  const started = await npmStart({ SANDBOX_MARKET: 'closed' });
  try {
    expect(started.output()).toContain('market: closed');
    await page.goto(started.address);
    const status = page.locator('#hero-slot > price-board [part~="status"]');
    await expect(status).toHaveAttribute('data-market', 'closed');
    await expect(status).toContainText('بازار بسته');
  } finally {
    await started.stop();
  }
  expect(problems.all()).toEqual([]);
});
