import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../sandbox/server';
import { call, control, type ErrorBody, type SandboxStats, useSandbox } from './helpers';

let clock = Date.parse('2026-11-21T08:00:00Z');
const s = useSandbox({ now: () => clock });

const error = async (res: Response) => ((await res.json()) as ErrorBody).error;

describe('keys', () => {
  it('answers 401 unauthorized without a key, and with an unknown one', async () => {
    const none = await call(s.url, '/v1/prices?symbols=usd');
    expect(none.status).toBe(401);
    expect(await error(none)).toMatchObject({ code: 'unauthorized' });
    const unknown = await call(s.url, '/v1/prices?symbols=usd', { key: 'nope-key' });
    expect(unknown.status).toBe(401);
    expect((await error(unknown)).code).toBe('unauthorized');
    expect((await call(s.url, '/v1/symbols', { key: 'constructor' })).status).toBe(401);
  });

  it.each(['demo-key', 'basic-key', 'pro-key', 'enterprise-key', 'pro-key:any-suffix'])('accepts %s', async (key) => {
    expect((await call(s.url, '/v1/prices?symbols=usd', { key })).status).toBe(200);
  });

  it('takes the key only from the header, and counts keys seen in a URL', async () => {
    const before = (await control<SandboxStats>(s.url, 'stats', undefined, 'GET')).keyInUrl;
    for (const param of ['key', 'api_key', 'apikey']) {
      const res = await call(s.url, `/v1/prices?symbols=usd&${param}=demo-key`);
      expect(res.status).toBe(401);
    }
    expect((await call(s.url, '/v1/prices?symbols=usd&x=pro-key:1', { key: 'pro-key' })).status).toBe(200);
    expect((await call(s.url, '/v1/prices?symbols=usd', { key: 'pro-key' })).status).toBe(200);
    const after = (await control<SandboxStats>(s.url, 'stats', undefined, 'GET')).keyInUrl;
    expect(after - before).toBe(4);
  });

  it('allows restricted-key only from its origin', async () => {
    const path = '/v1/prices?symbols=usd';
    expect((await call(s.url, path, { key: 'restricted-key', origin: 'https://allowed.example' })).status).toBe(200);
    const wrong = await call(s.url, path, { key: 'restricted-key', origin: 'https://evil.example' });
    expect(wrong.status).toBe(403);
    expect((await error(wrong)).code).toBe('forbidden');
    const none = await call(s.url, path, { key: 'restricted-key' });
    expect(none.status).toBe(403);
    expect((await error(none)).code).toBe('forbidden');
  });
});

describe('rate limits', () => {
  it('gives the demo plan 10 requests a minute, then 429 with Retry-After, per key', async () => {
    for (let i = 0; i < 10; i++) {
      expect((await call(s.url, '/v1/prices?symbols=usd', { key: 'demo-key:rl' })).status).toBe(200);
      clock += 1000;
    }
    const limited = await call(s.url, '/v1/prices?symbols=usd', { key: 'demo-key:rl' });
    expect(limited.status).toBe(429);
    expect((await error(limited)).code).toBe('rate_limited');
    // The first of the ten was 10 s ago: its slot frees in 50 s.
    expect(limited.headers.get('retry-after')).toBe('50');
    expect((await call(s.url, '/v1/symbols', { key: 'demo-key:other' })).status).toBe(200);
    clock += 50_000;
    expect((await call(s.url, '/v1/prices?symbols=usd', { key: 'demo-key:rl' })).status).toBe(200);
    expect((await call(s.url, '/v1/prices?symbols=usd', { key: 'demo-key:rl' })).status).toBe(429);
  });

  it('counts every endpoint, the stream included, and not the rejected requests', async () => {
    const key = 'demo-key:mixed';
    const paths = ['/v1/symbols', '/v1/history/usd?days=7', '/v1/prices?symbols=usd'];
    for (let i = 0; i < 9; i++) expect((await call(s.url, paths[i % 3]!, { key })).status).toBe(200);
    const controller = new AbortController();
    const stream = await call(s.url, '/v1/stream?symbols=usd', { key, signal: controller.signal });
    expect(stream.status).toBe(200);
    controller.abort();
    expect((await call(s.url, '/v1/symbols', { key })).status).toBe(429);
    expect((await call(s.url, '/v1/stream?symbols=usd', { key })).status).toBe(429);
  });

  it('applies the larger plans', async () => {
    for (let i = 0; i < 30; i++) expect((await call(s.url, '/v1/symbols', { key: 'basic-key:rl' })).status).toBe(200);
    expect((await call(s.url, '/v1/symbols', { key: 'basic-key:rl' })).status).toBe(429);
    for (let i = 0; i < 31; i++) expect((await call(s.url, '/v1/symbols', { key: 'pro-key:rl' })).status).toBe(200);
  });

  it('forgets the counters on reset', async () => {
    for (let i = 0; i < 10; i++) await call(s.url, '/v1/symbols', { key: 'demo-key:reset' });
    expect((await call(s.url, '/v1/symbols', { key: 'demo-key:reset' })).status).toBe(429);
    await control(s.url, 'reset');
    expect((await call(s.url, '/v1/symbols', { key: 'demo-key:reset' })).status).toBe(200);
  });
});

