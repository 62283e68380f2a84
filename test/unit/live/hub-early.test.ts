// The first prices request goes out before the hubs' code (a lazy chunk, `live/hubs.ts`) has
// loaded, its answer is shown without waiting for that chunk, and the hub then takes the request
// over: one request, every quote delivered once. The chunk's import is held here (a mock that
// waits for the test), and each test gets `live/hub.ts` afresh, with the chunk not yet loaded.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PriceBoardError } from '../../../src/shared/errors';
import { ERROR_MESSAGES } from '../../../src/shared/error-messages';
import type { ConnectionStatus, Quote } from '../../../src/shared/types';
import type { HubListener, HubOptions, Subscription } from '../../../src/live/hub';
import { pendingWork } from '../../helpers/pending-work';
import { startTestSandbox, type TestSandbox } from '../api/sandbox-control';

/** The hubs' chunk: how often its import started, its release, and whether it then fails. */
const chunk = { loads: 0, release: () => {}, fail: false };

/** A fresh `live/hub.ts`, whose import of the hubs' chunk waits for `chunk.release()`. */
async function freshHub(): Promise<Hub> {
  vi.resetModules();
  vi.doMock('../../../src/live/hubs', async (importOriginal) => {
    chunk.loads++;
    await new Promise<void>((resolve) => (chunk.release = resolve));
    if (chunk.fail) throw new TypeError('Failed to fetch dynamically imported module');
    return importOriginal();
  });
  return import('../../../src/live/hub');
}

type Hub = typeof import('../../../src/live/hub');

let sb: TestSandbox;
let n = 0;
let key: string;
let hub: Hub;
let subs: Subscription[] = [];

class Recorder implements HubListener {
  batches: Quote[][] = [];
  statuses: ConnectionStatus[] = [];
  errors: PriceBoardError[] = [];
  quotes(quotes: Quote[]): void {
    this.batches.push(quotes);
  }
  status(status: ConnectionStatus): void {
    this.statuses.push(status);
  }
  error(error: PriceBoardError): void {
    this.errors.push(error);
  }
  missing(): void {}
  /** Each symbol's deliveries, in order. */
  get symbols(): string[] {
    return this.batches.flat().map((q) => q.symbol);
  }
}

function sub(symbols: string[], rec: Recorder, extra: Partial<HubOptions> = {}): Subscription {
  const s = hub.subscribe({ baseUrl: sb.url, apiKey: key, stream: 'sse', pollInterval: 30, ...extra }, symbols, rec);
  subs.push(s);
  return s;
}

const prices = async (): Promise<string[]> => (await sb.requests('/v1/prices', key)).map((r) => r.url);

beforeAll(async () => {
  sb = await startTestSandbox({ heartbeatMs: 200, retryMs: 50 });
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.reset();
  key = `pro-key:hub-early${++n}`;
  chunk.loads = 0;
  chunk.fail = false;
  hub = await freshHub();
});
afterEach(async () => {
  chunk.release();
  for (const s of subs) s.close();
  subs = [];
  await expect.poll(() => hub.hubCount()).toBe(0);
  await expect.poll(() => pendingWork()).toEqual({ timers: 0, requests: 0 });
  await expect.poll(async () => (await sb.stats()).openStreams).toBe(0);
});

