import { afterEach, describe, expect, it } from 'vitest';
import { pendingWork } from '../../helpers/pending-work';
import {
  flushSubscriptions,
  hubCount,
  startFrom,
  subscribe,
  type HubOptions,
  type Subscription,
} from '../../../src/live/hub';
import type { Quote } from '../../../src/shared/types';
import { firstPricesUrl } from '../../../src/live/connection';
import { ManualOnline, ManualVisibility } from '../../helpers/manual-sources';
import type { TestSandbox } from '../api/sandbox-control';
import { HubRecorder as Recorder, useLiveSandbox } from './live-helpers';

let sb: TestSandbox;
let key: string;
let subs: Subscription[] = [];

function options(extra: Partial<HubOptions> = {}): HubOptions {
  return { baseUrl: sb.url, apiKey: key, stream: 'sse', pollInterval: 30, watchdogMs: 5_000, ...extra };
}

function sub(symbols: string[], rec: Recorder, extra: Partial<HubOptions> = {}): Subscription {
  const s = subscribe(options(extra), symbols, rec.listen);
  subs.push(s);
  return s;
}

/** Quick retries, so that no test waits out the production backoff (2 retries, 0.5 s base; 2 s base for the fetcher's). */
const QUICK = {
  retry: { retries: 2, baseMs: 1, maxMs: 1 },
  fetchRetry: { baseMs: 1, maxMs: 1 },
} satisfies Partial<HubOptions>;

/** A `fetch` that records each request (URL and signal) the moment it is sent. */
function recordingFetch(): {
  fetch: NonNullable<HubOptions['fetch']>;
  sent: { url: string; signal: AbortSignal | null | undefined }[];
} {
  const sent: { url: string; signal: AbortSignal | null | undefined }[] = [];
  return {
    sent,
    fetch: (input, init) => {
      const url = new URL(input);
      sent.push({ url: url.pathname + url.search, signal: init.signal });
      return globalThis.fetch(input, init);
    },
  };
}

/** A `fetch` that holds requests to `path` until `release()`; others go out at once. */
function holding(path: string): { fetch: NonNullable<HubOptions['fetch']>; release: () => void } {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    release,
    fetch: async (input, init) => {
      if (new URL(input).pathname === path) await released;
      return globalThis.fetch(input, init);
    },
  };
}

/** Resolves once no timer or request of the data layer is pending: from then on nothing more can happen. */
const settled = (): Promise<void> =>
  expect.poll(() => pendingWork(), { timeout: 5_000 }).toEqual({ timers: 0, requests: 0 });
const prices = async (): Promise<string[]> => (await sb.requests('/v1/prices', key)).map((r) => r.url);
const streamUrls = async (): Promise<string[]> => (await sb.requests('/v1/stream', key)).map((r) => r.url);

useLiveSandbox('hub', (sandbox, fresh) => ([sb, key] = [sandbox, fresh]));
afterEach(async () => {
  for (const s of subs) s.close();
  subs = [];
  await expect.poll(() => hubCount()).toBe(0);
  await expect.poll(() => pendingWork()).toEqual({ timers: 0, requests: 0 });
  await expect.poll(async () => (await sb.stats()).openStreams).toBe(0);
});

