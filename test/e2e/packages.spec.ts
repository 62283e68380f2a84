/**
 * The two packages as their users install them (DESIGN.md §11). Each is packed with `npm pack` and
 * installed by npm, from the registry, into a new folder outside the repository, with the install's
 * lifecycle scripts running as in a user's install (never `--ignore-scripts` there):
 *
 * - `price-board`: `npm install ./price-board-0.1.0.tgz lit` in an app that uses lit itself and the
 *   three widgets (test/e2e/package-app/). The install holds only the widgets' runtime dependencies;
 *   Vite builds the app with one lit and the three elements, and in Chromium it shows live prices.
 * - `price-board-relay`: `npm install -g --prefix <folder>` of its tarball; its bin with no
 *   configuration relays an in-process sandbox, with no TypeScript runner installed.
 *
 * The tarballs are packed from the build `npm test` (and `npm run test:e2e`) makes before Playwright
 * runs: their `prepack` is that build. npm fills what it can from its cache (`--prefer-offline`).
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { expect, persianGrouped, priceCell, rows, sandboxBase, setPrices, test } from './support/fixtures';
import { startCdn } from './support/servers';

const root = fileURLToPath(new URL('../../', import.meta.url));

// Installs take tens of seconds on a busy machine; these bound a failure, they are not waits.
test.describe.configure({ timeout: 300_000 });

/**
 * A user's environment: none of the `npm_*` settings of the `npm test` running this (such as
 * `npm_config_ignore_scripts`), and none of the repository's `node_modules/.bin` on the PATH.
 */
const userEnv: NodeJS.ProcessEnv = Object.fromEntries(
  Object.entries({
    ...process.env,
    PATH: process.env
      .PATH!.split(delimiter)
      .filter((dir) => !dir.startsWith(root))
      .join(delimiter),
  }).filter(([name]) => !/^npm_/i.test(name)),
);

/** Runs npm in `cwd` as a user would; throws with npm's output when it fails. */
function npm(cwd: string, args: string[]): { stdout: string; stderr: string } {
  const run = spawnSync('npm', args, { cwd, env: userEnv, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`npm ${args.join(' ')} exited ${run.status}:\n${run.stdout}${run.stderr}`);
  return run;
}

const INSTALL = ['--prefer-offline', '--no-audit', '--no-fund'];

/** Scripts npm runs in the installing user's machine (`prepare` for git and folder installs). */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];

/** Packages that must never reach a user of either package. */
const DEV_ONLY = ['tsx', 'esbuild', 'typescript', 'vite', 'vitest', '@playwright/test', 'node'];

interface Packed {
  name: string;
  tarball: string;
  files: string[];
  manifest: { scripts?: Record<string, string>; dependencies?: Record<string, string>; [field: string]: unknown };
}

let work: string;
let packed: Record<'board' | 'relay', Packed>;

test.beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'price-board-install-'));
  const pack = (dir: string): Packed => {
    // --ignore-scripts: the prepack is the build that ran before Playwright.
    const [info] = JSON.parse(
      npm(dir, ['pack', '--json', '--ignore-scripts', '--pack-destination', work]).stdout,
    ) as Array<{ name: string; filename: string; files: Array<{ path: string }> }>;
    const tarball = join(work, info!.filename);
    const manifest = spawnSync('tar', ['-xOzf', tarball, 'package/package.json'], { encoding: 'utf8' }).stdout;
    return { name: info!.name, tarball, files: info!.files.map((f) => f.path), manifest: JSON.parse(manifest) };
  };
  packed = { board: pack(root), relay: pack(join(root, 'relay')) };
});

test.afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Every package installed in `modules` (scoped ones as `@scope/name`). */
function installed(modules: string): string[] {
  return readdirSync(modules)
    .filter((n) => !n.startsWith('.'))
    .flatMap((n) => (n.startsWith('@') ? readdirSync(join(modules, n)).map((m) => `${n}/${m}`) : [n]))
    .sort();
}

test('neither tarball runs a script of ours when a user installs it', () => {
  for (const { name, manifest } of Object.values(packed)) {
    const run = INSTALL_SCRIPTS.filter((script) => manifest.scripts?.[script]);
    expect(run, name).toEqual([]);
  }
});

