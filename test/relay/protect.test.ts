// Protection: per-address limits (429 + Retry-After), TRUST_PROXY, the CORS allowlist, and the
// upstream key in no downstream byte and no log line.
import { afterEach, describe, expect, it } from 'vitest';
import { clientAddress } from '../../relay/protect';
import { control, get, startPair, Stream, until, type Pair } from './helpers';
import type { IncomingMessage } from 'node:http';
import { connect } from 'node:net';

let pair: Pair;
afterEach(() => pair.close());

/** A visitor's stream of usd, from `from`, on the pair's relay. */
const usdFrom = (from: string): Stream => new Stream(pair.relay.url, 'usd', { from });

/** Two visitors' streams of usd that each got their first event. */
async function twoStreams(first: string, second: string): Promise<[Stream, Stream]> {
  const streams: [Stream, Stream] = [usdFrom(first), usdFrom(second)];
  for (const stream of streams) await stream.event();
  return streams;
}

describe('per-address limits', () => {
  it('answers 429 with Retry-After to an address over its request rate; other addresses are served', async () => {
    pair = await startPair({ CLIENT_RPM: '60' });
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 20; i++) {
      last = await get(pair.relay.url, '/v1/prices?symbols=usd', { from: '127.0.20.1' });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 15)).toEqual(Array(15).fill(200));
    expect(statuses.at(-1)).toBe(429);
    expect(Number(last!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(last!.body).error.code).toBe('rate_limited');
    expect((await get(pair.relay.url, '/v1/prices?symbols=usd', { from: '127.0.20.2' })).status).toBe(200);
  });

  it('limits concurrent streams per address', async () => {
    pair = await startPair({ CLIENT_STREAMS: '2' });
    const [a, b] = await twoStreams('127.0.21.1', '127.0.21.1');
    const c = usdFrom('127.0.21.1');
    expect(await c.opened()).toBe(429);
    a.close();
    await until(() => pair.relay.fanout.size === 1);
    const d = usdFrom('127.0.21.1');
    expect((await d.event()).event).toBe('quotes');
    b.close();
    d.close();
  });

  it('believes X-Forwarded-For only from a trusted proxy', () => {
    const req = (remote: string, xff?: string) =>
      ({
        socket: { remoteAddress: remote },
        headers: xff ? { 'x-forwarded-for': xff } : {},
      }) as unknown as IncomingMessage;
    expect(clientAddress(req('10.0.0.9', '1.2.3.4'), [])).toBe('10.0.0.9');
    expect(clientAddress(req('127.0.0.1', '9.9.9.9, 1.2.3.4'), ['loopback'])).toBe('1.2.3.4');
    expect(clientAddress(req('::ffff:10.0.0.2', '5.6.7.8, 10.0.0.3'), ['10.0.0.2', '10.0.0.3'])).toBe('5.6.7.8');
    expect(clientAddress(req('10.0.0.2'), ['10.0.0.2'])).toBe('10.0.0.2');
  });

  it('counts visitors behind a trusted proxy by their forwarded address', async () => {
    pair = await startPair({ CLIENT_STREAMS: '1', TRUST_PROXY: 'loopback' });
    const a = new Stream(pair.relay.url, 'usd', { headers: { 'X-Forwarded-For': '203.0.113.1' } });
    const b = new Stream(pair.relay.url, 'usd', { headers: { 'X-Forwarded-For': '203.0.113.2' } });
    await a.event();
    await b.event();
    const again = new Stream(pair.relay.url, 'usd', { headers: { 'X-Forwarded-For': '203.0.113.1' } });
    expect(await again.opened()).toBe(429);
    a.close();
    b.close();
  });
});

