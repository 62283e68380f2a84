import { afterEach, describe, expect, it } from 'vitest';
import type { PriceBoardError } from '../../../src/shared/errors';
import type { FetchLike } from '../../../src/api/request';
import { pendingWork } from '../../helpers/pending-work';
import type { Quote } from '../../../src/shared/types';
import { LiveStream, MIN_RESUBSCRIBE_MS, type LiveStreamOptions, type StreamState } from '../../../src/live/stream';
import type { TestSandbox } from '../api/sandbox-control';
import { hearStream, useLiveSandbox } from './live-helpers';

let sb: TestSandbox;
let key: string;
let streams: LiveStream[] = [];

interface Recorder {
  quotes: Quote[];
  batches: number;
  states: StreamState[];
  errors: PriceBoardError[];
  stops: PriceBoardError[];
  unknown: string[][];
  headers: Record<string, string>[];
  connectedAt: number[];
  /** The abort signal of each connection, in order. */
  signals: AbortSignal[];
  /** Heartbeat comments (`: ping`) read on the first connection. */
  heartbeats: number;
}

function record(): Recorder {
  return {
    quotes: [],
    batches: 0,
    states: [],
    errors: [],
    stops: [],
    unknown: [],
    headers: [],
    connectedAt: [],
    signals: [],
    heartbeats: 0,
  };
}

function live(rec: Recorder, options: Partial<LiveStreamOptions> = {}, fetchHook?: FetchLike): LiveStream {
  const stream = new LiveStream({
    url: `${sb.url}/v1/stream`,
    symbols: ['usd', 'eur'],
    apiKey: key,
    fetch: (input, init) => {
      rec.headers.push({ ...(init.headers as Record<string, string>) });
      rec.connectedAt.push(Date.now());
      if (init.signal) rec.signals.push(init.signal);
      return (fetchHook ?? fetch)(input, init);
    },
    onEvent: hearStream(rec, (event) => {
      if (event.kind === 'quotes') rec.batches++;
      else if (event.kind === 'unknown') rec.unknown.push(event.symbols);
    }),
    ...options,
  });
  streams.push(stream);
  stream.start();
  return stream;
}

/** A `fetch` that counts the heartbeat comments of the first response into `rec.heartbeats`. */
function countingHeartbeats(rec: Recorder): FetchLike {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (!response.body || rec.connectedAt.length > 1) return response;
    const [mine, theirs] = response.body.tee();
    void (async () => {
      const decoder = new TextDecoder();
      const reader = mine.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          rec.heartbeats += decoder.decode(value, { stream: true }).split(': ping').length - 1;
        }
      } catch {
        /* the connection was closed */
      }
    })();
    return new Response(theirs, response);
  };
}

useLiveSandbox('stream', (sandbox, fresh) => ([sb, key] = [sandbox, fresh]));
afterEach(async () => {
  for (const s of streams) s.close();
  streams = [];
  await expect.poll(() => pendingWork()).toEqual({ timers: 0, requests: 0 });
});

