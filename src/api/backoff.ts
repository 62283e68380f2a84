/** Capped exponential backoff with jitter, and an abortable sleep. */
import { abortReason } from './request';
import { startTimer } from './timer';

/** Backoff settings: `baseMs` doubles per attempt up to `maxMs`. */
export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
}

/**
 * The delay before retry number `attempt` (0-based).
 * `full` jitter (uniform in [0, cap]) spreads many clients best; `equal` jitter (uniform in
 * [cap/2, cap]) keeps a floor, used where the server asked for a minimum (SSE `retry:`).
 */
export function backoffDelay(
  attempt: number,
  { baseMs, maxMs }: BackoffOptions,
  jitter: 'full' | 'equal' = 'full',
  random: () => number = Math.random,
): number {
  const cap = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 30));
  const r = random();
  return Math.round(jitter === 'full' ? cap * r : cap / 2 + (cap / 2) * r);
}

/** Resolves after `ms`; rejects with the abort reason as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = (): void => {
      cancel();
      reject(abortReason(signal!));
    };
    const cancel = startTimer(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