describe('CORS allowlist', () => {
  it('allows the listed origins and refuses others', async () => {
    pair = await startPair({ ALLOWED_ORIGINS: 'https://shop.example, https://news.example' });
    const ok = await get(pair.relay.url, '/v1/prices?symbols=usd', { headers: { Origin: 'https://shop.example' } });
    expect([ok.status, ok.headers['access-control-allow-origin']]).toEqual([200, 'https://shop.example']);
    const other = await get(pair.relay.url, '/v1/prices?symbols=usd', { headers: { Origin: 'https://evil.example' } });
    expect(other.status).toBe(403);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await get(pair.relay.url, '/v1/stream?symbols=usd', {
      method: 'OPTIONS',
      headers: { Origin: 'https://news.example' },
    });
    expect([preflight.status, preflight.headers['access-control-allow-origin']]).toEqual([204, 'https://news.example']);
    expect(preflight.headers['access-control-allow-headers']).toMatch(/Last-Event-ID/);
  });

  it('puts the CORS headers of an allowed origin on every refusal, so a widget can read it', async () => {
    pair = await startPair({ ALLOWED_ORIGINS: 'https://shop.example', METRICS_ALLOW: '10.0.0.1', CLIENT_RPM: '40' });
    const visit = { from: '127.0.22.1', headers: { Origin: 'https://shop.example' } };
    const refusals: [string, string, number][] = [
      ['GET', '/v1/prices', 400],
      ['GET', '/v1/prices?symbols=nope', 404],
      ['GET', '/v1/nothing', 404],
      ['GET', '/missing.js', 404],
      ['POST', '/v1/prices?symbols=usd', 405],
      ['POST', '/healthz', 405],
      ['GET', '/metrics', 403],
      ['GET', '//v1/prices', 400],
    ];
    for (const [method, path, status] of refusals) {
      const answer = await get(pair.relay.url, path, { ...visit, method });
      expect([answer.status, answer.headers['access-control-allow-origin']], `${method} ${path}`).toEqual([
        status,
        'https://shop.example',
      ]);
    }
    let answer;
    do answer = await get(pair.relay.url, '/v1/prices?symbols=usd', visit);
    while (answer.status === 200);
    expect([answer.status, answer.headers['access-control-allow-origin']]).toEqual([429, 'https://shop.example']);
  });
});

describe('the upstream key', () => {
  it('appears in no downstream byte and no log line, even when upstream errors echo it', async () => {
    pair = await startPair({ UPSTREAM_KEY: 'enterprise-key:s3cret' });
    const key = 'enterprise-key:s3cret';
    const seen: string[] = [];
    const stream = new Stream(pair.relay.url, 'usd,eur');
    await stream.event();
    seen.push(JSON.stringify((await get(pair.relay.url, '/v1/prices?symbols=usd')).headers));
    for (const path of [
      '/v1/prices?symbols=usd,eur',
      '/v1/symbols',
      '/v1/history/usd?days=7',
      '/healthz',
      '/metrics',
      '/v1/nothing',
      '/v1/prices?symbols=zzz',
    ]) {
      const answer = await get(pair.relay.url, path);
      seen.push(answer.body, JSON.stringify(answer.headers));
    }
    // An upstream that answers with the key in its error body, and then refuses it.
    await control(pair.sandbox.url, 'faults', {
      rules: [{ path: '/v1/history', kind: 'status', status: 500, body: `bad key ${key}`, count: 1 }],
    });
    seen.push((await get(pair.relay.url, '/v1/history/eur?days=7')).body);
    await control(pair.sandbox.url, 'faults', {
      rules: [{ kind: 'status', status: 401, body: `{"error":{"code":"unauthorized","message":"${key}"}}` }],
    });
    seen.push((await get(pair.relay.url, '/v1/history/aed?days=7')).body);
    seen.push((await get(pair.relay.url, '/metrics')).body);
    stream.close();
    await until(() => stream.ended);
    seen.push(stream.raw);
    expect(pair.logs.length).toBeGreaterThan(2);
    for (const text of [...seen, ...pair.logs]) expect(text).not.toContain('s3cret');
  });
});

describe('connections', () => {
  it('caps the open connections of the process', async () => {
    pair = await startPair({ MAX_CONNECTIONS: '2' });
    const [a, b] = await twoStreams('127.0.22.1', '127.0.22.2');
    const c = usdFrom('127.0.22.3');
    await until(() => c.ended);
    expect(c.status).toBe(0);
    expect(pair.relay.metrics.value('relay_refused_total', { reason: 'connections' })).toBe(1);
    a.close();
    b.close();
  });

  it('closes a connection whose request does not arrive in time', async () => {
    pair = await startPair({}, { requestTimeoutMs: 300 });
    const { port } = new URL(pair.relay.url);
    const socket = connect({ host: '127.0.0.1', port: Number(port) });
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.write('GET /v1/prices?symbols=usd HTTP/1.1\r\nHost: relay\r\n'); // headers never finished
    await new Promise((resolve) => socket.on('close', resolve));
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });
});
