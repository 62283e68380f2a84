// `stream="auto"` after falling back to polling, under fake timers (time is the subject): when it
// tries the stream again, and what status polling reports. The driver runs as in a page; only its
// `fetch` is scripted: the service is up or down, and its stream answers or not.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  Driver,
  OUTAGE_RETRY_MS,
  SSE_RETRY_CAP,
  SSE_RETRY_MS,
  type DriverEvent,
  type DriverState,
} from '../../../src/live/driver';
import type { FetchLike } from '../../../src/api/request';
import { makeQuote } from '../../helpers/quote';
// Loaded up front: the driver imports these lazily, which must not wait on real I/O here.
import '../../../src/live/poller';
import '../../../src/api/http-error-map';

/** What the scripted service answers now. */
let service: { prices: number; stream: number };
/** Times (fake clock) at which a stream connection was asked for. */
let streams: number[];
let states: DriverState[];
let driver: Driver | undefined;

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const fetchScripted: FetchLike = async (input, init) => {
  const url = new URL(String(input));
  if (url.pathname === '/v1/stream') {
    streams.push(Date.now());
    if (service.stream !== 200) return json(service.stream, { error: { code: 'x', message: 'down' } });
    const signal = init?.signal;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(`id: 1\nevent: quote\ndata: ${JSON.stringify(makeQuote())}\n\n`));
        signal?.addEventListener('abort', () => controller.error(signal.reason), { once: true });
      },
    });
    return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
  }
  if (service.prices !== 200) return json(service.prices, { error: { code: 'x', message: 'down' } });
  return json(200, { data: { at: new Date().toISOString(), delay_seconds: 0, quotes: [makeQuote()] } });
};

function start(): void {
  driver = new Driver(
    {
      baseUrl: 'https://prices.test',
      apiKey: 'pro-key',
      mode: 'auto',
      streamUrl: 'https://prices.test/v1/stream',
      fetch: fetchScripted,
      retry: { retries: 0, baseMs: 1, maxMs: 1 },
    },
    (event: DriverEvent) => {
      if (event.kind === 'state') states.push(event.state);
    },
  );
  driver.follow(['usd'], 30_000);
}

/** Gaps between the stream connections from the `from`th on. */
const gaps = (from: number): number[] => streams.slice(from).map((t, i) => t - streams[from - 1 + i]!);

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
  service = { prices: 200, stream: 200 };
  streams = [];
  states = [];
});
afterEach(() => {
  driver?.stop();
  driver = undefined;
  vi.useRealTimers();
});

describe("stream='auto' after an outage", () => {
  it('tries the stream again within a minute, backing off 10 s → 60 s, never more often', async () => {
    service = { prices: 503, stream: 503 };
    start();
    // Three connections without an event (1 s, 2 s of backoff at most): it falls back to polling.
    await vi.advanceTimersByTimeAsync(5_000);
    expect(streams).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(5 * 60_000 - 5_000);
    expect(gaps(3)).toEqual([10_000, 20_000, 40_000, 60_000, 60_000, 60_000]);
    expect(OUTAGE_RETRY_MS * SSE_RETRY_CAP).toBe(60_000);
    expect(states.at(-1)).not.toBe('live');
  });

  it('is live again within a minute of the service coming back, by the next retry', async () => {
    service = { prices: 200, stream: 503 };
    start();
    await vi.advanceTimersByTimeAsync(40_000);
    expect(states.at(-1)).toBe('polling');
    const back = Date.now();
    service.stream = 200;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(states.at(-1)).toBe('live');
    expect(streams.at(-1)! - back).toBeLessThanOrEqual(60_000);
  });

  it('tries the stream at once when a poll is answered after failed ones (the service is back)', async () => {
    service = { prices: 503, stream: 503 };
    start();
    await vi.advanceTimersByTimeAsync(40_000);
    const before = streams.length;
    service = { prices: 200, stream: 200 };
    // The next poll (an interval after the last) is answered: the stream is tried right then.
    await vi.advanceTimersByTimeAsync(30_000);
    expect(streams.length).toBe(before + 1);
    expect(states.at(-1)).toBe('live');
  });

  it('keeps the long retry where the service has no stream (404)', async () => {
    service = { prices: 200, stream: 404 };
    start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(streams).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(70 * 60_000);
    expect(gaps(1)).toEqual([SSE_RETRY_MS, 2 * SSE_RETRY_MS, 4 * SSE_RETRY_MS, SSE_RETRY_CAP * SSE_RETRY_MS]);
  });
});

describe('polling status', () => {
  it('says reconnecting, not polling, while polls fail; polling once one is answered', async () => {
    service = { prices: 200, stream: 404 };
    start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(states.at(-1)).toBe('polling');
    service.prices = 503;
    await vi.advanceTimersByTimeAsync(30_000);
    expect(states.at(-1)).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(states.at(-1)).toBe('reconnecting');
    service.prices = 200;
    await vi.advanceTimersByTimeAsync(30_000);
    expect(states.at(-1)).toBe('polling');
  });
});