test('price-board holds built files, types and the manifest, and depends on the widgets’ three packages', () => {
  const { files, manifest } = packed.board;
  const outside = files.filter((f) => !f.startsWith('dist/') && !['package.json', 'README.md', 'LICENSE'].includes(f));
  expect(outside).toEqual([]);
  expect(files.filter((f) => /\.ts$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
  // Every file its package.json names is in it.
  const named = JSON.stringify([manifest.main, manifest.types, manifest.customElements, manifest.exports]).match(
    /\.?\/?dist\/[^"*]+/g,
  )!;
  expect(named).toContain('./dist/lib/price-board.js');
  for (const file of named) expect(files, file).toContain(file.replace(/^\.\//, ''));
  for (const f of ['dist/price-board.js', 'dist/embed.js']) expect(files).toContain(f);
  expect(Object.keys(manifest.dependencies!).sort()).toEqual(['lightweight-charts', 'lit']);
  expect(manifest.bin).toBeUndefined();
});

test('the bench is a private workspace package of its own, run by the root’s bench scripts, and outside price-board', () => {
  const workspaces = JSON.parse(npm(root, ['query', '.workspace']).stdout) as Array<{
    name: string;
    location: string;
    private?: boolean;
  }>;
  expect(workspaces.map((w) => [w.name, w.location, w.private === true])).toContainEqual([
    'price-board-bench',
    'bench',
    true,
  ]);
  const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  for (const name of ['bench', 'bench:relay', 'bench:profile'])
    expect(scripts[name], name).toContain(`npm run ${name} -w price-board-bench`);
  expect(packed.board.files.filter((f) => f.startsWith('bench/'))).toEqual([]);
});

test('an app installs price-board and lit with npm, builds with Vite (the three elements, one lit) and shows live prices', async ({
  page,
  servers,
  key,
  problems,
}) => {
  const app = join(work, 'app');
  mkdirSync(app);
  cpSync(fileURLToPath(new URL('./package-app/', import.meta.url)), app, { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'an-app', private: true, type: 'module' }));
  const notices = npm(app, ['install', ...INSTALL, packed.board.tarball, 'lit']).stderr;
  // npm 11 lists the dependencies whose install scripts it ran (or would have) unapproved.
  expect(notices).not.toContain('price-board@');

  // lit's own packages and lightweight-charts' one dependency come with them; nothing else does.
  expect(installed(join(app, 'node_modules'))).toEqual(
    [
      'price-board',
      'lightweight-charts',
      'fancy-canvas',
      'lit',
      'lit-element',
      'lit-html',
      '@lit/reactive-element',
      '@lit-labs/ssr-dom-shim',
      '@types/trusted-types',
    ].sort(),
  );

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
  // Each element's class registers itself under its tag by default.
  for (const tag of ['price-board', 'price-ticker', 'price-converter'])
    expect(js).toMatch(new RegExp(`["'\`]${tag}["'\`]`));

  await setPrices(servers, [{ symbol: 'usd', price: '1000000' }]);
  const served = await startCdn({ dir: join(app, 'dist') });
  try {
    await page.goto(`${served.url}index.html?base-url=${sandboxBase(servers)}&key=${key}`);
    const board = page.locator('app-prices price-board');
    await expect(rows(board)).toHaveCount(3);
    // In toman by default: a tenth of the rial price.
    await expect(priceCell(board, 'usd')).toHaveText(persianGrouped('100000'));
    await expect(page.locator('app-prices price-ticker .group:first-child [part~="item"]')).toHaveCount(2);
    await expect(page.locator('app-prices price-converter [part~="result"]')).toContainText(
      `${persianGrouped('200000')} تومان`,
    );
    // Live: a change at the service reaches the board and the converter.
    await setPrices(servers, [{ symbol: 'usd', price: '1250000' }]);
    await expect(priceCell(board, 'usd')).toHaveText(persianGrouped('125000'));
    await expect(page.locator('app-prices price-converter [part~="result"]')).toContainText(
      `${persianGrouped('250000')} تومان`,
    );
    const defined = await page.evaluate(() =>
      ['price-board', 'price-ticker', 'price-converter'].filter((tag) => customElements.get(tag)),
    );
    expect(defined).toEqual(['price-board', 'price-ticker', 'price-converter']);
    expect(problems.all()).toEqual([]);
  } finally {
    await served.close();
  }
});

test('npm install -g of price-board-relay, then price-board-relay with no configuration answers with Persian prices', async () => {
  const { name, files } = packed.relay;
  expect(name).toBe('price-board-relay');
  expect(files.filter((f) => f.endsWith('.ts'))).toEqual([]);
  expect(files).toContain('dist/cli.js');
  expect(files).toContain('dist/widgets/price-board.js');

  const prefix = join(work, 'global');
  const notices = npm(work, ['install', '-g', '--prefix', prefix, ...INSTALL, packed.relay.tarball]).stderr;
  expect(notices).not.toContain('price-board-relay@');
  const modules = join(prefix, 'lib', 'node_modules', 'price-board-relay', 'node_modules');
  for (const dev of DEV_ONLY) expect(existsSync(join(modules, dev)), dev).toBe(false);

  const child = spawn(join(prefix, 'bin', 'price-board-relay'), {
    cwd: work,
    env: { ...userEnv, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = /Price relay: (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
      void exited.then((code) => reject(new Error(`price-board-relay exited (${code}): ${out}`)));
    });

    const res = await fetch(`${url}/v1/prices?symbols=usd`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      data: { quotes: Array<{ symbol: string; title: string; price: string; updated_at: string }> };
    };
    expect(body.data.quotes).toHaveLength(1);
    const [usd] = body.data.quotes;
    expect(usd!.symbol).toBe('usd');
    expect(usd!.title).toMatch(/^[\u0600-\u06ff\u200c ]+$/);
    expect(usd!.price).toMatch(/^\d+$/);
    expect(usd!.updated_at).toMatch(/\+03:30$/);
    // Healthy once its feed from the sandbox is fresh.
    await expect
      .poll(async () => ((await (await fetch(`${url}/healthz`)).json()) as { status: string }).status)
      .toBe('ok');
    // The widgets come from the relay's own origin too.
    const script = await fetch(`${url}/price-board.js`);
    expect(script.status).toBe(200);
    expect(await script.text()).toContain('price-board');
    // And its first paint as HTML (DESIGN.md §13): the installed relay renders with its own Lit.
    const fragment = await (await fetch(`${url}/render/price-board?symbols=usd`)).text();
    expect(fragment).toContain('<template shadowroot="open" shadowrootmode="open">');
    expect(fragment).toContain(usd!.title);
    expect(fragment).toMatch(/part="price"[^>]*>(<[^>]*>)*[۰-۹٬]+</);
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
});
