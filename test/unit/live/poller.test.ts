import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PriceBoardError } from '../../../src/shared/errors';
import { Poller } from '../../../src/live/poller';
import { MIN_POLL_MS, clampPollMs } from '../../../src/live/policy';
import { RateLimit } from '../../../src/live/rate-limit';
import { ManualVisibility } from '../../helpers/manual-sources';

// The poller's own logic (timing, Retry-After, visibility) under fake timers; the hub tests run
// polling against the sandbox.
let polls: number[];
let outcome: () => Promise<void>;

function poller(options: Partial<ConstructorParameters<typeof Poller>[0]> = {}): Poller {
  return new Poller({
    intervalMs: 10_000,
    poll: () => {
      polls.push(Date.now());
      return outcome();
    },
    ...options,
  });
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
  polls = [];
  outcome = () => Promise.resolve();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Poller', () => {
  it('clamps the interval to at least 5 s and defaults nonsense to 30 s', () => {
    expect(clampPollMs(1_000)).toBe(MIN_POLL_MS);
    expect(clampPollMs(60_000)).toBe(60_000);
    expect(clampPollMs(Number.NaN)).toBe(30_000);
    expect(clampPollMs(-1)).toBe(30_000);
  });

  it('polls at once, then every interval', async () => {
    const p = poller();
    p.start();
    await vi.advanceTimersByTimeAsync(35_000);
    expect(polls).toEqual([0, 10_000, 20_000, 30_000]);
    p.stop();
  });

  it('never polls faster than the minimum', async () => {
    const p = poller({ intervalMs: 100 });
    p.start(5_000);
    await vi.advanceTimersByTimeAsync(16_000);
    expect(polls).toEqual([5_000, 10_000, 15_000]);
    p.stop();
  });

  it('waits out Retry-After when it is longer than the interval', async () => {
    const errors: PriceBoardError[] = [];
    outcome = () => Promise.reject(new PriceBoardError('rate_limited', '429', { status: 429, retryAfterMs: 25_000 }));
    const p = poller({ onEvent: (e) => e.kind === 'failure' && errors.push(e.error) });
    p.start();
    await vi.advanceTimersByTimeAsync(1);
    outcome = () => Promise.resolve();
    await vi.advanceTimersByTimeAsync(40_000);
    expect(polls).toEqual([0, 25_000, 35_000]);
    expect(errors.map((e) => e.code)).toEqual(['rate_limited']);
    p.stop();
  });

  it('honours a Retry-After others noted in the shared record and keeps it for pollNow', async () => {
    const rateLimit = new RateLimit();
    const p = poller({ rateLimit });
    p.start();
    await vi.advanceTimersByTimeAsync(1);
    rateLimit.note(new PriceBoardError('rate_limited', '429', { status: 429, retryAfterMs: 29_999 }));
    await p.pollNow();
    await vi.advanceTimersByTimeAsync(29_000);
    expect(polls).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(polls).toEqual([0, 30_000]);
    p.stop();
  });

  it('pauses while the page is hidden and polls at once when it shows again', async () => {
    const visibility = new ManualVisibility(true);
    const p = poller({ visibility });
    p.start();
    await vi.advanceTimersByTimeAsync(2_000);
    visibility.set(false);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(polls).toEqual([0]);
    expect(vi.getTimerCount()).toBe(0);
    visibility.set(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(polls).toEqual([0, 62_000, 72_000]);
    p.stop();
    expect(visibility.listenerCount).toBe(0);
  });

  it('stops on a final error and reports it', async () => {
    const stopped: PriceBoardError[] = [];
    outcome = () => Promise.reject(new PriceBoardError('unauthorized', '401', { status: 401 }));
    const p = poller({ onEvent: (e) => e.kind === 'stopped' && stopped.push(e.error) });
    p.start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(polls).toEqual([0]);
    expect(stopped.map((e) => e.code)).toEqual(['unauthorized']);
    expect(p.stopped).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps polling after a transient error', async () => {
    outcome = () => Promise.reject(new PriceBoardError('server', '503', { status: 503 }));
    const p = poller();
    p.start();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(polls).toEqual([0, 10_000, 20_000]);
    p.stop();
  });

  it('shares a poll in flight with pollNow', async () => {
    let finish = (): void => {};
    outcome = () => new Promise<void>((resolve) => (finish = resolve));
    const p = poller();
    p.start();
    const a = p.pollNow();
    const b = p.pollNow();
    expect(a).toBe(b);
    expect(polls).toHaveLength(1);
    finish();
    await a;
    p.stop();
  });

  it('leaves no timer after stop', async () => {
    const p = poller();
    p.start();
    await vi.advanceTimersByTimeAsync(1);
    p.stop();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(polls).toEqual([0]);
  });
});
