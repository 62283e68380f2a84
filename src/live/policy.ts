/** Decisions shared by the stream, the poller and the hub (what each error code means: `shared/errors.ts`). */
import { PriceBoardError } from '../shared/errors';
import { CONNECTION_ATTRIBUTES, MAX_POLL_SECONDS, MIN_POLL_SECONDS } from '../shared/attribute-table';
import { clampWait } from '../shared/waits';

/** The fastest polling allowed, whatever `poll-interval` says: plans count requests per minute. */
export const MIN_POLL_MS = MIN_POLL_SECONDS * 1000;
/** `poll-interval`'s default, in ms. */
const DEFAULT_POLL_MS = CONNECTION_ATTRIBUTES.pollInterval.default * 1000;

/** A usable interval: non-numbers give the default, others are held within [5 s, 1 h]. */
export function clampPollMs(ms: number): number {
  return ms > 0 ? clampWait(ms, MIN_POLL_MS, MAX_POLL_SECONDS * 1000) : DEFAULT_POLL_MS;
}

/** Whether an SSE failure suggests the service has no stream here (404/405/501, not an event stream). */
export function suggestsNoStream(error: PriceBoardError): boolean {
  if (error.status === 404 || error.status === 405 || error.status === 501) return error.code !== 'unknown_symbol';
  return error.code === 'bad_response' && typeof error.data?.contentType === 'string';
}

/** Whether the failure looks like the network rather than the service. */
export function isNetworkFailure(error: PriceBoardError): boolean {
  return error.code === 'network' || error.code === 'timeout';
}

/** Any thrown value as a `PriceBoardError` (unexpected ones become `network`). */
export function asPriceBoardError(error: unknown): PriceBoardError {
  return error instanceof PriceBoardError
    ? error
    : new PriceBoardError('network', 'Unexpected failure', { cause: error });
}