describe('hub sharing', () => {
  it('serves subscribers of one tick with one prices request and one stream for the union', async () => {
    const a = new Recorder();
    const b = new Recorder();
    const c = new Recorder();
    sub(['usd', 'eur'], a);
    sub(['EUR', ' gold_18 '], b);
    sub(['usd'], c);
    expect(hubCount()).toBe(1);
    await expect.poll(() => [a.last, b.last, c.last]).toEqual(['live', 'live', 'live']);
    expect(await prices()).toEqual(['/v1/prices?symbols=usd,eur,gold_18']);
    expect(await streamUrls()).toEqual(['/v1/stream?symbols=usd,eur,gold_18']);
    expect((await sb.stats()).streamsOpened).toBe(1);
    expect(a.statuses[0]).toBe('loading');
    expect(new Set(a.symbols)).toEqual(new Set(['usd', 'eur']));
    expect(new Set(b.symbols)).toEqual(new Set(['eur', 'gold_18']));
    expect(new Set(c.symbols)).toEqual(new Set(['usd']));
    // The answer's delay reaches the subscriber, whether the answer or the stream's snapshot came first.
    await expect.poll(() => a.metas.at(-1)?.delaySeconds).toBe(0);
    expect((await sb.stats()).keyInUrl).toBe(0);
  });

  it('flushSubscriptions sends the one request of the subscriptions made so far at once', async () => {
    const sent: string[] = [];
    const fetch: HubOptions['fetch'] = (input, init) => {
      const url = new URL(input);
      sent.push(url.pathname + url.search);
      return globalThis.fetch(input, init);
    };
    const a = new Recorder();
    const b = new Recorder();
    sub(['usd'], a, { fetch, stream: 'off' });
    sub(['eur'], b, { fetch, stream: 'off' });
    expect(sent).toEqual([]); // batched: nothing sent while subscribing
    flushSubscriptions();
    expect(sent).toEqual(['/v1/prices?symbols=usd,eur']); // sent now, not in a later microtask
    flushSubscriptions(); // nothing queued: nothing more
    await expect.poll(() => [a.symbols, b.symbols]).toEqual([['usd'], ['eur']]);
    expect(sent).toEqual(['/v1/prices?symbols=usd,eur']);
    expect(await prices()).toEqual(['/v1/prices?symbols=usd,eur']);
  });

  it('gives a later subscriber the known quotes at once, without a new request', async () => {
    const { fetch, sent } = recordingFetch();
    const a = new Recorder();
    sub(['usd', 'eur'], a, { fetch });
    await expect.poll(() => a.last).toBe('live');
    expect(sent.map((r) => r.url)).toEqual(['/v1/prices?symbols=usd,eur', '/v1/stream?symbols=usd,eur']);
    const b = new Recorder();
    sub(['eur'], b);
    // A request for b would leave in this flush (see the test above): none does, the stream stays.
    flushSubscriptions();
    expect(b.symbols).toEqual(['eur']);
    expect(b.statuses).toEqual(['live']);
    expect(b.metas[0]?.delaySeconds).toBe(0);
    expect(sent).toHaveLength(2);
    expect(sent[1]?.signal?.aborted).toBe(false);
    expect(await prices()).toHaveLength(1);
    expect((await sb.stats()).streamsOpened).toBe(1);
  });

  it("tells the answer's delay when the stream's snapshot came first and the answer changes nothing", async () => {
    const { fetch, release } = holding('/v1/prices');
    const a = new Recorder();
    sub(['usd', 'eur'], a, { fetch });
    // The rows from the stream's snapshot, the prices answer held back.
    await expect.poll(() => [a.price('usd'), a.price('eur')].every((p) => p !== undefined)).toBe(true);
    expect(a.metas.every((m) => m.delaySeconds === undefined)).toBe(true);
    const delivered = a.metas.length;
    release();
    await expect.poll(() => a.metas.at(-1)?.delaySeconds).toBe(0);
    // Told once, with the quotes held (the answer's are the same).
    expect(a.metas).toHaveLength(delivered + 1);
    expect(new Set(a.symbols)).toEqual(new Set(['usd', 'eur']));
  });

  it('reopens the stream only when the union grows', async () => {
    const { fetch, sent } = recordingFetch();
    const a = new Recorder();
    const b = new Recorder();
    sub(['usd'], a, { fetch });
    const sb2 = sub(['usd', 'eur'], b);
    await expect.poll(() => a.last).toBe('live');
    const stream = sent.find((r) => r.url.startsWith('/v1/stream'));
    sb2.close();
    // The union shrinks in this flush; a reopen would abort the open stream right here.
    flushSubscriptions();
    expect(stream?.signal?.aborted).toBe(false);
    expect(sent.filter((r) => r.url.startsWith('/v1/stream'))).toHaveLength(1);
    expect((await sb.stats()).streamsOpened).toBe(1);
    const c = new Recorder();
    const subC = sub(['gold_18'], c);
    await expect.poll(() => c.symbols).toEqual(['gold_18']);
    await expect.poll(async () => (await sb.stats()).streamsOpened).toBe(2);
    expect((await streamUrls()).at(-1)).toBe('/v1/stream?symbols=usd,gold_18');
    expect((await prices()).at(-1)).toBe('/v1/prices?symbols=gold_18');
    subC.setSymbols(['gold_18', 'coin_emami']);
    await expect.poll(() => c.symbols.includes('coin_emami')).toBe(true);
    await expect.poll(async () => (await streamUrls()).at(-1)).toBe('/v1/stream?symbols=usd,gold_18,coin_emami');
    await sb.market({ set: [{ symbol: 'usd', price: '1010100' }] });
    await expect.poll(() => a.price('usd')).toBe('1010100');
    expect(c.symbols).not.toContain('usd');
  });

  it('closes the stream and every timer when the last subscriber leaves', async () => {
    const a = new Recorder();
    const b = new Recorder();
    const { fetch, sent } = recordingFetch();
    const sa = sub(['usd'], a, { fetch });
    const sbb = sub(['eur'], b);
    await expect.poll(async () => (await sb.stats()).openStreams).toBe(1);
    sa.close();
    // The hub would close in this flush (or the microtask after a last close): it stays, stream open.
    flushSubscriptions();
    await Promise.resolve();
    expect(hubCount()).toBe(1);
    expect(sent.find((r) => r.url.startsWith('/v1/stream'))?.signal?.aborted).toBe(false);
    await sb.market({ set: [{ symbol: 'eur', price: '1300000' }] });
    await expect.poll(() => b.price('eur')).toBe('1300000');
    expect((await sb.stats()).openStreams).toBe(1);
    sbb.close();
    await expect.poll(() => hubCount()).toBe(0);
    await expect.poll(async () => (await sb.stats()).openStreams).toBe(0);
    await expect.poll(() => pendingWork()).toEqual({ timers: 0, requests: 0 });
    const before = a.batches.length + b.batches.length;
    // No stream is left to carry a change: the sandbox writes it to none.
    const pushed = await sb.push({ event: 'quote', data: { symbol: 'usd', price: '1010100' } });
    expect(pushed.streams).toBe(0);
    expect(a.batches.length + b.batches.length).toBe(before);
  });

  it('keeps the hub when a subscriber leaves and another comes in the same tick', async () => {
    const a = new Recorder();
    const sa = sub(['usd'], a);
    await expect.poll(() => a.last).toBe('live');
    sa.close();
    const b = new Recorder();
    sub(['usd'], b);
    await expect.poll(() => b.symbols).toEqual(['usd']);
    expect((await sb.stats()).streamsOpened).toBe(1);
  });

  it('refresh re-fetches the union once, shared', async () => {
    const a = new Recorder();
    const b = new Recorder();
    const sa = sub(['usd'], a);
    const sbb = sub(['eur'], b);
    await expect.poll(() => a.last).toBe('live');
    await Promise.all([sa.refresh(), sbb.refresh()]);
    expect(await prices()).toEqual(['/v1/prices?symbols=usd,eur', '/v1/prices?symbols=usd,eur']);
  });
});

