// Issue 16, item 1: a service (or an attribute) asking for a wait longer than `setTimeout` can
// hold must not turn into a request storm. Real sandbox, fake clock: time is the subject, so the
// test advances it and counts the requests the sandbox logged.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { subscribe, type Subscription } from '../../../src/live/hub';
import { LiveStream } from '../../../src/live/stream';
import { MAX_WAIT_MS } from '../../../src/shared/waits';
import type { PriceBoardError } from '../../../src/shared/errors';
import { startTestSandbox, type TestSandbox } from '../api/sandbox-control';

let sb: TestSandbox;
let key: string;
let n = 0;
const closers: (() => void)[] = [];

// Real I/O goes on under the fake clock: wait for it with timers the fake clock does not own.
const { setImmediate: tick } = globalThis;
async function ioUntil(check: () => Promise<boolean>, limitMs = 5_000): Promise<void> {
  const end = performance.now() + limitMs;
  while (!(await check())) {
    if (performance.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => tick(resolve));
  }
}
const count = async (path: string): Promise<number> => (await sb.requests(path, key)).length;

beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  await sb.close();
});
beforeEach(() => {
  key = `pro-key:waits${++n}`;
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(async () => {
  for (const close of closers.splice(0)) close();
  vi.useRealTimers();
  await sb.reset();
});

describe('waits from the service or an attribute are clamped', () => {
  it('poll-interval 1e9 s polls at most once an hour, not in a loop', async () => {
    let status = '';
    const sub: Subscription = subscribe(
      { baseUrl: sb.url, apiKey: key, stream: 'poll', pollInterval: 1e9 },
      ['usd'],
      (e) => {
        if (e.kind === 'status') status = e.status;
      },
    );
    closers.push(() => sub.close());
    await ioUntil(async () => (await count('/v1/prices')) >= 1);
    // The hub (a lazy chunk) has taken the first request over and is polling: its timer is set
    // from the clock's start, not from a moment the clock has already been moved past.
    await ioUntil(async () => status === 'polling');
    await vi.advanceTimersByTimeAsync(10_000);
    const after10s = await count('/v1/prices');
    expect(after10s).toBeLessThanOrEqual(2);
    await vi.advanceTimersByTimeAsync(MAX_WAIT_MS);
    // Still polling, at the bound.
    await ioUntil(async () => (await count('/v1/prices')) > after10s);
    expect(await count('/v1/prices')).toBeLessThanOrEqual(after10s + 2);
  });

  it('a stream answered 429 with Retry-After: 3000000 reconnects after an hour, not at once', async () => {
    await sb.faults([{ kind: 'rate_limit', path: '/v1/stream', key, retryAfter: 3_000_000 }]);
    const errors: PriceBoardError[] = [];
    const stream = new LiveStream({
      url: `${sb.url}/v1/stream`,
      symbols: ['usd'],
      apiKey: key,
      onEvent: (event) => event.kind === 'failure' && errors.push(event.error),
    });
    closers.push(() => stream.close());
    stream.start();
    await ioUntil(async () => errors.length === 1);
    expect(errors[0]!.retryAfterMs).toBe(MAX_WAIT_MS);
    await vi.advanceTimersByTimeAsync(10_000);
    await vi.advanceTimersByTimeAsync(MAX_WAIT_MS - 20_000);
    expect(await count('/v1/stream')).toBe(1);
    await vi.advanceTimersByTimeAsync(20_000);
    await ioUntil(async () => (await count('/v1/stream')) === 2);
  });
});
