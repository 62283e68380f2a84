// The relay's edge over real HTTP: HEAD on every path with the connection kept, stream opens
// counted as requests, IPv6 visitors by their /64, /healthz and /metrics (methods, rate, METRICS_ALLOW,
// prom-client's metrics), static files (no symlink out of dist/, ETag/304, nosniff), the limiter's
// bounded memory, and per-address limits shared by a cluster on a real redis-server.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@redis/client';
import { afterEach, describe, expect, it } from 'vitest';
import { connectCluster } from '../../relay/engine/connect';
import { readConfig } from '../../relay/config';
import { RequestLimiter, visitorKey } from '../../relay/protect';
import { startRelay, type Relay } from '../../relay/server';
import { startRedisServer, stopAllProcesses } from '../helpers/cluster-processes';
import { get, startPair, Stream, until, type Pair } from './helpers';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function pairOf(env: Record<string, string> = {}, options: Parameters<typeof startPair>[1] = {}): Promise<Pair> {
  const pair = await startPair(env, options);
  cleanups.push(() => pair.close());
  return pair;
}

/** Writes `requests` on one connection at once (pipelined) and returns every byte until the relay closes it. */
function pipelined(base: string, requests: string[], statusOnly = false): Promise<string> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: Number(port) });
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (statusOnly && text.includes('\r\n')) socket.destroy();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(text));
    socket.write(requests.join(''));
  });
}

const request = (method: string, path: string, last = false): string =>
  `${method} ${path} HTTP/1.1\r\nHost: relay\r\n${last ? 'Connection: close\r\n' : ''}\r\n`;

