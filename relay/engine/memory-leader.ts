/** The leader of one process (see `redis-leader.ts` for a cluster's). */
import type { Leader } from './types';

/** One process is always the leader. */
export class SoloLeader implements Leader {
  readonly isLeader = true;
  onChange(): () => void {
    return () => {};
  }
  async close(): Promise<void> {}
}
