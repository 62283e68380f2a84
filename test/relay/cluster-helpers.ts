// Helpers of the cluster tests: relay processes (the real command, as an operator runs it) that a
// test can kill, pause and ask about their role, on a private redis-server. Every process started
// here is stopped by `stopAll()` (afterEach/afterAll), so none outlives its test.
import { startRedisServer, startRelayChild, stopAllProcesses, type RedisServer } from '../helpers/cluster-processes';
import { get, until } from './helpers';

export type { RedisServer };
export const startRedis = startRedisServer;
export const stopAll = stopAllProcesses;

export interface RelayProcess {
  url: string;
  health(): Promise<{ status: number; role?: string; redis?: string }>;
  /** A gauge or counter of /metrics (summed over its labels), or undefined. */
  metric(name: string): Promise<number | undefined>;
  kill(signal: NodeJS.Signals): void;
}

export async function startRelayProcess(env: Record<string, string>): Promise<RelayProcess> {
  const { url, child } = await startRelayChild(env);
  return {
    url,
    async health() {
      const answer = await get(url, '/healthz');
      const body = JSON.parse(answer.body) as { role?: string; redis?: string };
      return { status: answer.status, role: body.role, redis: body.redis };
    },
    async metric(name) {
      const lines = (await get(url, '/metrics')).body.split('\n').filter((l) => l.split(/[{ ]/)[0] === name);
      return lines.length ? lines.reduce((sum, l) => sum + Number(l.split(' ').pop()), 0) : undefined;
    },
    kill: (signal) => child.kill(signal),
  };
}

/** The one process whose /healthz says it leads, once exactly one of `relays` does. */
export async function leaderOf(relays: RelayProcess[], timeoutMs = 10_000): Promise<RelayProcess> {
  return until(async () => {
    const roles = await Promise.all(
      relays.map((r) =>
        r
          .health()
          .then((h) => h.role)
          .catch(() => undefined),
      ),
    );
    const leaders = relays.filter((_, i) => roles[i] === 'leader');
    return leaders.length === 1 && leaders[0];
  }, timeoutMs);
}
