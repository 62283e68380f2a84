// Reliability of the live layer's driver: its choice of stream or polling, with scripted connections (a `fetch` that
// answers what each test needs, fast and deterministic): when `stream="auto"` gives up SSE for
// polling, and when it must not.
import { afterEach, describe, expect, it } from 'vitest';
import type { PriceBoardError } from '../../src/shared/errors';
import type { FetchLike } from '../../src/api/request';
import { pendingWork } from '../helpers/pending-work';
import type { Quote } from '../../src/shared/types';
import { Driver, type DriverState } from '../../src/live/driver';
import { until } from './helpers/board';

const quote = (price: string): Quote => ({
  symbol: 'usd',
  title: 'دلار آمریکا',
  category: 'currency',
  unit: 'unit',
  price,
  price_toman: String(Number(price) / 10),
  change_pct: '0.10',
  high: price,
  low: price,
  updated_at: new Date().toISOString(),
});

type Script = 'drop-after-event' | 'eventless-drop' | '503' | '429' | 'healthy';

/** A stream answer: `retry: 20`, one snapshot, then (unless healthy) a broken connection. */
function sseResponse(script: Script, signal: AbortSignal | null | undefined): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode('retry: 20\n\n'));
      if (script !== 'eventless-drop') {
        controller.enqueue(
          encoder.encode(
            `id: 1\nevent: quotes\ndata: ${JSON.stringify({ at: new Date().toISOString(), quotes: [quote('1000000')] })}\n\n`,
          ),
        );
      }
      if (script === 'healthy')
        signal?.addEventListener('abort', () => controller.error(signal.reason), { once: true });
      else setTimeout(() => controller.error(new TypeError('network error')), 5);
    },
  });
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
}

/**
 * A `fetch` answering the stream connections in the order of `scripts` (the last one repeats), and
 * the polls (`/v1/prices`) with the quote.
 */
function scripted(scripts: Script[]): { fetch: FetchLike; connections: () => number; polls: () => number } {
  let n = 0;
  let polls = 0;
  const fetch: FetchLike = async (url, init) => {
    if (new URL(url).pathname === '/v1/prices') {
      polls++;
      const body = { data: { at: new Date().toISOString(), delay_seconds: 0, quotes: [quote('1000000')] } };
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }
    const script = scripts[Math.min(n++, scripts.length - 1)]!;
    if (script === '503') return new Response('{"error":{"code":"unavailable","message":"down"}}', { status: 503 });
    if (script === '429') {
      return new Response('{"error":{"code":"rate_limited"}}', { status: 429, headers: { 'Retry-After': '0' } });
    }
    return sseResponse(script, init.signal);
  };
  return { fetch, connections: () => n, polls: () => polls };
}

const drivers: Driver[] = [];

function start(scripts: Script[]) {
  const { fetch, connections, polls } = scripted(scripts);
  const states: DriverState[] = [];
  const failures: PriceBoardError[] = [];
  const driver = new Driver(
    {
      baseUrl: 'https://prices.test',
      mode: 'auto',
      streamUrl: 'https://prices.test/v1/stream',
      apiKey: 'pro-key',
      fetch,
      sseRetryMs: 60_000,
    },
    (event) => {
      if (event.kind === 'state') states.push(event.state);
      else if (event.kind === 'failure' || event.kind === 'stopped') failures.push(event.error);
    },
  );
  drivers.push(driver);
  driver.follow(['usd'], 60_000);
  return { states, failures, connections, polls };
}

type Run = ReturnType<typeof start>;
const untilPolling = (run: Run) =>
  until(() => run.states.includes('polling'), `no fallback: ${run.states.join(' → ')}`, 10_000);
/** Four connections made, and the last state is live again. */
const untilLiveAgain = (run: Run) =>
  until(
    () => run.connections() >= 4 && run.states.at(-1) === 'live',
    `did not come back live: ${run.states.join(' → ')}`,
    10_000,
  );

afterEach(async () => {
  for (const d of drivers.splice(0)) d.stop();
  await until(() => pendingWork().timers === 0 && pendingWork().requests === 0, 'work left after close', 5_000);
});

describe("stream='auto': falling back to polling", () => {
  it('three connections in a row without a single event: falls back to polling', async () => {
    const run = start(['503', '503', '503', 'healthy']);
    await untilPolling(run);
    expect(run.connections()).toBe(3);
  });

  it('eventless drops count too (a 2xx stream that never sends an event)', async () => {
    const run = start(['eventless-drop', 'eventless-drop', 'eventless-drop', 'healthy']);
    await untilPolling(run);
    expect(run.connections()).toBe(3);
  });

  // Regression: the connection that had delivered events before it dropped was counted as the first
  // of the three "connections without a single event", so a drop followed by two failed reconnects
  // (a server restart answering 503 twice, or a 503 then a 429) gave up SSE for at least 5 minutes.
  it('a drop after events and then two failed reconnects: stays on SSE', async () => {
    const run = start(['drop-after-event', '503', '503', 'healthy']);
    await untilLiveAgain(run);
    expect(run.states).not.toContain('polling');
    expect(run.polls()).toBe(0);
  });

  it('a drop after events, a 503 and a 429: stays on SSE', async () => {
    const run = start(['drop-after-event', '503', '429', 'healthy']);
    await untilLiveAgain(run);
    expect(run.states).not.toContain('polling');
  });

  it('connections that keep dropping after their events never make it give up SSE', async () => {
    const run = start(['drop-after-event']);
    await until(() => run.connections() >= 6, 'did not keep reconnecting', 10_000);
    expect(run.states).not.toContain('polling');
    expect(run.failures.every((e) => e.code === 'network')).toBe(true);
  });
});
