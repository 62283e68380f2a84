// Helpers of the cluster tests: relay processes (the real command, as an operator runs it) that a
// test can kill, pause and ask about their role, on a private redis-server. Every process started
// here is stopped by `stopAll()` (afterEach/afterAll), so none outlives its test.
import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach } from 'vitest';
import { startRedisServer, startRelayChild, stopAllProcesses, type RedisServer } from '../helpers/cluster-processes';
import { start, type StartedSandbox } from '../sandbox/helpers';
import { get, until, type Stream } from './helpers';

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

/** What each test of a cluster file gets afresh: the sandbox as the upstream, a private Redis, its streams. */
export interface ClusterBed {
  sandbox: StartedSandbox;
  redis: RedisServer;
  /** Streams the test opened: closed after it. */
  streams: Stream[];
  /** Relay processes on them (`env` adds to their configuration), each spending under `enterprise-key:<name>`. */
  relays(names: readonly string[], env?: Record<string, string>): Promise<RelayProcess[]>;
}

/** A {@link ClusterBed} per test of the calling file (its hooks registered here); everything stopped after. */
export function clusterBed(): ClusterBed {
  const bed: ClusterBed = {
    sandbox: undefined as unknown as StartedSandbox,
    redis: undefined as unknown as RedisServer,
    streams: [],
    relays: (names, env = {}) =>
      Promise.all(
        names.map((name) =>
          startRelayProcess({
            REDIS_URL: bed.redis.url,
            UPSTREAM_URL: bed.sandbox.url,
            UPSTREAM_KEY: `enterprise-key:${name}`,
            ...env,
          }),
        ),
      ),
  };
  beforeEach(async () => {
    bed.sandbox = await start();
    bed.redis = await startRedisServer();
  }, 90_000);
  afterEach(async () => {
    for (const s of bed.streams.splice(0)) s.close();
    await stopAllProcesses();
    await bed.sandbox.close();
  });
  return bed;
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

/** A network path to Redis that a test can silence. */
export interface SilentPath {
  /** A Redis URL through the path. */
  url: string;
  /**
   * The connections open now carry nothing more, either way, and stay open, as through a NAT or
   * firewall that forgot them: no reset, no close reaches either side. Connections made later pass,
   * unless `alsoNew`: then they are made (TCP answers) and as silent, until `speak()`.
   */
  silence(options?: { alsoNew?: boolean }): void;
  /** Connections made from now on pass again (those silenced stay silent). */
  speak(): void;
  /** How many connections were made silent from their start. */
  readonly silencedNew: number;
  close(): Promise<void>;
}

/** A TCP relay of bytes on loopback to `port` (a real path: the relays connect through it). */
export async function startSilentPath(port: number): Promise<SilentPath> {
  const pairs = new Set<{ near: Socket; far: Socket; silent: boolean }>();
  /** Every socket of the path, silenced ones whose other side went included: all closed by close(). */
  const sockets = new Set<Socket>();
  let silentFromStart = false;
  let silencedNew = 0;
  const server = createServer((near) => {
    const far = connect(port, '127.0.0.1');
    const pair = { near, far, silent: silentFromStart };
    if (pair.silent) silencedNew++;
    pairs.add(pair);
    for (const s of [near, far]) sockets.add(s);
    near.on('data', (data) => {
      if (!pair.silent) far.write(data);
    });
    far.on('data', (data) => {
      if (!pair.silent) near.write(data);
    });
    const end = () => {
      pairs.delete(pair);
      // A silenced path tells neither side that the other went.
      if (!pair.silent) for (const s of [near, far]) s.destroy();
    };
    for (const s of [near, far]) s.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`,
    silence: (options) => {
      for (const pair of pairs) pair.silent = true;
      silentFromStart = !!options?.alsoNew;
    },
    speak: () => {
      silentFromStart = false;
    },
    get silencedNew() {
      return silencedNew;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
