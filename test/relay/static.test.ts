// The built widgets from the relay's origin: short caching for entry files, a year for hashed chunks.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { get, startPair, type Pair } from './helpers';

let pair: Pair;
let dist: string;
beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'relay-dist-'));
  await mkdir(join(dist, 'assets'));
  await writeFile(join(dist, 'price-board.js'), 'export {};');
  await writeFile(join(dist, 'embed.html'), '<!doctype html>');
  await writeFile(join(dist, 'assets', 'chart-area-EL_FZJuW.js'), 'export {};');
  pair = await startPair({}, { distDir: dist });
});
afterAll(async () => {
  await pair.close();
  await rm(dist, { recursive: true });
});

it('serves entry files with short caching and hashed chunks as immutable', async () => {
  const entry = await get(pair.relay.url, '/price-board.js');
  expect([entry.status, entry.headers['content-type'], entry.body]).toEqual([
    200,
    'text/javascript; charset=utf-8',
    'export {};',
  ]);
  expect(entry.headers['cache-control']).toMatch(/max-age=300/);
  const chunk = await get(pair.relay.url, '/assets/chart-area-EL_FZJuW.js');
  expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  expect((await get(pair.relay.url, '/embed.html?symbols=usd')).headers['content-type']).toMatch(/text\/html/);
});

it('answers 404 outside dist/ and for missing files', async () => {
  expect((await get(pair.relay.url, '/../package.json')).status).toBe(404);
  expect((await get(pair.relay.url, '/%2e%2e/package.json')).status).toBe(404);
  expect((await get(pair.relay.url, '/missing.js')).status).toBe(404);
});
