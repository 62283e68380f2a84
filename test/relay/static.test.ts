// The built widgets from the relay's origin: short caching for entry files, a year for hashed chunks;
// files never count against the API's per-address limit (a page with every widget asks 44 of them,
// and visitors behind one carrier address share it); embed.html's own errors are a Persian page.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, startPair, type Answer, type Pair } from './helpers';

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
  expect((await get(pair.relay.url, '/assets/../../package.json')).status).toBe(404);
  expect((await get(pair.relay.url, '/missing.js')).status).toBe(404);
});

/**
 * A page's files, as a build with every widget has them: entry scripts, embed.html and embed.js,
 * hashed chunks, styles and fonts (44, as a page with every widget asks).
 */
async function buildLike(dir: string): Promise<string[]> {
  await mkdir(join(dir, 'assets'), { recursive: true });
  const files = ['/price-board.js', '/price-ticker.js', '/price-converter.js', '/embed.js', '/embed.html'];
  for (let i = 0; files.length < 44; i++) {
    const [ext, body] = (
      [
        ['js', 'export {};'],
        ['css', 'a{}'],
        ['woff2', 'wOF2'],
      ] as const
    )[i % 3]!;
    files.push(`/assets/part${i}-${(0x1000_0000 + i).toString(36).padStart(8, 'x')}.${ext}`);
    await writeFile(join(dir, files.at(-1)!), body);
  }
  for (const file of files.slice(0, 5))
    await writeFile(join(dir, file), file.endsWith('.html') ? '<!doctype html>' : 'export {};');
  return files;
}

describe('files are not visits', () => {
  it('serves one address every file of a page five times beside its API calls; the API 429 is readable cross-origin', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'relay-dist-'));
    const files = await buildLike(dir);
    const origin = 'https://site.example';
    const relay = await startPair({ ALLOWED_ORIGINS: `${origin},https://other.example` }, { distDir: dir });
    try {
      const visit = { from: '127.0.30.1', headers: { Origin: origin } };
      const fileStatuses = new Map<string, number>();
      const api: Answer[] = [];
      // A carrier address: the same page loaded five times (within one 15 s window), each with its API calls.
      for (let load = 0; load < 5; load++) {
        const answers = await Promise.all(files.map((file) => get(relay.relay.url, file, visit)));
        answers.forEach((a, i) => fileStatuses.set(`${files[i]} #${load}`, a.status));
        for (let call = 0; call < 8; call++) api.push(await get(relay.relay.url, '/v1/prices?symbols=usd', visit));
      }
      expect([...fileStatuses].filter(([, status]) => status !== 200)).toEqual([]);
      const refused = api.find((a) => a.status === 429);
      expect(refused, 'the API is still limited').toBeDefined();
      expect(refused!.headers['access-control-allow-origin']).toBe(origin);
      expect(refused!.headers['access-control-expose-headers']).toMatch(/Retry-After/);
      expect(JSON.parse(refused!.body).error.code).toBe('rate_limited');
      // A file's caching: hashed chunks for a year, entry files briefly with a validator; CORS for the origin.
      const chunk = await get(relay.relay.url, files.at(-1)!, visit);
      expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const entry = await get(relay.relay.url, '/price-board.js', visit);
      expect([
        entry.headers['cache-control'],
        entry.headers.etag,
        entry.headers['access-control-allow-origin'],
      ]).toEqual([expect.stringMatching(/^public, max-age=300\b/), expect.stringMatching(/^W\/"/), origin]);
      // An origin outside ALLOWED_ORIGINS gets no CORS header, on a file as on the API.
      const stranger = { from: '127.0.30.2', headers: { Origin: 'https://stranger.example' } };
      expect(
        (await get(relay.relay.url, '/price-board.js', stranger)).headers['access-control-allow-origin'],
      ).toBeUndefined();
      const refusedOrigin = await get(relay.relay.url, '/v1/prices?symbols=usd', stranger);
      expect([refusedOrigin.status, refusedOrigin.headers['access-control-allow-origin']]).toEqual([403, undefined]);
    } finally {
      await relay.close();
      await rm(dir, { recursive: true });
    }
  });

  it('still counts a path that is no file (a scan of paths is requests like any other)', async () => {
    const from = '127.0.30.3';
    const statuses: number[] = [];
    for (let i = 0; i < 35; i++) statuses.push((await get(pair.relay.url, `/wp-login-${i}.php`, { from })).status);
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(404));
    expect(statuses.at(-1)).toBe(429);
  });
});

describe("embed.html's own errors", () => {
  /** The Persian page, not a JSON body. */
  const expectPersianPage = (answer: Answer, status: number): void => {
    expect([answer.status, answer.headers['content-type']]).toEqual([status, 'text/html; charset=utf-8']);
    expect(answer.body).toMatch(/^<!doctype html><html lang="fa" dir="rtl">/);
    expect(answer.body).toMatch(/<p role="alert">[\u0600-\u06FF][^<]*<\/p>/);
    expect(answer.body).not.toMatch(/[{}]"|"error"/);
  };

  it('are a Persian page: a 404 of it, a 405, and a 429 that loads the page again after Retry-After', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'relay-dist-'));
    const relay = await startPair({ ALLOWED_ORIGINS: 'https://site.example' }, { distDir: empty });
    try {
      const from = '127.0.31.1';
      expectPersianPage(await get(relay.relay.url, '/embed.html?symbols=usd', { from }), 404);
      expectPersianPage(await get(relay.relay.url, '/embed.html', { from, method: 'POST' }), 405);
      // Any navigation (an iframe of a path that is no page) gets the page too.
      const framed = await get(relay.relay.url, '/embed?symbols=usd', {
        from,
        headers: { 'Sec-Fetch-Dest': 'iframe' },
      });
      expectPersianPage(framed, 404);
      let answer: Answer;
      do answer = await get(relay.relay.url, '/v1/prices?symbols=usd', { from });
      while (answer.status !== 429);
      const limited = await get(relay.relay.url, '/embed.html?symbols=usd', { from });
      expectPersianPage(limited, 429);
      expect(limited.body).toContain(`<meta http-equiv="refresh" content="${limited.headers['retry-after']}">`);
    } finally {
      await relay.close();
      await rm(empty, { recursive: true });
    }
  });

  it('is the page itself when it exists, whatever the address used of the API', async () => {
    const from = '127.0.31.2';
    let answer: Answer;
    do answer = await get(pair.relay.url, '/v1/prices?symbols=usd', { from });
    while (answer.status !== 429);
    const page = await get(pair.relay.url, '/embed.html?symbols=usd', { from });
    expect([page.status, page.body]).toEqual([200, '<!doctype html>']);
  });
});
