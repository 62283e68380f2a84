/**
 * The one bound on waits. `setTimeout` overflows above 2^31−1 ms (≈ 24.8 days) and then fires at
 * once, so a huge `poll-interval`, `Retry-After` or `retry:` turned into a request storm. Every
 * data-layer timer passes through {@link clampWait} (`api/timer.ts`), and each server- or
 * attribute-given duration is bounded with it where it is read.
 */

/** The longest wait: one hour. A service asking for more (a daily cap) is asked again hourly. */
export const MAX_WAIT_MS = 3_600_000;

/** `ms` within [min, max]; NaN gives `min`. */
export function clampWait(ms: number, min = 0, max = MAX_WAIT_MS): number {
  return Number.isNaN(ms) ? min : Math.min(max, Math.max(min, ms));
}
