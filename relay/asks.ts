/**
 * A follower's ask of the leader (engine `Asks`), in the relay's terms: the leader's upstream error
 * travels as data and becomes the same `PriceBoardError` on the follower, so it answers as the
 * leader would have.
 */
import { PriceBoardError } from './from-src';
import type { AskOutcome } from './engine/types';

/** How long a follower waits for the leader to fill a cache key it asked for. */
export const ASK_TIMEOUT_MS = 8_000;

export function outcomeOf(error: unknown): AskOutcome {
  if (!(error instanceof PriceBoardError)) throw error;
  const serviceCode = typeof error.data?.serviceCode === 'string' ? error.data.serviceCode : undefined;
  return {
    filled: false,
    error: { code: error.code, status: error.status, retryAfterMs: error.retryAfterMs, serviceCode },
  };
}

/** Why an ask brought nothing: the leader's error, or none answered (no leader, Redis away, timeout). */
export function errorOf(outcome: AskOutcome | undefined): PriceBoardError {
  if (!outcome || outcome.filled) return new PriceBoardError('server', 'no leader filled the cache in time');
  const { code, status, retryAfterMs, serviceCode } = outcome.error;
  return new PriceBoardError(code as PriceBoardError['code'], 'the leader could not fetch it', {
    status,
    retryAfterMs,
    data: serviceCode ? { serviceCode } : undefined,
  });
}
