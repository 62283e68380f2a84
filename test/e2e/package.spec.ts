/**
 * The npm package as an app developer gets it: `npm pack`, installed into an app that uses lit
 * itself (test/e2e/package-app/), built with Vite. The app holds one copy of lit and its board
 * shows prices from the sandbox.
 *
 * No network: the tarball is unpacked into the app's node_modules/price-board, inside this repo,
 * so its own imports (lit, lightweight-charts) resolve, as the app's do, to the repo's
 * node_modules: what npm's dedupe gives an app that lists lit too.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { expect, rows, sandboxBase, test } from './support/fixtures';
import { startCdn } from './support/servers';

const root = fileURLToPath(new URL('../../', import.meta.url));
const app = join(root, 'tmp', 'package-app');

test.describe.configure({ timeout: 120_000 });

test.beforeAll(() => {
  rmSync(app, { recursive: true, force: true });
  const installed = join(app, 'node_modules', 'price-board');
  mkdirSync(installed, { recursive: true });
  cpSync(fileURLToPath(new URL('./package-app/', import.meta.url)), app, { recursive: true });
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', app], {
      cwd: root,
      encoding: 'utf8',
      stdio: 'pipe', // npm's notices stay out of the report; a failure's stderr is in the error
    }),
  ) as Array<{ filename: string }>;
  execFileSync('tar', ['-xzf', join(app, packed!.filename), '-C', installed, '--strip-components=1'], {
    stdio: 'pipe',
  });
});

test('the package holds every file its package.json names', () => {
  const installed = join(app, 'node_modules', 'price-board');
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
  const named = JSON.stringify([manifest.main, manifest.types, manifest.customElements, manifest.exports]).match(
    /\.?\/?dist\/[^"*]+/g,
  )!;
  expect(named).toContain('./dist/lib/price-board.js');
  for (const file of named) expect(existsSync(join(installed, file)), file).toBe(true);
});

test('an app that uses lit and installs the package bundles one lit and shows prices', async ({
  page,
  servers,
  key,
  problems,
}) => {
  await build({
    root: app,
    configFile: false,
    logLevel: 'silent',
    base: './',
    build: { outDir: 'dist', target: 'es2022' },
  });

  const assets = join(app, 'dist', 'assets');
  const js = readdirSync(assets)
    .filter((f) => f.endsWith('.js'))
    .map((f) => readFileSync(join(assets, f), 'utf8'))
    .join('\n');
  // lit-html registers its version once per copy.
  expect(js.match(/litHtmlVersions/g)).toHaveLength(1);

  const served = await startCdn({ dir: join(app, 'dist') });
  try {
    await page.goto(`${served.url}index.html?base-url=${sandboxBase(servers)}&key=${key}`);
    await expect(rows(page.locator('app-prices price-board'))).toHaveCount(3);
    await expect(page.locator('app-prices price-board [part~="price"]').first()).toHaveText(/[۰-۹]/);
    expect(problems.all()).toEqual([]);
  } finally {
    await served.close();
  }
});