describe('hub live updates', () => {
  it('delivers stream changes and corrections, and never lets an older or duplicate quote through', async () => {
    const a = new Recorder();
    sub(['usd', 'eur'], a);
    await expect.poll(() => a.last).toBe('live');
    const newer = new Date(Date.now() + 60_000).toISOString();
    await sb.market({ set: [{ symbol: 'usd', price: '1200000', updated_at: newer }] });
    await expect.poll(() => a.price('usd')).toBe('1200000');
    const seen = a.batches.length;
    const current = a.batches.at(-1)![0]!;
    await sb.push({
      event: 'quote',
      data: { ...current, price: '900000', updated_at: new Date(Date.now() - 60_000).toISOString() },
    });
    await sb.push({ event: 'quotes', data: { at: newer, quotes: [current] } });
    await sb.push({ event: 'mystery', data: { symbol: 'usd' } });
    await sb.market({ set: [{ symbol: 'eur', price: '1300000' }] });
    await expect.poll(() => a.price('eur')).toBe('1300000');
    expect(a.batches.length).toBe(seen + 1);
    expect(a.price('usd')).toBe('1200000');
    // The same updated_at with other content is the service's correction: applied (DESIGN.md §7.1, §12).
    await sb.push({ event: 'quote', data: { ...current, price: '950000' } });
    await expect.poll(() => a.price('usd')).toBe('950000');
    expect(a.errors).toEqual([]);
  });

  it('holds corrections in the one store every subscriber reads, from quote events and snapshots alike', async () => {
    const a = new Recorder();
    const b = new Recorder();
    const sa = sub(['usd', 'gold_18'], a);
    const sbb = sub(['gold_18', 'coin_emami'], b);
    await expect.poll(() => [a.last, b.last]).toEqual(['live', 'live']);
    const usd = sa.get('usd')!;
    const gold = sa.get('gold_18')!;
    const coin = sbb.get('coin_emami')!;
    expect(sbb.get('gold_18')).toBe(gold); // one store, not a copy per subscriber
    expect(sbb.get('usd')).toBeUndefined(); // not one of b's symbols
    await sb.push({ event: 'quote', data: { ...usd, price: '1234560', high: '1234560' } });
    await sb.push({
      event: 'quotes',
      data: { at: new Date().toISOString(), quotes: [{ ...gold, price: '7654320' }, { ...coin }] },
    });
    await expect
      .poll(() => [a.price('usd'), a.price('gold_18'), b.price('gold_18')])
      .toEqual(['1234560', '7654320', '7654320']);
    expect(sa.get('usd')).toMatchObject({ price: '1234560', high: '1234560', updated_at: usd.updated_at });
    expect(sbb.get('gold_18')).toMatchObject({ price: '7654320', updated_at: gold.updated_at });
    // The repeat of coin_emami's quote changed nothing: b had it once, from the first answer.
    expect(b.batches.flat().filter((q) => q.symbol === 'coin_emami')).toHaveLength(1);
    expect(sbb.get('coin_emami')).toEqual(coin);
  });

  it('asks first for exactly the URL a page preloads (firstPricesUrl): the symbols in their order', async () => {
    const { fetch, sent } = recordingFetch();
    const symbols = [' Gold_18', 'usd', 'bad id!', 'eur', 'usd'];
    sub(symbols, new Recorder(), { fetch, apiKey: undefined, stream: 'off' });
    flushSubscriptions();
    expect(sent.map((r) => r.url)).toEqual(['/v1/prices?symbols=gold_18,usd,eur']);
    expect(firstPricesUrl(sb.url, symbols)).toBe(`${sb.url}/v1/prices?symbols=gold_18,usd,eur`);
    await settled();
  });

  it('shows reconnecting after a dropped stream, then live again without missing a change', async () => {
    await sb.faults([{ path: '/v1/stream', kind: 'drop_stream', afterEvents: 2, count: 1 }]);
    const a = new Recorder();
    sub(['usd', 'eur'], a);
    await expect.poll(() => a.last).toBe('live');
    await sb.market({ set: [{ symbol: 'usd', price: '1000010' }] });
    await expect.poll(() => a.statuses.includes('reconnecting')).toBe(true);
    await sb.market({ set: [{ symbol: 'eur', price: '1300000' }] });
    await expect.poll(() => a.price('eur')).toBe('1300000');
    expect(a.price('usd')).toBe('1000010');
    expect(a.statuses).toEqual(['loading', 'live', 'reconnecting', 'live']);
    expect(a.errors).toEqual([]);
  });

  it('reports malformed stream data once as bad_response and stays live', async () => {
    const a = new Recorder();
    sub(['usd'], a);
    await expect.poll(() => a.last).toBe('live');
    await sb.push({ event: 'quote', data: '{oops' });
    await sb.push({ event: 'quote', data: '{oops' });
    await expect.poll(() => a.errors.map((e) => e.code)).toEqual(['bad_response']);
    expect(a.errors[0]?.messageFa).toMatch(/[\u0600-\u06FF]/);
    expect(a.last).toBe('live');
  });
});

