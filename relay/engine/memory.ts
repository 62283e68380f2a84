/**
 * The engine of one process (beside `redis.ts`, a cluster's): every seam of `types.ts` in memory,
 * each in its own `memory-*.ts` beside its Redis twin; this process always the leader.
 */
import { NoAsks } from './memory-asks';
import { MemoryBroker } from './memory-broker';
import { MemoryBudget } from './memory-budget';
import { MemoryCache } from './memory-cache';
import { SoloLeader } from './memory-leader';
import { MemoryRecord } from './memory-record';
import { MemoryQuoteState } from './memory-state';
import type { Engine } from './types';

export function createMemoryEngine(options: { bufferSize?: number; cacheBytes?: number } = {}): Engine {
  return {
    broker: new MemoryBroker(),
    state: new MemoryQuoteState(options.bufferSize),
    record: new MemoryRecord(),
    cache: new MemoryCache(options.cacheBytes),
    asks: new NoAsks(),
    budget: new MemoryBudget(),
    leader: new SoloLeader(),
    async close() {},
  };
}
