// The deployment as documented: Debian's nginx with the configuration of docs/relay.md ("Deploy
// behind nginx", read from the page so the two cannot drift) in front of a relay run with the
// page's environment. Checks nginx's cache, the stream passing unbuffered, the per-visitor limit
// through X-Forwarded-For, and HEAD. `npm test` installs nginx-light when missing (scripts/ensure-nginx.mjs).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '../helpers/cluster-processes';
import { nginxFolder, startNginx, type Nginx } from '../helpers/nginx';
import { control, get, startPair, Stream, until, type Pair } from './helpers';

/** The first fenced block of `lang` in the `## heading` section of docs/relay.md. */
async function documented(heading: string, lang: string): Promise<string> {
  const page = await readFile(new URL('../../docs/relay.md', import.meta.url), 'utf8');
  const section = page.split(/^## /m).find((s) => s.startsWith(heading));
  const block = section && new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(section)?.[1];
  if (!block) throw new Error(`docs/relay.md has no ${lang} block under "## ${heading}"`);
  return block;
}

let pair: Pair;
let nginx: Nginx;
let base: string;

beforeAll(async () => {
  // The relay as the page runs it, with a low request rate so the test can reach the limit.
  const env = Object.fromEntries(
    [...(await documented('Deploy behind nginx', 'sh')).matchAll(/\b([A-Z_]+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]),
  );
  pair = await startPair({ ...env, PORT: '0', CLIENT_RPM: '60' });
  const dir = await nginxFolder();
  const port = await freePort();
  const site = (await documented('Deploy behind nginx', 'nginx'))
    .replace('server 127.0.0.1:8788;', `server 127.0.0.1:${pair.relay.port};`)
    .replace('listen 80;', `listen 127.0.0.1:${port};`)
    .replace('/var/cache/nginx/price-relay', join(dir, 'cache'));
  expect(site).toContain(`127.0.0.1:${pair.relay.port}`);
  nginx = await startNginx(dir, site);
  base = `http://127.0.0.1:${port}`;
  await until(async () => (await get(base, '/healthz').catch(() => undefined))?.status, 20_000);
});

afterAll(async () => {
  await nginx?.close();
  await pair?.close();
});

it('serves a second REST request from its cache without asking the relay', async () => {
  const first = await get(base, '/v1/symbols', { from: '127.0.60.1' });
  expect(first.status).toBe(200);
  const asked = pair.relay.metrics.value('relay_requests_total');
  const second = await get(base, '/v1/symbols', { from: '127.0.60.2' });
  expect([second.status, second.headers['x-cache-status'], second.body]).toEqual([200, 'HIT', first.body]);
  expect(pair.relay.metrics.value('relay_requests_total')).toBe(asked);
});

it('passes the stream through unbuffered: an event arrives while the stream is open', async () => {
  const stream = new Stream(base, 'usd', { from: '127.0.60.3' });
  await stream.event((e) => e.event === 'quotes');
  await control(pair.sandbox.url, 'market', { set: [{ symbol: 'usd', price: '1777770' }] });
  const change = await stream.event((e) => e.event === 'quote');
  expect(JSON.parse(change.data)).toMatchObject({ symbol: 'usd', price: '1777770' });
  expect(stream.ended).toBe(false);
  stream.close();
});

it("limits the visitor's address (X-Forwarded-For from nginx), not nginx's", async () => {
  const statuses: number[] = [];
  // Distinct query strings: each one a cache miss that reaches the relay.
  for (let i = 0; i < 16; i++)
    statuses.push((await get(base, `/v1/prices?symbols=usd&n=${i}`, { from: '127.0.61.1' })).status);
  expect(statuses.slice(0, 15)).toEqual(Array(15).fill(200));
  expect(statuses[15]).toBe(429);
  // A visitor forging X-Forwarded-For is still counted by the address nginx saw.
  const forged = await get(base, '/v1/prices?symbols=usd&n=forged', {
    from: '127.0.61.1',
    headers: { 'X-Forwarded-For': '198.51.100.1' },
  });
  expect(forged.status).toBe(429);
  // Another visitor behind the same nginx is served.
  expect((await get(base, '/v1/prices?symbols=usd&n=other', { from: '127.0.61.2' })).status).toBe(200);
});

it('answers HEAD with headers only, through nginx', async () => {
  const stream = await get(base, '/v1/stream?symbols=usd', { method: 'HEAD', from: '127.0.60.4' });
  expect([stream.status, stream.headers['content-type'], stream.body]).toEqual([
    200,
    'text/event-stream; charset=utf-8',
    '',
  ]);
  const symbols = await get(base, '/v1/symbols', { method: 'HEAD', from: '127.0.60.4' });
  expect([symbols.status, symbols.headers['content-type'], symbols.body]).toEqual([
    200,
    'application/json; charset=utf-8',
    '',
  ]);
  const missing = await get(base, '/v1/history/nope?days=7', { method: 'HEAD', from: '127.0.60.4' });
  expect([missing.status, missing.body]).toEqual([404, '']);
  // /metrics is closed at the edge to anyone but this machine's 127.0.0.1.
  expect((await get(base, '/metrics', { from: '127.0.60.4' })).status).toBe(403);
});
