/** A hub's `ConnectionStatus`, derived from what it has learned (DESIGN.md §2, events). */
import type { PriceBoardError } from '../shared/errors';
import type { ConnectionStatus } from '../shared/types';
import type { OnlineSource } from './online';
import type { DriverState } from './driver';

/** Consecutive network failures (failed fetches or stream connects) after which we say offline. */
const OFFLINE_AFTER_FAILURES = 3;

/** The facts behind a status, and the status they give. */
export class HubStatus {
  driver: DriverState = 'connecting';
  /** Some answer (prices or stream) arrived: no longer `loading`. */
  hasData = false;
  /**
   * It holds the fresh quotes of the relay's render: the page shows them as live, and keeps saying
   * so while the stream connects (never `loading` over shown prices).
   */
  seeded = false;
  /** Its quotes are still only the render's: neither the stream said it is live nor did the service answer. */
  held = false;
  /** A final error: `error` for good. */
  finalError: PriceBoardError | undefined;
  readonly #online: OnlineSource;
  #networkFailures = 0;

  constructor(online: OnlineSource) {
    this.#online = online;
  }

  /** A fetch or a stream connect failed in a way that looks like the network. */
  networkFailed(): void {
    this.#networkFailures++;
  }

  /** Something reached the service: forget past network failures. */
  reachable(): void {
    this.#networkFailures = 0;
  }

  /** The status to show. */
  get value(): ConnectionStatus {
    if (this.finalError) return 'error';
    if (!this.#online.isOnline() || this.#networkFailures >= OFFLINE_AFTER_FAILURES) return 'offline';
    switch (this.driver) {
      case 'live':
        return this.hasData ? 'live' : 'loading';
      case 'reconnecting':
        return 'reconnecting';
      case 'polling':
      case 'idle': // stream="off": answers come on request, as when polling
        return this.hasData ? 'polling' : 'loading';
      default:
        return this.seeded ? 'live' : 'loading';
    }
  }
}
