// Helpers of the cluster tests: a private redis-server on a free port and relay processes (the real
// command, as an operator runs it) that a test can kill, pause and restart. Every process started
// here is stopped by `stopAll()` (afterEach), so no redis-server or relay outlives its test.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { get, until } from './helpers';

const BIN = fileURLToPath(new URL('../../bin/price-board-relay.js', import.meta.url));
const started = new Set<ChildProcess>();

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function launch(command: string, args: string[], env: Record<string, string> = {}): { child: ChildProcess; out: () => string } {
  const child = spawn(command, args, { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  child.on('exit', () => started.delete(child));
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  return { child, out: () => out };
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

export interface RedisServer {
  url: string;
  port: number;
  /** Stops it (its data is gone: no persistence). */
  stop(): Promise<void>;
  /** Starts it again, empty, on the same port. */
  restart(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  let current: ChildProcess;
  const boot = async (): Promise<void> => {
    const redis = launch('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']);
    current = redis.child;
    await until(() => redis.out().includes('Ready to accept connections') || (current.exitCode !== null && fail(redis.out())), 10_000);
  };
  await boot();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      current.kill('SIGKILL');
      await exited(current);
    },
    restart: boot,
  };
}

function fail(out: string): never {
  throw new Error(`process exited: ${out.slice(-500)}`);
}

export interface RelayProcess {
  url: string;
  child: ChildProcess;
  /** Everything it printed (JSON log lines). */
  out(): string;
  health(): Promise<{ status: number; role?: string; redis?: string }>;
  /** One gauge or counter line of /metrics (summed over labels), or undefined. */
  metric(name: string): Promise<number | undefined>;
  kill(signal: NodeJS.Signals): void;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
}

export async function startRelayProcess(env: Record<string, string>): Promise<RelayProcess> {
  const relay = launch(process.execPath, [BIN], { PORT: '0', ...env });
  const url = await until(() => /Price relay: (http:\/\/\S+)/.exec(relay.out())?.[1] ?? (relay.child.exitCode !== null && fail(relay.out())), 60_000);
  return {
    url,
    child: relay.child,
    out: relay.out,
    async health() {
      const answer = await get(url, '/healthz');
      const body = JSON.parse(answer.body) as { role?: string; redis?: string };
      return { status: answer.status, role: body.role, redis: body.redis };
    },
    async metric(name) {
      const text = (await get(url, '/metrics')).body;
      const lines = text.split('\n').filter((l) => l.startsWith(name) && /^[a-z_]+(\{[^}]*\})? /.test(l) && l.split(/[{ ]/)[0] === name);
      return lines.length ? lines.reduce((sum, l) => sum + Number(l.split(' ').pop()), 0) : undefined;
    },
    kill: (signal) => relay.child.kill(signal),
    async stop() {
      relay.child.kill('SIGCONT');
      relay.child.kill('SIGTERM');
      await exited(relay.child);
    },
  };
}

/** The one process whose /healthz says it leads, once exactly one of `relays` does. */
export async function leaderOf(relays: RelayProcess[], timeoutMs = 10_000): Promise<RelayProcess> {
  return until(async () => {
    const roles = await Promise.all(relays.map((r) => r.health().then((h) => h.role).catch(() => undefined)));
    const leaders = relays.filter((_, i) => roles[i] === 'leader');
    return leaders.length === 1 && leaders[0];
  }, timeoutMs);
}

/** Kills every process the tests started here (relays, redis-servers) and waits for them. */
export async function stopAll(): Promise<void> {
  const children = [...started];
  for (const child of children) {
    child.kill('SIGCONT');
    child.kill('SIGKILL');
  }
  await Promise.all(children.map(exited));
}
