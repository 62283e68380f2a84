// The parts of one sandbox instance that the request handlers share.
import type { ServerResponse } from 'node:http';
import type { Faults } from './faults';
import type { RateLimiter } from './limits';
import type { Market } from './market';
import type { Stats } from './stats';
import type { StreamHub } from './stream';

export interface SandboxContext {
  market: Market;
  streams: StreamHub;
  faults: Faults;
  limiter: RateLimiter;
  stats: Stats;
  seed: number;
  /** Streams one key may hold open at once (429 `too_many_streams` beyond). */
  maxStreamsPerKey: number;
  now: () => number;
  /** Answers held open by fault `hang`, ended on close. */
  hanging: Set<ServerResponse>;
  /** Pending timers of fault `slow`, cleared on close. */
  timers: Set<NodeJS.Timeout>;
  /** Back to the start state (faults, counters, log, market). */
  reset(): void;
}