describe('hub errors and missing symbols', () => {
  it('stops everything on 401 and tells every listener, in Persian', async () => {
    key = 'no-such-key';
    const a = new Recorder();
    const b = new Recorder();
    sub(['usd'], a);
    sub(['eur'], b);
    await expect.poll(() => [a.last, b.last]).toEqual(['error', 'error']);
    // Nothing pending any more: no retry can come later.
    await settled();
    expect(a.errors.map((e) => e.code)).toEqual(['unauthorized']);
    expect(b.errors.map((e) => e.code)).toEqual(['unauthorized']);
    expect(a.errors[0]?.messageFa).toMatch(/[\u0600-\u06FF]/);
    const log = await sb.requests('/v1', 'no-such-key');
    expect(log.length).toBeLessThanOrEqual(2);
    expect(pendingWork().timers).toBe(0);
  });

  it('gives a late subscriber of a failed hub the error at once', async () => {
    key = 'restricted-key';
    const a = new Recorder();
    sub(['usd'], a);
    await expect.poll(() => a.last).toBe('error');
    const b = new Recorder();
    sub(['usd'], b);
    await expect.poll(() => b.errors.map((e) => e.code)).toEqual(['forbidden']);
    expect(b.statuses).toEqual(['error']);
  });

  it('marks unknown symbols missing, tells only their subscribers, and keeps the rest live', async () => {
    const a = new Recorder();
    const b = new Recorder();
    sub(['usd', 'zzz'], a);
    sub(['eur'], b);
    await expect.poll(() => [a.last, b.last]).toEqual(['live', 'live']);
    expect(a.missings).toEqual([['zzz']]);
    expect(a.errors).toMatchObject([{ code: 'unknown_symbol', data: { symbols: ['zzz'] } }]);
    expect(b.missings).toEqual([]);
    expect(b.errors).toEqual([]);
    expect(a.symbols).toEqual(['usd']);
    expect(await prices()).toEqual(['/v1/prices?symbols=usd,zzz,eur', '/v1/prices?symbols=usd,eur']);
    // Never asked for again.
    const c = new Recorder();
    sub(['zzz'], c);
    await expect.poll(() => c.missings).toEqual([['zzz']]);
    expect(c.errors).toMatchObject([{ code: 'unknown_symbol', data: { symbols: ['zzz'] } }]);
    expect(await prices()).toHaveLength(2);
  });

  it('treats a malformed id as unknown without asking the service for it', async () => {
    const a = new Recorder();
    sub(['usd', 'us d', 'eur;drop'], a);
    await expect.poll(() => a.last).toBe('live');
    expect(a.missings).toEqual([['us d', 'eur;drop']]);
    expect(a.errors).toMatchObject([{ code: 'unknown_symbol', data: { symbols: ['us d', 'eur;drop'] } }]);
    expect(await prices()).toEqual(['/v1/prices?symbols=usd']);
    expect(await streamUrls()).toEqual(['/v1/stream?symbols=usd']);
  });

  // The answer and the stream's snapshot race; each order is forced by holding the other's request.
  it('marks a symbol the answer left out as missing, until the stream brings it', async () => {
    await sb.faults([{ path: '/v1/prices', kind: 'omit_symbol', symbol: 'eur' }]);
    const held = holding('/v1/stream');
    const a = new Recorder();
    sub(['usd', 'eur'], a, { fetch: held.fetch });
    await expect.poll(() => a.missings).toEqual([['eur']]);
    expect(a.symbols).toEqual(['usd']);
    held.release();
    await expect.poll(() => a.missings).toEqual([['eur'], []]);
    expect(a.symbols).toContain('eur');
  });

  it('does not mark missing a symbol the stream brought before the answer left it out', async () => {
    // The stream leaves gbp out, so gbp's quote shows that the answer has been applied.
    await sb.faults([
      { path: '/v1/prices', kind: 'omit_symbol', symbol: 'eur' },
      { path: '/v1/stream', kind: 'omit_symbol', symbol: 'gbp' },
    ]);
    const held = holding('/v1/prices');
    const a = new Recorder();
    sub(['usd', 'eur', 'gbp'], a, { fetch: held.fetch });
    await expect.poll(() => a.symbols).toContain('eur');
    held.release();
    await expect.poll(() => a.symbols).toContain('gbp');
    expect(a.missings.flat()).toEqual([]);
    expect(await prices()).toHaveLength(1);
  });

  it('skips refresh during a Retry-After and reports rate_limited once', async () => {
    await sb.faults([{ path: '/v1/prices', kind: 'rate_limit', retryAfter: 30, count: 1 }]);
    const a = new Recorder();
    const s = sub(['usd'], a, { stream: 'off' });
    await expect.poll(() => a.errors.map((e) => e.code)).toEqual(['rate_limited']);
    await s.refresh();
    await s.refresh();
    expect(await prices()).toHaveLength(1);
    expect(a.last).toBe('loading');
  });

  it('signals recovered once a prices request succeeds after a reported error, with no price changed', async () => {
    // The client retries a 5xx twice: three 500s fail one fetch, the fetcher's own retry succeeds.
    await sb.faults([{ path: '/v1/prices', kind: 'status', status: 500, count: 3 }]);
    const a = new Recorder();
    const b = new Recorder();
    sub(['usd'], a, { stream: 'off', ...QUICK });
    sub(['eur'], b, { stream: 'off' });
    // The error is reported before the recovery, and the recovery comes once.
    await expect.poll(() => a.log).toEqual(['error:server', 'recovered']);
    expect(b.log).toEqual(['error:server', 'recovered']);
    expect(await prices()).toHaveLength(4);
    expect(a.symbols).toEqual(['usd']);
    // A later success with nothing reported in between is no recovery.
    await subs[0]!.refresh();
    expect(a.recoveries).toBe(1);
  });

  it('signals recovered when a valid stream event follows a malformed one, not before any error', async () => {
    const a = new Recorder();
    sub(['usd'], a);
    await expect.poll(() => a.last).toBe('live');
    expect(a.recoveries).toBe(0);
    await sb.push({ event: 'quote', data: '{oops' });
    await expect.poll(() => a.errors.map((e) => e.code)).toEqual(['bad_response']);
    expect(a.recoveries).toBe(0);
    await sb.market({ set: [{ symbol: 'usd', price: '1200000' }] });
    await expect.poll(() => a.recoveries).toBe(1);
    expect(a.price('usd')).toBe('1200000');
  });

  it('does not retry a failed fetch of an added symbol on its own while the stream follows it', async () => {
    const a = new Recorder();
    // With a 1 ms fetch retry, a retry of its own would go out long before the stream's reconnects.
    const s = sub(['usd'], a, QUICK);
    await expect.poll(() => a.last).toBe('live');
    await sb.faults([
      { path: '/v1/prices', kind: 'status', status: 500 },
      { path: '/v1/stream', kind: 'status', status: 500 },
    ]);
    s.setSymbols(['usd', 'eur']);
    await expect.poll(() => a.errors.map((e) => e.code), { timeout: 5_000 }).toEqual(['server']);
    // One fetch of eur (the client's own quick retries: 3 requests), then only the stream's reconnects:
    // wait for two of those, each after the moment a retry of the fetch would have gone out.
    const failedStreams = async (): Promise<number> =>
      (await sb.requests('/v1/stream', key)).filter((r) => r.status === 500).length;
    await expect.poll(failedStreams, { timeout: 8_000 }).toBeGreaterThanOrEqual(2);
    expect(await prices()).toEqual(['/v1/prices?symbols=usd', ...Array<string>(3).fill('/v1/prices?symbols=eur')]);
    await sb.faults([]);
    await expect.poll(() => a.symbols, { timeout: 8_000 }).toContain('eur');
    expect(await prices()).toHaveLength(4);
  });

  it('says offline when the browser does, and recovers when it is back', async () => {
    const online = new ManualOnline(true);
    const a = new Recorder();
    sub(['usd'], a, { online });
    await expect.poll(() => a.last).toBe('live');
    online.set(false);
    expect(a.last).toBe('offline');
    online.set(true);
    expect(a.last).toBe('live');
  });

  it('says offline when network errors persist', async () => {
    const a = new Recorder();
    sub(['usd'], a, { baseUrl: 'http://127.0.0.1:9', retry: { retries: 0, baseMs: 1, maxMs: 1 } });
    await expect.poll(() => a.last, { timeout: 5_000 }).toBe('offline');
    expect(a.errors.map((e) => e.code)).toEqual(['network']);
  });
});

