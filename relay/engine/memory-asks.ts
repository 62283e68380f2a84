/** Asks of one process (see `redis-asks.ts` for a cluster's). */
import type { AskOutcome, Asks } from './types';

/** One process is always the leader: nobody else to ask. */
export class NoAsks implements Asks {
  async ask(): Promise<AskOutcome | undefined> {
    return undefined;
  }
  serve(): () => void {
    return () => {};
  }
  want(): void {}
  onWanted(): () => void {
    return () => {};
  }
}
