/**
 * `npm start` as a newcomer meets it: it prints the address and the sandbox keys and nothing else,
 * and its demo page offers snippets naming the built files a site can embed (no `/src/` URL).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, htmlPage, test } from './support/fixtures';

const root = fileURLToPath(new URL('../../', import.meta.url));
const { scripts } = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { scripts: Record<string, string> };

let child: ChildProcess;
let output = '';
let address = '';

test.describe.configure({ timeout: 90_000 });

test.beforeAll(async () => {
  // The command `npm start` runs (npm's own banner aside), on a free port.
  child = spawn(scripts.start!, {
    cwd: root,
    shell: true,
    detached: true,
    env: { ...process.env, PORT: '0', PATH: `${root}node_modules/.bin:${process.env.PATH}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout!, child.stderr!])
    stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
  address = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', () => {
      const found = /http:\/\/127\.0\.0\.1:\d+\//.exec(output);
      if (found) resolve(found[0]);
    });
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}: ${output}`)));
  });
});

test.afterAll(async () => {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
});

test('npm start prints its address and the sandbox keys, and its demo snippets name the built files', async ({
  page,
  problems,
}) => {
  await page.goto(address);
  const snippets = page.locator('pre code');
  await expect(snippets).toHaveCount(6);
  await expect(snippets.first()).toContainText('<price-board');
  for (const text of await snippets.allTextContents()) {
    expect(text).not.toContain('/src/');
    expect(text).toMatch(new RegExp(`${address}(price-board\\.js|embed\\.html|embed\\.js)`));
  }
  await expect(page.locator('#hero-slot [part~="row"]')).toHaveCount(5);
  expect(problems.all()).toEqual([]);

  expect(output).toBe(
    `Demo and sandbox price service: ${address} (keys: demo-key, basic-key, pro-key, enterprise-key, restricted-key)\n`,
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
  await page.goto(address);
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
  await page.goto(`${address}?symbols=usd,eur,coin_emami&chart=none`);
  const snippet = (id: string) => page.locator(`#code-${id}`).textContent() as Promise<string>;
  const codes = { script: await snippet('script'), iframe: await snippet('iframe'), loader: await snippet('loader') };
  await page.locator('label:has(input[name="widget"][value="ticker"])').click();
  const ticker = await snippet('script');
  await page.locator('label:has(input[name="widget"][value="converter"])').click();
  const converter = await snippet('script');
  expect(codes.script).toContain('demo-key');

  // Another origin: a second local server on another port.
  const html = htmlPage(
    `<section id="s">${codes.script}</section><section id="t">${ticker}</section><section id="c">${converter}</section>` +
      `<section id="i">${codes.iframe}</section><section id="l">${codes.loader}</section>`,
  );
  const other: Server = createServer((_req, res) => {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(html);
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://localhost:${(other.address() as AddressInfo).port}/`;
    expect(new URL(url).origin).not.toBe(new URL(address).origin);
    await page.goto(url);
    await expect(page.locator('#s price-board [part~="row"]')).toHaveCount(3);
    await expect(page.locator('#s price-board [part~="price"]').first()).toHaveText(/[۰-۹]/);
    await expect(page.locator('#t price-ticker [part~="price"]').first()).toHaveText(/[۰-۹]/);
    await expect(page.locator('#c price-converter [part~="result"]')).toHaveAttribute('data-state', 'ok');
    await expect(page.frameLocator('#i iframe').locator('[part~="row"]')).toHaveCount(3);
    await expect(page.frameLocator('#l iframe').locator('[part~="row"]')).toHaveCount(3);
  } finally {
    other.closeAllConnections();
    await new Promise((resolve) => other.close(resolve));
  }
  expect(problems.all()).toEqual([]);
});
