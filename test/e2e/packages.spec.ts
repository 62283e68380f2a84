/**
 * The two packages as their users install them (DESIGN.md §11): each is packed with `npm pack` and
 * installed by npm into an empty folder, as an app developer or an operator would.
 *
 * - `price-board`: only built files, types and the manifest; the widgets' three runtime
 *   dependencies and nothing else (no server code, no TypeScript runner, no Redis client).
 * - `price-board-relay`: `npx price-board-relay` with no configuration relays an in-process
 *   sandbox and answers `/v1/prices`, with no TypeScript runner installed.
 *
 * npm resolves the dependencies from its cache (filled by `npm ci`) before the registry.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';

const root = fileURLToPath(new URL('../../', import.meta.url));

test.describe.configure({ timeout: 180_000 });

const folders: string[] = [];
test.afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

// As `npm pack` would (its prepack): the whole build, since another test may have rebuilt dist/
// without the types and the manifest (`npm start` builds the pages only).
test.beforeAll(() => {
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'pipe' });
});

/** Packs the package in `dir` (built above) into a new empty folder and installs it there. */
function packAndInstall(dir: string): { app: string; files: string[]; name: string } {
  const app = mkdtempSync(join(tmpdir(), 'price-board-app-'));
  folders.push(app);
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', app], {
      cwd: dir,
      encoding: 'utf8',
      stdio: 'pipe',
    }),
  ) as Array<{ filename: string; name: string; files: Array<{ path: string }> }>;
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'an-app', private: true, type: 'module' }));
  execFileSync(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', join(app, packed!.filename)],
    {
      cwd: app,
      stdio: 'pipe',
    },
  );
  return { app, files: packed!.files.map((f) => f.path), name: packed!.name };
}

/** Every package installed in an app's node_modules (scoped ones as `@scope/name`). */
function installed(app: string): string[] {
  const top = join(app, 'node_modules');
  return readdirSync(top)
    .filter((n) => !n.startsWith('.'))
    .flatMap((n) => (n.startsWith('@') ? readdirSync(join(top, n)).map((m) => `${n}/${m}`) : [n]))
    .sort();
}

/** Packages that must never reach a user of either package. */
const DEV_ONLY = ['tsx', 'esbuild', 'typescript', 'vite', 'vitest', '@playwright/test'];

test('price-board installs as built files, types and the manifest, with the widgets’ three dependencies', () => {
  const { app, files } = packAndInstall(root);
  const outside = files.filter((f) => !f.startsWith('dist/') && !['package.json', 'README.md', 'LICENSE'].includes(f));
  expect(outside).toEqual([]);
  expect(files.filter((f) => /\.ts$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
  for (const f of [
    'dist/lib/price-board.js',
    'dist/types/price-board.d.ts',
    'dist/custom-elements.json',
    'dist/price-board.js',
    'dist/embed.js',
  ]) {
    expect(files).toContain(f);
  }

  const manifest = JSON.parse(readFileSync(join(app, 'node_modules/price-board/package.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  expect(Object.keys(manifest.dependencies as object).sort()).toEqual([
    'eventsource-parser',
    'lightweight-charts',
    'lit',
  ]);
  expect(manifest.bin).toBeUndefined();

  const all = installed(app);
  // lit's own packages and lightweight-charts' one dependency come with them; nothing else does.
  expect(all).toEqual(
    [
      'price-board',
      'eventsource-parser',
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
  for (const dev of DEV_ONLY) expect(existsSync(join(app, 'node_modules', dev)), dev).toBe(false);
});

test('npx price-board-relay from the installed relay package answers /v1/prices with no configuration', async () => {
  const { app, files, name } = packAndInstall(join(root, 'relay'));
  expect(name).toBe('price-board-relay');
  expect(files.filter((f) => f.endsWith('.ts'))).toEqual([]);
  expect(files).toContain('dist/cli.js');
  expect(files).toContain('dist/widgets/price-board.js');
  for (const dev of DEV_ONLY) expect(existsSync(join(app, 'node_modules', dev)), dev).toBe(false);

  const child = spawn('npx', ['--no-install', 'price-board-relay'], {
    cwd: app,
    env: { PATH: process.env.PATH, PORT: '0', HOME: process.env.HOME },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = /Price relay: (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.on('exit', (code) => reject(new Error(`price-board-relay exited (${code}): ${out}`)));
    });
    const res = await fetch(`${url}/v1/prices?symbols=usd,eur`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { quotes: Array<{ symbol: string; price: string }> } };
    expect(body.data.quotes.map((q) => q.symbol)).toEqual(['usd', 'eur']);
    for (const q of body.data.quotes) expect(q.price).toMatch(/^\d+$/);
    // The widgets come from the relay's own origin too.
    const script = await fetch(`${url}/price-board.js`);
    expect(script.status).toBe(200);
    expect(await script.text()).toContain('price-board');
  } finally {
    // npx runs the command in a child of its own: the whole group goes.
    process.kill(-child.pid!, 'SIGTERM');
  }
});
