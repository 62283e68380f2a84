// Issue 16, items 4-6 in Node against the sandbox: event ids that cannot be sent back, and quotes
// for symbols nobody asked for.
import { afterEach, describe, expect, it } from 'vitest';
import { subscribe, type Subscription } from '../../../src/live/hub';
import { LiveStream, MAX_EVENT_ID_CHARS, type StreamState } from '../../../src/live/stream';
import type { PriceBoardError } from '../../../src/shared/errors';
import type { Quote } from '../../../src/shared/types';
import { pendingWork } from '../../helpers/pending-work';
import type { TestSandbox } from '../api/sandbox-control';
import { hearStream, useLiveSandbox } from './live-helpers';

let sb: TestSandbox;
let key: string;
const closers: (() => void)[] = [];

useLiveSandbox('hostile', (sandbox, fresh) => ([sb, key] = [sandbox, fresh]));
afterEach(async () => {
  for (const close of closers.splice(0)) close();
  await expect.poll(() => pendingWork()).toEqual({ timers: 0, requests: 0 });
});

function stream() {
  const rec = {
    quotes: [] as Quote[],
    states: [] as StreamState[],
    errors: [] as PriceBoardError[],
    stops: [] as PriceBoardError[],
    headers: [] as Record<string, string>[],
    batches: 0,
  };
  const live = new LiveStream({
    url: `${sb.url}/v1/stream`,
    symbols: ['usd'],
    apiKey: key,
    fetch: (input, init) => {
      rec.headers.push({ ...(init.headers as Record<string, string>) });
      return fetch(input, init);
    },
    onEvent: hearStream(rec, (event) => event.kind === 'quotes' && rec.batches++),
  });
  closers.push(() => live.close());
  live.start();
  return { live, rec };
}

describe('event ids that cannot be sent back', () => {
  for (const [name, id] of [
    ['Persian digits (not Latin-1: fetch refuses the header)', '۱۲۳۴'],
    ['1 MB (the sandbox, like nginx, refuses the oversized header)', '7'.repeat(1_000_000)],
  ] as const) {
    it(`survives an id of ${name}: reconnects without Last-Event-ID and gets a snapshot`, async () => {
      await sb.faults([{ path: '/v1/stream', key, kind: 'drop_stream', afterEvents: 2, count: 1 }]);
      const { live, rec } = stream();
      await expect.poll(() => rec.batches).toBe(1);
      await sb.push({ event: 'ping', data: 'x', id });
      await expect.poll(() => rec.batches).toBe(2); // the snapshot of the second connection
      expect(rec.headers).toHaveLength(2);
      expect(rec.headers[1]!['Last-Event-ID']).toBeUndefined();
      expect(live.resumePoint?.id).toMatch(/^\d+$/);
      expect(rec.stops).toEqual([]);
      expect(rec.states.at(-1)).toBe('open');
      expect((await sb.requests('/v1/stream', key)).map((r) => r.status)).toEqual([200, 200]);
    });
  }

  it(`keeps a printable id of up to ${MAX_EVENT_ID_CHARS} characters and resumes with it`, async () => {
    await sb.faults([{ path: '/v1/stream', key, kind: 'drop_stream', afterEvents: 2, count: 1 }]);
    const id = 'a'.repeat(MAX_EVENT_ID_CHARS);
    const { rec } = stream();
    await expect.poll(() => rec.batches).toBe(1);
    await sb.push({ event: 'ping', data: 'x', id });
    await expect.poll(() => rec.headers.length).toBe(2);
    expect(rec.headers[1]!['Last-Event-ID']).toBe(id);
  });
});

describe('a poison event (over the 4 MB event limit) after a valid snapshot', () => {
  it('keeps backing off instead of reconnecting at the base delay for ever', async () => {
    await sb.faults([{ path: '/v1/stream', key, kind: 'poison_stream' }]);
    const at: number[] = [];
    const live = new LiveStream({
      url: `${sb.url}/v1/stream`,
      symbols: ['usd'],
      apiKey: key,
      random: () => 1,
      fetch: (input, init) => {
        at.push(performance.now());
        return fetch(input, init);
      },
      onEvent: () => {},
    });
    closers.push(() => live.close());
    live.start();
    await expect.poll(() => at.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(6);
    // The sandbox's retry: is 50 ms; doubling per poisoned connection, the 5th wait is 50 × 2^4 ms
    // at least (a timer never fires early). Before, every wait was 50 ms.
    expect(at[5]! - at[4]!).toBeGreaterThanOrEqual(800);
  });
});

describe('quotes for symbols nobody asked for', () => {
  it('are dropped unread: only subscribed symbols reach the store and the listeners', async () => {
    const got: Quote[] = [];
    const sub: Subscription = subscribe(
      { baseUrl: sb.url, apiKey: key, stream: 'sse', pollInterval: 30 },
      ['usd'],
      (e) => {
        if (e.kind === 'quotes') got.push(...e.quotes);
      },
    );
    closers.push(() => sub.close());
    await expect.poll(async () => (await sb.stats()).openStreams).toBe(1);
    const at = new Date().toISOString();
    const junk = (i: number): Quote => ({
      symbol: `x${i}`,
      title: 't',
      category: 'currency',
      unit: 'rial',
      price: '1',
      price_toman: '0.1',
      change_pct: '0',
      high: '1',
      low: '1',
      updated_at: at,
    });
    const quotes = [...Array.from({ length: 5_000 }, (_, i) => junk(i)), { ...junk(0), symbol: 'eur' }];
    await sb.push({ event: 'quotes', data: { at, quotes } });
    await sb.market({ set: [{ symbol: 'usd', price: '1234560' }] });
    await expect.poll(() => got.some((q) => q.price === '1234560')).toBe(true);
    expect(got.filter((q) => q.symbol !== 'usd')).toEqual([]);
    // A later board on the same hub asking for one of them is not handed the unrequested quote.
    const late: Quote[] = [];
    const sub2 = subscribe({ baseUrl: sb.url, apiKey: key, stream: 'sse', pollInterval: 30 }, ['eur'], (e) => {
      if (e.kind === 'quotes') late.push(...e.quotes);
    });
    closers.push(() => sub2.close());
    await expect.poll(() => late.length).toBeGreaterThan(0);
    expect(late.every((q) => q.symbol === 'eur')).toBe(true);
    expect(late[0]!.price).not.toBe('1'); // the service's answer, not the pushed quote nobody asked for
  });
});