describe("hub started from a snapshot (the relay's render)", () => {
  /** The sandbox's quotes of `symbols` now, as a render's snapshot would hold them. */
  async function snapshot(symbols: string[]): Promise<{ quotes: Quote[]; meta: object; eventId: string }> {
    const res = await fetch(`${sb.url}/v1/prices?symbols=${symbols.join(',')}`, { headers: { 'X-API-Key': key } });
    const body = (await res.json()) as { data: { quotes: Quote[] } };
    return { quotes: body.data.quotes, meta: {}, eventId: '1' };
  }

  it('says its quotes are held (status live) until the stream is live, without asking for prices', async () => {
    const stream = holding('/v1/stream');
    const a = new Recorder();
    startFrom(options({ fetch: stream.fetch }), await snapshot(['usd']));
    const asked = (await prices()).length; // the snapshot's own request
    sub(['usd'], a, { fetch: stream.fetch });
    await expect.poll(() => a.statuses).toEqual(['live']);
    expect(a.held).toEqual([true]);
    stream.release();
    await expect.poll(() => a.held).toEqual([true, false]);
    expect(a.statuses).toEqual(['live', 'live']);
    expect(await prices()).toHaveLength(asked);
  });

  it("'off': held (status polling) until an answer comes, which only refresh asks for", async () => {
    const a = new Recorder();
    startFrom(options({ stream: 'off' }), await snapshot(['usd']));
    const s = sub(['usd'], a, { stream: 'off' });
    await expect.poll(() => a.statuses).toEqual(['polling']);
    await settled();
    expect(a.held).toEqual([true]);
    await s.refresh();
    await expect.poll(() => a.held).toEqual([true, false]);
    expect(a.statuses).toEqual(['polling', 'polling']);
  });
});