describe('LiveStream', () => {
  it('delivers the snapshot, then a quote event per change', async () => {
    const rec = record();
    live(rec);
    await expect.poll(() => rec.batches).toBe(1);
    expect(rec.quotes.map((q) => q.symbol)).toEqual(['usd', 'eur']);
    expect(rec.states).toEqual(['open']);
    await sb.market({ set: [{ symbol: 'usd', price: '1111110' }] });
    await expect.poll(() => rec.batches).toBe(2);
    expect(rec.quotes[2]).toMatchObject({ symbol: 'usd', price: '1111110', price_toman: '111111' });
  });

  it('reconnects after a dropped connection and resumes with Last-Event-ID: no event missed', async () => {
    await sb.faults([{ path: '/v1/stream', kind: 'drop_stream', afterEvents: 2, count: 1 }]);
    let release = (): void => {};
    const gate = new Promise<void>((r) => (release = r));
    let calls = 0;
    const rec = record();
    const stream = live(rec, {}, async (input, init) => {
      // Hold the reconnect so that a change happens while disconnected.
      if (++calls === 2) await gate;
      return fetch(input, init);
    });
    await expect.poll(() => rec.batches).toBe(1);
    await sb.market({ set: [{ symbol: 'usd', price: '1000010' }] });
    await expect.poll(() => rec.states.at(-1)).toBe('reconnecting');
    const idBeforeDrop = stream.resumePoint?.id;
    await sb.market({ set: [{ symbol: 'eur', price: '1300000' }] });
    release();
    await expect.poll(() => rec.quotes.some((q) => q.symbol === 'eur' && q.price === '1300000')).toBe(true);
    expect(rec.headers[1]?.['Last-Event-ID']).toBe(idBeforeDrop);
    expect(rec.headers[0]?.['Last-Event-ID']).toBeUndefined();
    expect(rec.states).toEqual(['open', 'reconnecting', 'open']);
    expect(rec.errors.map((e) => e.code)).toEqual(['network']);
    expect((await sb.stats()).streamsOpened).toBe(2);
  });

  it('ignores unknown event names', async () => {
    const rec = record();
    live(rec);
    await expect.poll(() => rec.batches).toBe(1);
    await sb.push({ event: 'news', data: { quotes: [] } });
    await sb.push({ event: 'message', data: 'hello' });
    await sb.market({ set: [{ symbol: 'eur', price: '1250000' }] });
    await expect.poll(() => rec.batches).toBe(2);
    expect(rec.errors).toEqual([]);
    expect((await sb.stats()).streamsOpened).toBe(1);
  });

  it('reports malformed event data once and keeps the connection', async () => {
    const rec = record();
    live(rec);
    await expect.poll(() => rec.batches).toBe(1);
    await sb.push({ event: 'quote', data: '{not json' });
    await sb.push({ event: 'quote', data: { symbol: 'usd', price: 'lots' } });
    await sb.push({ event: 'quotes', data: { at: 'x', quotes: 'none' } });
    await sb.market({ set: [{ symbol: 'eur', price: '1250000' }] });
    await expect.poll(() => rec.batches).toBe(2);
    expect(rec.errors.map((e) => e.code)).toEqual(['bad_response']);
    expect((await sb.stats()).streamsOpened).toBe(1);
    expect(rec.states).toEqual(['open']);
  });

  it('heartbeats keep the watchdog quiet', async () => {
    const rec = record();
    // Heartbeats every 200 ms; 8 of them on the first connection span more than the watchdog's 1 s,
    // which would have cut it (and so ended the count) after 1 s of silence.
    live(rec, { watchdogMs: 1_000 }, countingHeartbeats(rec));
    await expect.poll(() => rec.heartbeats, { timeout: 5_000 }).toBeGreaterThanOrEqual(8);
    expect(rec.errors).toEqual([]);
    expect(rec.signals[0]?.aborted).toBe(false);
    expect((await sb.stats()).streamsOpened).toBe(1);
  });

  it('silence longer than the watchdog is a dead connection: it reconnects', async () => {
    const rec = record();
    // Heartbeats come every 200 ms; 80 ms of silence already counts as dead here.
    live(rec, { watchdogMs: 80 });
    await expect.poll(() => rec.errors.length).toBeGreaterThan(0);
    expect(rec.errors[0]?.code).toBe('timeout');
    await expect.poll(async () => (await sb.stats()).streamsOpened).toBeGreaterThan(1);
  });

  it('a connection that never answers is cut by the watchdog too', async () => {
    await sb.faults([{ path: '/v1/stream', kind: 'hang', count: 1 }]);
    const rec = record();
    live(rec, { watchdogMs: 150, initialRetryMs: 100 });
    await expect.poll(() => rec.batches).toBe(1);
    expect(rec.errors.map((e) => e.code)).toEqual(['timeout']);
  });

  it('stops on 401 without a retry loop', async () => {
    const rec = record();
    key = 'bad-key';
    live(rec);
    await expect.poll(() => rec.stops.length).toBe(1);
    // Nothing pending: no retry can come later.
    await expect.poll(() => pendingWork()).toEqual({ timers: 0, requests: 0 });
    expect(rec.stops[0]).toMatchObject({ code: 'unauthorized', status: 401 });
    expect((await sb.requests('/v1/stream', 'bad-key')).length).toBe(1);
    expect(rec.states).toEqual(['stopped']);
  });

  it('stops on 403', async () => {
    const rec = record();
    key = 'restricted-key';
    live(rec);
    await expect.poll(() => rec.stops.length).toBe(1);
    expect(rec.stops[0]?.code).toBe('forbidden');
  });

  it('waits out Retry-After on 429', async () => {
    await sb.faults([{ path: '/v1/stream', kind: 'rate_limit', retryAfter: 1, count: 1 }]);
    const rec = record();
    live(rec);
    await expect.poll(() => rec.batches, { timeout: 8_000 }).toBe(1);
    expect(rec.errors.map((e) => e.code)).toEqual(['rate_limited']);
    expect(rec.connectedAt[1]! - rec.connectedAt[0]!).toBeGreaterThanOrEqual(950);
  });

  it('backs off on 5xx with growing delays', async () => {
    await sb.faults([{ path: '/v1/stream', kind: 'status', status: 503, count: 3 }]);
    const rec = record();
    live(rec, { random: () => 1, initialRetryMs: 100 });
    await expect.poll(() => rec.batches, { timeout: 8_000 }).toBe(1);
    const gaps = rec.connectedAt.slice(1).map((t, i) => t - rec.connectedAt[i]!);
    // No `retry:` before the first open: 100, 200, 400 ms.
    expect(gaps[0]).toBeGreaterThanOrEqual(95);
    expect(gaps[1]).toBeGreaterThanOrEqual(195);
    expect(gaps[2]).toBeGreaterThanOrEqual(395);
    expect(rec.states).toEqual(['reconnecting', 'open']);
  });

  it('drops ids the service rejects and carries on with the rest', async () => {
    const rec = record();
    live(rec, { symbols: ['usd', 'zzz'] });
    await expect.poll(() => rec.batches).toBe(1);
    expect(rec.unknown).toEqual([['zzz']]);
    expect(rec.quotes.map((q) => q.symbol)).toEqual(['usd']);
  });

  it('reconnects when symbols are added, not when some are removed', async () => {
    const rec = record();
    const stream = live(rec);
    await expect.poll(() => rec.batches).toBe(1);
    stream.setSymbols(['usd']);
    // A reconnect would abort the connection right here, in setSymbols.
    expect(rec.signals.map((s) => s.aborted)).toEqual([false]);
    expect((await sb.stats()).streamsOpened).toBe(1);
    stream.setSymbols(['usd', 'gold_18']);
    await expect.poll(() => rec.quotes.some((q) => q.symbol === 'gold_18')).toBe(true);
    const urls = (await sb.requests('/v1/stream', key)).map((r) => r.url);
    expect(urls).toEqual(['/v1/stream?symbols=usd,eur', '/v1/stream?symbols=usd,gold_18']);
    expect(rec.states).toEqual(['open']);
    expect(rec.errors).toEqual([]);
  });

  it('a burst of symbol changes makes one reconnect, with every symbol of the burst', async () => {
    const rec = record();
    const stream = live(rec, { symbols: ['usd'] });
    await expect.poll(() => rec.batches).toBe(1);
    const added = ['eur', 'gbp', 'aed', 'try', 'gold_18', 'coin_emami', 'cny', 'chf'];
    for (const [i, symbol] of added.entries()) stream.setSymbols(['usd', ...added.slice(0, i), symbol]);
    await expect.poll(() => rec.quotes.some((q) => q.symbol === 'chf')).toBe(true);
    const urls = (await sb.requests('/v1/stream', key)).map((r) => r.url);
    expect(urls).toEqual(['/v1/stream?symbols=usd', `/v1/stream?symbols=usd,${added.join(',')}`]);
  });

  it('symbols changed again as soon as each connection is asked for: a reconnect at most every MIN_RESUBSCRIBE_MS', async () => {
    const rec = record();
    // A page that changes its symbols again the moment each connection goes out (a tab mounting
    // boards in a loop), three times, the last for eur.
    const changes = [
      ['usd', 'gbp'],
      ['usd', 'aed'],
      ['usd', 'eur'],
    ];
    const stream: LiveStream = live(rec, { symbols: ['usd'] }, (input, init) => {
      const next = changes.shift();
      if (next) queueMicrotask(() => stream.setSymbols(next));
      return fetch(input, init);
    });
    await expect.poll(() => rec.quotes.some((q) => q.symbol === 'eur'), { timeout: 15_000 }).toBe(true);
    expect(rec.connectedAt).toHaveLength(4);
    // Each reconnect came MIN_RESUBSCRIBE_MS after the connection it replaced was made, or later
    // (less the clock's and timers' millisecond rounding): the old stream reconnected at once.
    const gaps = rec.connectedAt.slice(1).map((at, i) => at - rec.connectedAt[i]!);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(MIN_RESUBSCRIBE_MS - 5);
    expect(rec.errors).toEqual([]);
  });

  it('leaves no connection or timer after close', async () => {
    const rec = record();
    const stream = live(rec);
    await expect.poll(() => rec.batches).toBe(1);
    stream.close();
    await expect.poll(async () => (await sb.stats()).openStreams).toBe(0);
    await expect.poll(() => pendingWork()).toEqual({ timers: 0, requests: 0 });
  });
});