describe('HEAD', () => {
  it('answers headers only on every path, and the next request on the connection is answered', async () => {
    const dist = await mkdtemp(join(tmpdir(), 'relay-dist-'));
    cleanups.push(() => rm(dist, { recursive: true }));
    await writeFile(join(dist, 'price-board.js'), 'export {};');
    const pair = await pairOf({}, { distDir: dist });
    const paths = [
      '/v1/stream?symbols=usd,eur',
      '/v1/stream?symbols=nope',
      '/v1/prices?symbols=usd',
      '/v1/history/usd?days=7',
      '/v1/symbols',
      '/price-board.js',
      '/healthz',
      '/metrics',
      '/v1/nothing',
      '/missing.js',
    ];
    for (const path of paths) {
      const get = await pipelined(pair.relay.url, [request('GET', path, true)], true);
      const text = await pipelined(pair.relay.url, [request('HEAD', path), request('GET', '/v1/symbols', true)]);
      const [head, rest] = [text.slice(0, text.indexOf('\r\n\r\n') + 4), text.slice(text.indexOf('\r\n\r\n') + 4)];
      // The HEAD's status line is the GET's; then, with no byte between, the pipelined GET's answer.
      expect(head.split('\r\n')[0], path).toBe(get.split('\r\n')[0]);
      expect(rest, path).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(rest.slice(rest.indexOf('\r\n\r\n') + 4), path).toMatch(/^\{"data":\{"symbols":\[/);
    }
  });
});

describe('per-address limits', () => {
  it('counts stream opens against the request limit', async () => {
    const pair = await pairOf({ CLIENT_RPM: '60', CLIENT_STREAMS: '1000' });
    const statuses: number[] = [];
    // One stream at a time, each closed before the next: the concurrent-stream limit never applies.
    for (let i = 0; i < 25 && !statuses.includes(429); i++) {
      const stream = new Stream(pair.relay.url, 'usd', { from: '127.0.40.1' });
      statuses.push(await stream.opened());
      stream.close();
      await until(() => stream.ended);
    }
    expect(statuses.slice(0, 15)).toEqual(Array(15).fill(200));
    expect(statuses.at(-1)).toBe(429);
    expect((await get(pair.relay.url, '/v1/prices?symbols=usd', { from: '127.0.40.1' })).status).toBe(429);
    // Another address is not affected.
    const other = new Stream(pair.relay.url, 'usd', { from: '127.0.40.2' });
    expect(await other.opened()).toBe(200);
    other.close();
  });

  it('counts an IPv6 visitor by its /64, and IPv4-mapped IPv6 as IPv4', async () => {
    const pair = await pairOf({ CLIENT_RPM: '60', TRUST_PROXY: 'loopback' });
    const from = (xff: string) => get(pair.relay.url, '/v1/symbols', { headers: { 'X-Forwarded-For': xff } });
    const statuses: number[] = [];
    // A new address of one /64 for every request.
    for (let i = 1; i <= 16; i++) statuses.push((await from(`2001:db8:a:b:${i.toString(16)}::${i}`)).status);
    expect(statuses.slice(0, 15)).toEqual(Array(15).fill(200));
    expect(statuses[15]).toBe(429);
    expect((await from('2001:db8:a:b::ffff')).status).toBe(429);
    expect((await from('2001:0db8:000a:000b:1:2:3:4')).status).toBe(429);
    // The next /64 is another visitor.
    expect((await from('2001:db8:a:c::1')).status).toBe(200);
    // Every spelling of one /64 is one key; a dotted-quad tail is two groups.
    expect(
      new Set(
        ['2001:db8:a:b::1', '2001:DB8:A:B:ffff:1:2:3', '2001:db8:a:b:0:0:0:0', '2001:db8:a:b::1.2.3.4'].map(visitorKey),
      ).size,
    ).toBe(1);
    expect(visitorKey('::1')).toBe('0:0:0:0::/64');
    expect(visitorKey('2001:db8::')).toBe('2001:db8:0:0::/64');
    expect(visitorKey('64:ff9b::1.2.3.4')).toBe('64:ff9b:0:0::/64');
    const v4: number[] = [];
    for (let i = 0; i < 16; i++) v4.push((await from(i % 2 ? '198.51.100.7' : '::ffff:198.51.100.7')).status);
    expect(v4.at(-1)).toBe(429);
  });

  it('counts the open streams of an IPv6 visitor by its /64 too', async () => {
    const pair = await pairOf({ CLIENT_STREAMS: '1', TRUST_PROXY: 'loopback' });
    const first = new Stream(pair.relay.url, 'usd', { headers: { 'X-Forwarded-For': '2001:db8:5:6::1' } });
    await first.event();
    const sameNet = new Stream(pair.relay.url, 'usd', { headers: { 'X-Forwarded-For': '2001:db8:5:6:aaaa::2' } });
    expect(await sameNet.opened()).toBe(429);
    const otherNet = new Stream(pair.relay.url, 'usd', { headers: { 'X-Forwarded-For': '2001:db8:5:7::1' } });
    expect(await otherNet.opened()).toBe(200);
    first.close();
    otherNet.close();
  });

  it('limits a visitor on a real IPv6 socket (::1)', async () => {
    const pair = await pairOf({ CLIENT_RPM: '60', HOST: '::1' });
    expect(pair.relay.url).toMatch(/^http:\/\/\[::1\]:/);
    const statuses: number[] = [];
    for (let i = 0; i < 16; i++) statuses.push((await get(pair.relay.url, '/v1/symbols', { from: '::1' })).status);
    expect(statuses.slice(0, 15)).toEqual(Array(15).fill(200));
    expect(statuses[15]).toBe(429);
  });

  it('keeps the memory store bounded: past its cap a new address is refused, known ones still counted', async () => {
    const limiter = new RequestLimiter(60, { maxTracked: 500 });
    for (let i = 0; i < 500; i++) expect(await limiter.take(`10.1.${i >> 8}.${i & 255}`)).toBe(0);
    expect(limiter.tracked).toBe(500);
    expect(await limiter.take('10.2.0.1')).toBeGreaterThan(0);
    expect(await limiter.take('10.1.0.1')).toBe(0);
    expect(limiter.tracked).toBe(500);
  });

  it('is one limit across the processes of a cluster (Redis)', async () => {
    const redis = await startRedisServer();
    cleanups.push(() => stopAllProcesses());
    const sandboxPair = await pairOf();
    const relays: Relay[] = [];
    for (let i = 0; i < 2; i++) {
      const engine = await connectCluster(redis.url, () => {});
      const config = readConfig({
        UPSTREAM_URL: sandboxPair.sandbox.url,
        UPSTREAM_KEY: 'enterprise-key',
        PORT: '0',
        CLIENT_RPM: '60',
        REDIS_URL: redis.url,
        TRUST_PROXY: '127.0.0.1',
      });
      const relay = await startRelay(
        { ...config, upstreamUrl: sandboxPair.sandbox.url },
        { engine, logSink: () => {} },
      );
      relays.push(relay);
      cleanups.push(() => relay.close());
    }
    const statuses: number[] = [];
    // The visitor alternates between the two processes (a round-robin load balancer).
    for (let i = 0; i < 16; i++)
      statuses.push((await get(relays[i % 2]!.url, '/v1/symbols', { from: '127.0.41.1' })).status);
    expect(statuses.slice(0, 15)).toEqual(Array(15).fill(200));
    expect(statuses[15]).toBe(429);
    expect((await get(relays[0]!.url, '/v1/symbols', { from: '127.0.41.2' })).status).toBe(200);
    // Redis paused (connected, not answering): a request is not held until it answers.
    const admin = createClient({ url: redis.url });
    await admin.connect();
    await admin.sendCommand(['CLIENT', 'PAUSE', '20000', 'ALL']);
    const paused = Date.now();
    const during = await get(relays[0]!.url, '/healthz', { headers: { 'X-Forwarded-For': '203.0.113.41' } });
    expect(during.status).not.toBe(429);
    expect(Date.now() - paused).toBeLessThan(10_000);
    admin.destroy();
    // Redis away: each process counts in its own memory, and nothing fails because of the limiter.
    await redis.stop();
    const alone: number[] = [];
    for (let i = 0; i < 16; i++) alone.push((await get(relays[0]!.url, '/v1/symbols', { from: '127.0.41.3' })).status);
    expect(alone.slice(0, 15)).toEqual(Array(15).fill(200));
    expect(alone[15]).toBe(429);
  });
});

describe('/healthz and /metrics', () => {
  it('answer GET and HEAD only: 405 with Allow otherwise', async () => {
    const pair = await pairOf();
    for (const path of ['/healthz', '/metrics']) {
      for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
        const answer = await get(pair.relay.url, path, { method });
        expect([answer.status, answer.headers.allow], `${method} ${path}`).toEqual([405, 'GET, HEAD']);
      }
    }
    // Elsewhere HEAD is allowed too, and the answer says so.
    expect((await get(pair.relay.url, '/v1/symbols', { method: 'POST' })).headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('are rate-limited per visitor (not for this machine itself)', async () => {
    const pair = await pairOf({ CLIENT_RPM: '60', TRUST_PROXY: 'loopback' });
    const statuses: number[] = [];
    for (let i = 0; i < 16; i++)
      statuses.push(
        (await get(pair.relay.url, i % 2 ? '/healthz' : '/metrics', { headers: { 'X-Forwarded-For': '203.0.113.9' } }))
          .status,
      );
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, 15).every((s) => s !== 429)).toBe(true);
    expect((await get(pair.relay.url, '/metrics')).status).toBe(200);
  });

  it('serve /metrics only to METRICS_ALLOW', async () => {
    const pair = await pairOf({ METRICS_ALLOW: '127.0.42.0/24, 2001:db8::/32', TRUST_PROXY: '127.0.0.1' });
    expect((await get(pair.relay.url, '/metrics', { from: '127.0.42.9' })).status).toBe(200);
    const refused = await get(pair.relay.url, '/metrics', { from: '127.0.43.9' });
    expect([refused.status, JSON.parse(refused.body).error.code]).toEqual([403, 'forbidden']);
    expect((await get(pair.relay.url, '/metrics', { headers: { 'X-Forwarded-For': '2001:db8:1::1' } })).status).toBe(
      200,
    );
    expect((await get(pair.relay.url, '/metrics', { headers: { 'X-Forwarded-For': '2001:db9::1' } })).status).toBe(403);
    // /healthz stays open to anyone.
    expect((await get(pair.relay.url, '/healthz', { from: '127.0.43.9' })).status).not.toBe(403);
    expect(() => readConfig({ METRICS_ALLOW: '10.0.0.0/33' })).toThrow(/METRICS_ALLOW: "10.0.0.0\/33"/);
    expect(() => readConfig({ METRICS_ALLOW: 'intranet' })).toThrow(/METRICS_ALLOW/);
  });

  it('expose the relay metrics, process metrics and event-loop lag, per relay', async () => {
    const a = await pairOf();
    const b = await pairOf();
    const stream = new Stream(a.relay.url, 'usd');
    await stream.event();
    const text = (await get(a.relay.url, '/metrics')).body;
    for (const name of [
      'relay_requests_total',
      'relay_stream_clients',
      'relay_connections',
      'relay_budget_minute_limit',
      'relay_budget_spent_minute',
      'relay_budget_spent_day',
      'relay_data_age_seconds',
      'relay_upstream_requests_total',
      'relay_fanout_lag_seconds_bucket',
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_eventloop_lag_p99_seconds',
    ]) {
      expect(text, name).toMatch(new RegExp(`^${name}(\\{[^}]*\\})? `, 'm'));
    }
    expect(text).toMatch(/^relay_stream_clients 1$/m);
    // The other relay in this process counts its own.
    expect((await get(b.relay.url, '/metrics')).body).toMatch(/^relay_stream_clients 0$/m);
    stream.close();
  });
});

describe('static files', () => {
  it('follow no symlink out of dist/, and send ETag, 304 and nosniff', async () => {
    const root = await mkdtemp(join(tmpdir(), 'relay-static-'));
    cleanups.push(() => rm(root, { recursive: true }));
    const dist = join(root, 'dist');
    await mkdir(join(dist, 'assets'), { recursive: true });
    await writeFile(join(root, 'secret.txt'), 'outside');
    await mkdir(join(root, 'private'));
    await writeFile(join(root, 'private', 'key.js'), 'outside');
    await writeFile(join(dist, 'price-board.js'), 'export {};');
    await symlink(join(root, 'secret.txt'), join(dist, 'secret.txt'));
    await symlink(join(root, 'private'), join(dist, 'linked'));
    await symlink(join(dist, 'price-board.js'), join(dist, 'assets', 'alias.js'));
    const pair = await pairOf({}, { distDir: dist });
    for (const path of ['/secret.txt', '/linked/key.js']) {
      const answer = await get(pair.relay.url, path);
      expect([answer.status, answer.body.includes('outside')], path).toEqual([404, false]);
    }
    // A link that stays inside dist/ is served.
    expect((await get(pair.relay.url, '/assets/alias.js')).body).toBe('export {};');
    const first = await get(pair.relay.url, '/price-board.js');
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    expect(first.headers.etag).toMatch(/^W\/".+"$/);
    const again = await get(pair.relay.url, '/price-board.js', { headers: { 'If-None-Match': first.headers.etag! } });
    expect([again.status, again.body, again.headers.etag]).toEqual([304, '', first.headers.etag]);
    await writeFile(join(dist, 'price-board.js'), 'export const changed = 1;');
    const changed = await get(pair.relay.url, '/price-board.js', { headers: { 'If-None-Match': first.headers.etag! } });
    expect([changed.status, changed.body]).toEqual([200, 'export const changed = 1;']);
  });
});

describe('malformed requests', () => {
  /** Each request on its own connection; the status line and body of each answer. */
  async function statuses(base: string, requests: string[]): Promise<{ status: number; text: string }[]> {
    const answers = [];
    for (const raw of requests) {
      const text = await pipelined(base, [raw]);
      answers.push({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text });
    }
    return answers;
  }

  it('answers a path trick 400, counted by the per-address limit (then 429), never 500, in one log line', async () => {
    const pair = await pairOf();
    const targets = [
      '//',
      '//v1/prices?symbols=usd',
      '/%2e%2e/',
      '///x',
      '/assets/../embed.html',
      '/.%2E/x',
      '/a\\..\\b',
      '*',
    ];
    const answers = await statuses(
      pair.relay.url,
      Array.from({ length: 40 }, (_, i) => request('GET', targets[i % targets.length]!, true)),
    );
    // 30 a window (CLIENT_RPM 120), the malformed ones included.
    expect(answers.slice(0, 30).map((a) => a.status)).toEqual(Array(30).fill(400));
    expect(answers.slice(30).map((a) => a.status)).toEqual(Array(10).fill(429));
    for (const { text } of answers) {
      expect(text).toMatch(/\r\nAccess-Control-Allow-Origin: \*\r\n/i);
      expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).error.code).toMatch(/^(bad_request|rate_limited)$/);
    }
    expect(pair.logs.filter((line) => /malformed|request_failed/.test(line))).toEqual([
      expect.stringMatching(/"event":"malformed_requests","count":1,/),
    ]);
    // The limit is the address's: another one is served.
    expect((await get(pair.relay.url, '/v1/prices?symbols=usd', { from: '127.0.40.2' })).status).toBe(200);
  });

  it('answers a request line it cannot read 400, counted by the per-address limit too', async () => {
    const pair = await pairOf();
    const junk = ['GET / HTTP/1.1 junk\r\n\r\n', 'G@T / HTTP/1.1\r\nHost: relay\r\n\r\n', 'GET /\x01 HTTP/1.1\r\n\r\n'];
    const answers = await statuses(
      pair.relay.url,
      Array.from({ length: 35 }, (_, i) => junk[i % junk.length]!),
    );
    expect(answers.slice(0, 30).map((a) => a.status)).toEqual(Array(30).fill(400));
    expect(answers.slice(30).map((a) => a.status)).toEqual(Array(5).fill(429));
    expect(pair.logs.filter((line) => line.includes('malformed'))).toHaveLength(1);
  });
});