describe('hub stream modes', () => {
  it("'auto' falls back to polling when the stream endpoint is missing", async () => {
    await sb.faults([{ path: '/v1/stream', kind: 'status', status: 404 }]);
    const a = new Recorder();
    sub(['usd', 'eur'], a, { stream: 'auto' });
    await expect.poll(() => a.last).toBe('polling');
    // Once no request is in flight, only the poll timer (30 s) and the SSE retry (5 min) are left.
    await expect.poll(() => pendingWork().requests).toBe(0);
    expect(a.statuses).toEqual(['loading', 'polling']);
    expect(await streamUrls()).toHaveLength(1);
    expect(await prices()).toHaveLength(1);
    expect(a.errors).toEqual([]);
    expect(new Set(a.symbols)).toEqual(new Set(['usd', 'eur']));
  });

  it("'auto' falls back when the stream answers something that is not an event stream", async () => {
    await sb.faults([{ path: '/v1/stream', kind: 'status', status: 200, body: '{}' }]);
    const a = new Recorder();
    sub(['usd'], a, { stream: 'auto' });
    await expect.poll(() => a.last).toBe('polling');
  });

  it("'auto' uses SSE again once it works (retry after falling back)", async () => {
    await sb.faults([{ path: '/v1/stream', kind: 'status', status: 404, count: 1 }]);
    const a = new Recorder();
    sub(['usd'], a, { stream: 'auto', sseRetryMs: 200 });
    await expect.poll(() => a.last).toBe('polling');
    await expect.poll(() => a.last).toBe('live');
    expect(a.statuses).toEqual(['loading', 'polling', 'live']);
    await sb.market({ set: [{ symbol: 'usd', price: '1010100' }] });
    await expect.poll(() => a.price('usd')).toBe('1010100');
  });

  it("'auto' stays on SSE through a 5xx and reconnects", async () => {
    await sb.faults([{ path: '/v1/stream', kind: 'status', status: 503, count: 1 }]);
    const a = new Recorder();
    sub(['usd'], a, { stream: 'auto' });
    await expect.poll(() => a.last, { timeout: 8_000 }).toBe('live');
    expect(a.statuses).toContain('reconnecting');
  });

  it("'poll' polls: visible again polls at once; hidden pauses", async () => {
    const visibility = new ManualVisibility(true);
    const a = new Recorder();
    sub(['usd'], a, { stream: 'poll', pollInterval: 5, visibility });
    await expect.poll(() => a.last).toBe('polling');
    expect(await streamUrls()).toEqual([]);
    expect(await prices()).toHaveLength(1);
    visibility.set(false);
    await expect.poll(() => pendingWork()).toEqual({ timers: 0, requests: 0 });
    await sb.market({ set: [{ symbol: 'usd', price: '1010100' }] });
    visibility.set(true);
    await expect.poll(() => a.price('usd')).toBe('1010100');
    expect(await prices()).toHaveLength(2);
  });

  it("'poll' refresh polls now", async () => {
    const a = new Recorder();
    const s = sub(['usd'], a, { stream: 'poll', pollInterval: 60 });
    await expect.poll(() => a.last).toBe('polling');
    await sb.market({ set: [{ symbol: 'usd', price: '1010100' }] });
    await s.refresh();
    expect(a.price('usd')).toBe('1010100');
    expect(await prices()).toHaveLength(2);
  });

  it("'off' fetches once and only on refresh", async () => {
    const a = new Recorder();
    const s = sub(['usd'], a, { stream: 'off' });
    await expect.poll(() => a.symbols).toEqual(['usd']);
    // Nothing pending: nothing more can go out on its own.
    await settled();
    expect(await prices()).toHaveLength(1);
    expect(await streamUrls()).toEqual([]);
    await s.refresh();
    expect(await prices()).toHaveLength(2);
    expect(pendingWork().timers).toBe(0);
  });

  it('different keys or modes get different hubs', async () => {
    const a = new Recorder();
    const b = new Recorder();
    sub(['usd'], a);
    sub(['usd'], b, { stream: 'off' });
    expect(hubCount()).toBe(2);
  });
});
