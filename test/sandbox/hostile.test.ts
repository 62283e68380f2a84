// The sandbox under hostile callers (issue 16): bounded per-key state, a per-key stream cap, and
// the faults that serve hostile input to the widget's tests (redirects, huge history, odd ids).
import { afterEach, describe, expect, it } from 'vitest';
import { call, control, SseClient, start, until, type StartedSandbox } from './helpers';

let s: StartedSandbox;
afterEach(async () => {
  await s?.close();
});

describe('per-key state', () => {
  it('keeps rate-limit counters for at most maxKeys keys, dropping the least recently used', async () => {
    s = await start({ maxKeys: 50 });
    for (let i = 0; i < 200; i++) expect((await call(s.url, '/v1/symbols', { key: `pro-key:k${i}` })).status).toBe(200);
    expect(s.sandbox.limiter.size).toBe(50);
  });

  it('still limits a key that stays in use', async () => {
    s = await start({ maxKeys: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push((await call(s.url, '/v1/symbols', { key: 'demo-key:busy' })).status);
      await call(s.url, '/v1/symbols', { key: `demo-key:other${i % 2}` });
    }
    expect(statuses.filter((x) => x === 429)).toHaveLength(2);
  });
});

describe('stream cap', () => {
  it('answers 429 too_many_streams beyond maxStreamsPerKey, per key, and frees a slot when one closes', async () => {
    s = await start({ maxStreamsPerKey: 2 });
    const a = await SseClient.open(s.url, 'usd', { key: 'pro-key:cap' });
    const b = await SseClient.open(s.url, 'usd', { key: 'pro-key:cap' });
    const refused = await call(s.url, '/v1/stream?symbols=usd', { key: 'pro-key:cap' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('too_many_streams');
    const other = await SseClient.open(s.url, 'usd', { key: 'pro-key:another' });
    a.close();
    await until(() => s.sandbox.streams.openCount === 2);
    const c = await SseClient.open(s.url, 'usd', { key: 'pro-key:cap' });
    for (const client of [b, c, other]) client.close();
  });
});

describe('hostile faults', () => {
  it('redirect: answers 307 with the Location given', async () => {
    s = await start();
    await control(s.url, 'faults', {
      rules: [{ kind: 'redirect', path: '/v1/prices', location: 'http://127.0.0.2:9/v1/prices' }],
    });
    const res = await fetch(`${s.url}/v1/prices?symbols=usd`, {
      headers: { 'X-API-Key': 'pro-key' },
      redirect: 'manual',
    });
    expect(res.status).toBe(307);
    expect(res.headers.get('location')).toBe('http://127.0.0.2:9/v1/prices');
  });

  it('huge_history: serves N [t, v] points spread over spanDays up to now', async () => {
    s = await start();
    await control(s.url, 'faults', {
      rules: [{ kind: 'huge_history', path: '/v1/history', points: 1000, spanDays: 347 }],
    });
    const body = (await (await call(s.url, '/v1/history/usd?days=7', { key: 'pro-key' })).json()) as {
      data: { points: number[][] };
    };
    const points = body.data.points;
    expect(points).toHaveLength(1000);
    expect((points[999]![0]! - points[0]![0]!) / 86_400).toBeCloseTo(347, 0);
  });

  it('push: sends an event with the id given, verbatim', async () => {
    s = await start();
    const client = await SseClient.open(s.url, 'usd', { key: 'pro-key' });
    await until(() => client.events.length > 0);
    const id = '۱۲۳'.repeat(10_000);
    await control(s.url, 'push', { event: 'ping', data: 'x', id });
    await until(() => client.events.some((e) => e.event === 'ping'));
    expect(client.events.find((e) => e.event === 'ping')!.id).toBe(id);
    client.close();
  });
});
