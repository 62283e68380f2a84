/**
 * Relay bench, cluster: fan-out latency from an upstream change to receipt with the clients spread
 * over three relay processes joined by Redis, beside the same clients on one relay process (same
 * run, same sandbox, same client process); then the takeover time after SIGKILL of the leader:
 * from the kill until a survivor's /healthz says it leads, and until a change made right after the
 * kill reached a client of a survivor.
 */
import { startSandbox } from '../../sandbox/server';
import {
  startRedisServer,
  startRelayChild,
  stopAllProcesses,
  type RelayChild,
} from '../../test/helpers/cluster-processes';
import { median, until } from '../util';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { Clients, receiptsOf, type Latency } from './fanout';

/** The receipts of changes made through the upstream sandbox (the relays are other processes). */
export type ClusterLatency = Pick<
  Latency,
  'clients' | 'changes' | 'rate' | 'completeChanges' | 'receipts' | 'p50' | 'p99' | 'lastClientP99' | 'load'
>;

export interface ClusterResults {
  single: ClusterLatency;
  cluster: ClusterLatency;
  /** Per SIGKILL: ms until a new leader, and until a change made after the kill was received. */
  takeovers: { leaderMs: number; changeMs: number }[];
}

const ENV = { UPSTREAM_KEY: 'enterprise-key:bench-cluster', CLIENT_STREAMS: '100000', CLIENT_RPM: '100000' };

async function role(relay: RelayChild): Promise<string | undefined> {
  try {
    return ((await (await fetch(`${relay.url}/healthz`)).json()) as { role?: string }).role;
  } catch {
    return undefined;
  }
}

/**
 * 10 changes a second for `seconds`, made on the upstream sandbox, each price the epoch ms it was
 * made at (the clients read their latency from it), then every client's receipts.
 */
async function drive(sandboxUrl: string, clients: Clients, seconds: number, expected: number): Promise<ClusterLatency> {
  await clients.all('reset');
  const started = Date.now();
  const changes = seconds * 10;
  for (let i = 0; i < changes; i++) {
    const tick = Date.now();
    await fetch(`${sandboxUrl}/__sandbox/market`, {
      method: 'POST',
      body: JSON.stringify({ set: [{ symbol: 'usd', price: String(tick) }] }),
    });
    await sleep(Math.max(0, 100 - (Date.now() - tick)));
  }
  const rate = changes / ((Date.now() - started) / 1000);
  const { completeChanges, receipts, p50, p99, lastClientP99 } = await receiptsOf(clients, changes);
  return { clients: expected, changes, rate, completeChanges, receipts, p50, p99, lastClientP99, load: loadavg()[0]! };
}

async function leaderOf(relays: RelayChild[]): Promise<RelayChild> {
  return until(
    'one leader',
    async () => {
      const roles = await Promise.all(relays.map(role));
      return roles.filter((r) => r === 'leader').length === 1 ? relays[roles.indexOf('leader')] : undefined;
    },
    20_000,
    10,
  );
}

export async function runRelayCluster(log: (s: string) => void, clients = 900, seconds = 10): Promise<ClusterResults> {
  const sandbox = await startSandbox({ port: 0, market: 'open', tickMs: 0 });
  const reader = await Clients.start(2);
  try {
    const env = { ...ENV, UPSTREAM_URL: sandbox.url };
    log(`  one relay process: ${clients} clients, ${seconds * 10} changes at 10/s`);
    const single = await startRelayChild(env);
    const alone = await reader.connect(single.url, clients);
    const singleRun = { ...(await drive(sandbox.url, reader, seconds, clients)), clients: alone.snapshots };
    await reader.all('close');
    single.child.kill('SIGKILL');

    const redis = await startRedisServer();
    const relays = await Promise.all([1, 2, 3].map(() => startRelayChild({ ...env, REDIS_URL: redis.url })));
    await leaderOf(relays);
    log(`  three relay processes + Redis: ${clients} clients (${clients / 3} each), the same changes`);
    // Every member serves the catalog once the new leader has fetched it into Redis.
    for (const relay of relays)
      await until(
        'the shared catalog',
        async () => ((await fetch(`${relay.url}/v1/symbols`)).ok ? true : undefined),
        20_000,
        50,
      );
    // The client processes count since their last close: the last answer holds all three members'.
    let connected = { snapshots: 0, failed: 0 };
    for (const relay of relays) connected = await reader.connect(relay.url, clients / 3);
    const clusterRun = { ...(await drive(sandbox.url, reader, seconds, clients)), clients: connected.snapshots };
    await reader.all('close');

    log('  takeover: SIGKILL of the leader, twice');
    const takeovers: ClusterResults['takeovers'] = [];
    let alive = relays;
    for (let round = 0; round < 2; round++) {
      const leader = await leaderOf(alive);
      alive = alive.filter((r) => r !== leader);
      await reader.connect(alive[0]!.url, 1);
      await reader.all('reset');
      const killedAt = Date.now();
      leader.child.kill('SIGKILL');
      // A change made at the kill: its price is the epoch ms, so the client's receipt gives the delay.
      await fetch(`${sandbox.url}/__sandbox/market`, {
        method: 'POST',
        body: JSON.stringify({ set: [{ symbol: 'usd', price: String(killedAt) }] }),
      });
      await leaderOf(alive);
      const leaderMs = Date.now() - killedAt;
      const got = await until(
        'the change after the kill',
        async () => {
          const s = await reader.stats();
          return s.changes.size >= 1 ? s : undefined;
        },
        20_000,
        10,
      );
      takeovers.push({ leaderMs, changeMs: Math.max(...[...got.changes.values()].map((c) => c.max)) });
      await reader.all('close');
    }
    return { single: singleRun, cluster: clusterRun, takeovers };
  } finally {
    reader.stop();
    await stopAllProcesses();
    await sandbox.close();
  }
}

export function clusterSummary(r: ClusterResults): { takeoverMs: number; changeMs: number } {
  return {
    takeoverMs: median(r.takeovers.map((t) => t.leaderMs)),
    changeMs: median(r.takeovers.map((t) => t.changeMs)),
  };
}