describe('CORS', () => {
  it('echoes the Origin, or * without one, and exposes Retry-After', async () => {
    const withOrigin = await call(s.url, '/v1/symbols', { key: 'pro-key', origin: 'https://site.example' });
    expect(withOrigin.headers.get('access-control-allow-origin')).toBe('https://site.example');
    expect(withOrigin.headers.get('vary')).toBe('Origin');
    expect(withOrigin.headers.get('access-control-expose-headers')).toContain('Retry-After');
    const without = await call(s.url, '/v1/symbols');
    expect(without.status).toBe(401);
    expect(without.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers preflights for the service', async () => {
    const res = await fetch(`${s.url}/v1/prices?symbols=usd`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://site.example',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'x-api-key',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://site.example');
    expect(res.headers.get('access-control-allow-headers')).toBe('X-API-Key, Last-Event-ID, Content-Type');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS');
    expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
  });

  it('refuses the test controls to pages of other origins, preflight included', async () => {
    const other = { Origin: 'https://site.example' };
    const preflight = await fetch(`${s.url}/__sandbox/faults`, { method: 'OPTIONS', headers: other });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const rules = JSON.stringify({ rules: [{ kind: 'status', status: 500 }] });
    const post = await fetch(`${s.url}/__sandbox/faults`, { method: 'POST', headers: other, body: rules });
    expect(post.status).toBe(403);
    expect(post.headers.get('access-control-allow-origin')).toBeNull();
    const nullOrigin = await fetch(`${s.url}/__sandbox/reset`, { method: 'POST', headers: { Origin: 'null' } });
    expect(nullOrigin.status).toBe(403);
    expect((await (await fetch(`${s.url}/__sandbox/faults`)).json()).rules).toEqual([]);
    // Its own origin (the demo's page under `npm start`) and callers without Origin (Node) are served.
    const own = await fetch(`${s.url}/__sandbox/faults`, { method: 'DELETE', headers: { Origin: s.url } });
    expect(own.status).toBe(200);
  });
});

describe('routing', () => {
  it('answers 404 not_found for an unknown path and 405 for other methods', async () => {
    const unknown = await call(s.url, '/v1/nothing', { key: 'pro-key' });
    expect(unknown.status).toBe(404);
    expect((await error(unknown)).code).toBe('not_found');
    const other = await call(s.url, '/index.html');
    expect(other.status).toBe(404);
    expect((await error(other)).code).toBe('not_found');
    const post = await call(s.url, '/v1/prices?symbols=usd', { key: 'pro-key', method: 'POST' });
    expect(post.status).toBe(405);
    expect((await error(post)).code).toBe('method_not_allowed');
    expect((await fetch(`${s.url}/__sandbox/stats`, { method: 'DELETE' })).status).toBe(405);
    expect((await fetch(`${s.url}/__sandbox/nothing`)).status).toBe(404);
  });

  it('hands paths it does not own to the next middleware', async () => {
    const sandbox = createSandbox({ tickMs: 0 });
    const server = createServer((req, res) => sandbox.handle(req, res, () => res.end('page')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(await (await fetch(`${base}/embed.html?key=demo-key`)).text()).toBe('page');
      expect((await fetch(`${base}/v1/symbols`, { headers: { 'X-API-Key': 'demo-key' } })).status).toBe(200);
      expect((await fetch(`${base}/v1/other`)).status).toBe(404);
    } finally {
      sandbox.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('logs the /v1 requests with their key, origin and status', async () => {
    await control(s.url, 'reset');
    await call(s.url, '/v1/prices?symbols=usd', { key: 'pro-key:log', origin: 'https://site.example' });
    await call(s.url, '/v1/prices?symbols=nope', { key: 'pro-key:log' });
    await fetch(`${s.url}/v1/prices`, { method: 'OPTIONS' });
    const stats = await control<SandboxStats>(s.url, 'stats', undefined, 'GET');
    expect(stats.requests).toMatchObject([
      {
        method: 'GET',
        path: '/v1/prices',
        url: '/v1/prices?symbols=usd',
        key: 'pro-key:log',
        origin: 'https://site.example',
        status: 200,
      },
      { method: 'GET', path: '/v1/prices', key: 'pro-key:log', origin: null, status: 404 },
    ]);
    expect(stats.requests[0]!.at).toBe(new Date(clock).toISOString());
    expect(stats.preflights).toBe(1);
  });
});
