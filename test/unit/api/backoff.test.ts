import { describe, expect, it } from 'vitest';
import { backoffDelay, sleep } from '../../../src/api/backoff';
import { pendingWork } from '../../helpers/pending-work';

describe('backoffDelay', () => {
  const opts = { baseMs: 500, maxMs: 5_000 };
  it('doubles per attempt up to the cap (full jitter at its maximum)', () => {
    const top = (): number => 1;
    expect([0, 1, 2, 3, 4, 10].map((a) => backoffDelay(a, opts, 'full', top))).toEqual([
      500, 1000, 2000, 4000, 5000, 5000,
    ]);
  });
  it('full jitter can go down to zero; equal jitter keeps half', () => {
    const bottom = (): number => 0;
    expect(backoffDelay(3, opts, 'full', bottom)).toBe(0);
    expect(backoffDelay(3, opts, 'equal', bottom)).toBe(2000);
  });
});

describe('sleep', () => {
  it('rejects with the abort reason and leaves no timer', async () => {
    const controller = new AbortController();
    const slept = sleep(60_000, controller.signal);
    expect(pendingWork().timers).toBeGreaterThan(0);
    controller.abort();
    await expect(slept).rejects.toMatchObject({ name: 'AbortError' });
    expect(pendingWork().timers).toBe(0);
  });
});
