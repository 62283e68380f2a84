/**
 * `npm start` as a newcomer meets it: it prints the address and the sandbox keys and nothing else,
 * and its demo page offers snippets naming the built files a site can embed (no `/src/` URL).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from './support/fixtures';

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
  for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
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

test('npm start prints its address and the sandbox keys, and its demo snippets name the built files', async ({ page, problems }) => {
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