describe('hub before its chunk has loaded', () => {
  it('shows the first answer without waiting for the chunk, then hands that request to the hub', async () => {
    const a = new Recorder();
    const b = new Recorder();
    sub(['usd', 'eur'], a);
    sub(['eur', 'gold_18'], b);
    expect(hub.hubCount()).toBe(1);
    hub.flushSubscriptions();
    // The chunk's import started beside the request, and is held.
    await expect.poll(() => chunk.loads).toBe(1);
    await expect
      .poll(() => [a.symbols, b.symbols])
      .toEqual([
        ['usd', 'eur'],
        ['eur', 'gold_18'],
      ]);
    expect(await prices()).toEqual(['/v1/prices?symbols=usd,eur,gold_18']);
    // Nothing of the hub runs yet: no status beyond the first, no stream.
    expect(a.statuses).toEqual([]);
    expect(await sb.requests('/v1/stream', key)).toEqual([]);

    chunk.release();
    await expect.poll(() => [a.statuses.at(-1), b.statuses.at(-1)]).toEqual(['live', 'live']);
    expect(a.statuses[0]).toBe('loading');
    // The hub took the answer over: no second request, and no quote delivered twice.
    expect(await prices()).toEqual(['/v1/prices?symbols=usd,eur,gold_18']);
    expect([a.symbols, b.symbols]).toEqual([
      ['usd', 'eur'],
      ['eur', 'gold_18'],
    ]);
    expect((await sb.stats()).streamsOpened).toBe(1);
    await sb.market({ set: [{ symbol: 'eur', price: '1300000' }] });
    await expect
      .poll(
        () =>
          b.batches
            .flat()
            .filter((q) => q.symbol === 'eur')
            .at(-1)?.price,
      )
      .toBe('1300000');
    expect(a.errors).toEqual([]);
  });

  it('lets the hub take a request still in flight when the chunk comes first', async () => {
    await sb.faults([{ path: '/v1/prices', key, kind: 'slow', delayMs: 600, count: 1 }]);
    const a = new Recorder();
    sub(['usd'], a, { stream: 'off' });
    hub.flushSubscriptions();
    await expect.poll(() => chunk.loads).toBe(1);
    chunk.release();
    await expect.poll(() => a.statuses.at(-1)).toBe('polling');
    expect(a.symbols).toEqual(['usd']);
    expect(await prices()).toEqual(['/v1/prices?symbols=usd']);
    // Later subscribers go straight to the hub, which knows the quote: no request.
    const b = new Recorder();
    sub(['usd'], b, { stream: 'off' });
    hub.flushSubscriptions();
    expect(b.symbols).toEqual(['usd']);
    expect(await prices()).toEqual(['/v1/prices?symbols=usd']);
  });

  it('reports a chunk that fails to load, and keeps the answer shown', async () => {
    chunk.fail = true;
    const a = new Recorder();
    sub(['usd'], a);
    hub.flushSubscriptions();
    await expect.poll(() => a.symbols).toEqual(['usd']);
    chunk.release();
    await expect.poll(() => a.errors.map((e) => e.code)).toEqual(['network']);
    expect(a.errors[0]!.messageFa).toMatch(/[آ-ی]/);
    expect(a.symbols).toEqual(['usd']);
  });

  it('reports an error answer that came before the chunk once the chunk is there, with its Persian message', async () => {
    let answered = false;
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const response = await globalThis.fetch(input, init);
      answered = true;
      return response;
    };
    const a = new Recorder();
    sub(['usd'], a, { apiKey: 'no-such-key', fetch });
    hub.flushSubscriptions();
    await expect.poll(() => answered).toBe(true);
    await expect.poll(() => chunk.loads).toBe(1);
    // The failure is the hub's to report (with the messages that come with its chunk).
    expect(a.errors).toEqual([]);
    chunk.release();
    await expect.poll(() => a.errors.map((e) => e.code)).toEqual(['unauthorized']);
    expect(a.errors[0]!.messageFa).toBe(ERROR_MESSAGES.unauthorized);
    expect(a.statuses.at(-1)).toBe('error');
  });

  it('aborts the first request when every subscriber leaves before the chunk', async () => {
    await sb.faults([{ path: '/v1/prices', key, kind: 'slow', delayMs: 5_000, count: 1 }]);
    const a = new Recorder();
    const s = sub(['usd'], a);
    hub.flushSubscriptions();
    await expect.poll(async () => (await sb.requests('/v1/prices', key)).length).toBe(1);
    s.close();
    await expect.poll(() => hub.hubCount()).toBe(0);
    await expect.poll(() => pendingWork()).toEqual({ timers: 0, requests: 0 });
    expect(a.symbols).toEqual([]);
  });
});
