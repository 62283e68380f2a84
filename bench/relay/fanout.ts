/**
 * Relay bench, fan-out: stream clients held by one relay process (1k, 5k, 10k; the clients in a
 * separate process), relay memory per idle client, p50/p99 latency from an upstream change to
 * receipt at 10 changes/s, and the upstream requests spent meanwhile. Baseline, same run: the
 * same clients on the sandbox's own stream fan-out (its memory and latency).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { sleep, until, type SandboxStats } from '../util';

const HERE = import.meta.dirname;
const RELAY_KEY = 'basic-key:bench-relay';

export interface FanoutPoint {
  clients: number;
  connected: number;
  failed: number;
  rssPerClient: number;
  heapPerClient: number;
}
export interface Latency {
  clients: number;
  changes: number;
  completeChanges: number;
  receipts: number;
  p50: number;
  p99: number;
  /** p99 over changes of the time until the last client had it. */
  lastClientP99: number;
  /** The relay's own mean time from receiving a change to having written it to every client (its /metrics). */
  relayWriteMs?: number;
}
export interface FanoutResults {
  relay: { points: FanoutPoint[]; latency: Latency[] };
  sandbox: { points: FanoutPoint[]; latency: Latency[] };
  upstream: { requests: number; seconds: number; peakPerMinute: number; planPerMinute: number; share: number };
  gc: boolean;
}

/** A forked child speaking request/answer over IPC. */
class Child {
  private readonly waiting: Array<(m: { type: string } & Record<string, unknown>) => void> = [];
  constructor(readonly proc: ChildProcess) {
    proc.on('message', (m: { type: string }) => this.waiting.shift()?.(m as { type: string } & Record<string, unknown>));
  }
  static async start(file: string, execArgv: string[] = [], env: Record<string, string> = {}): Promise<[Child, Record<string, unknown>]> {
    const child = new Child(fork(resolve(HERE, file), [], { execArgv: ['--import', 'tsx', ...execArgv], env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
    return [child, await child.next()];
  }
  next(): Promise<{ type: string } & Record<string, unknown>> {
    return new Promise((r) => this.waiting.push(r));
  }
  ask<T>(message: object): Promise<T> {
    const answer = this.next();
    this.proc.send(message);
    return answer as Promise<T>;
  }
  stop(): void {
    this.proc.kill();
  }
}

async function memory(server: Child): Promise<{ rss: number; heapUsed: number; gc: boolean }> {
  return server.ask({ type: 'mem' });
}

/**
 * Connects clients up to each count, measuring the server's memory per client at each, and the
 * fan-out latency at the first and the last count.
 */
async function hold(server: Child, clients: Child, url: string, counts: number[], measure: (count: number) => Promise<Latency>, keyPrefix?: string): Promise<{ points: FanoutPoint[]; latency: Latency[] }> {
  const base = await memory(server);
  const points: FanoutPoint[] = [];
  const latency: Latency[] = [];
  let total = 0;
  for (const count of counts) {
    const answer = await clients.ask<{ total: number; snapshots: number; failed: number }>({ type: 'connect', url, symbols: 'usd,eur', count: count - total, keyPrefix });
    total = count;
    await sleep(500); // let the last writes leave before measuring
    const mem = await memory(server);
    points.push({ clients: count, connected: answer.snapshots, failed: answer.failed, rssPerClient: (mem.rss - base.rss) / count, heapPerClient: (mem.heapUsed - base.heapUsed) / count });
    if (count === counts[0] || count === counts.at(-1)) latency.push(await measure(count));
  }
  return { points, latency };
}

/** Sum and count of the relay's fan-out lag histogram. */
async function relayLag(relayUrl: string): Promise<{ sum: number; count: number }> {
  const text = await (await fetch(`${relayUrl}/metrics`)).text();
  const read = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { sum: read('relay_fanout_lag_seconds_sum'), count: read('relay_fanout_lag_seconds_count') };
}

/** 10 changes a second for `seconds`, each price the epoch ms it was made at. */
async function drive(sandboxUrl: string, clients: Child, seconds: number, expected: number): Promise<Latency> {
  await clients.ask({ type: 'reset' });
  for (let i = 0; i < seconds * 10; i++) {
    const tick = Date.now();
    await fetch(`${sandboxUrl}/__sandbox/market`, { method: 'POST', body: JSON.stringify({ set: [{ symbol: 'usd', price: String(tick) }] }) });
    await sleep(Math.max(0, 100 - (Date.now() - tick)));
  }
  const stats = await until(
    'every client to get the last change',
    async () => {
      const s = await clients.ask<Latency & { changes: number }>({ type: 'stats' });
      return s.completeChanges >= seconds * 10 ? s : undefined;
    },
    10_000,
    250,
  ).catch(async () => clients.ask<Latency>({ type: 'stats' }));
  return { ...stats, clients: expected };
}

function peakPerMinute(times: number[]): number {
  let peak = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i]! - times[j]! >= 60_000) j++;
    peak = Math.max(peak, i - j + 1);
  }
  return peak;
}

export async function runRelayFanout(log: (s: string) => void, counts = [1_000, 5_000, 10_000], seconds = 10): Promise<FanoutResults> {
  const started = Date.now();
  const [server, ready] = await Child.start('server-child.ts', ['--expose-gc'], { BENCH_RELAY_KEY: RELAY_KEY });
  const [clients] = await Child.start('clients-child.ts');
  try {
    const sandboxUrl = ready.sandbox as string;
    const relayUrl = ready.relay as string;
    log(`  relay: holding ${counts.join(' / ')} clients; ${seconds * 10} changes at 10/s at ${counts[0]} and ${counts.at(-1)}`);
    const relayRun = await hold(server, clients, relayUrl, counts, async (count) => {
      const before = await relayLag(relayUrl);
      const latency = await drive(sandboxUrl, clients, seconds, count);
      const after = await relayLag(relayUrl);
      return { ...latency, relayWriteMs: ((after.sum - before.sum) / Math.max(1, after.count - before.count)) * 1000 };
    });
    await clients.ask({ type: 'close' });
    const stats = (await (await fetch(`${sandboxUrl}/__sandbox/stats`)).json()) as SandboxStats;
    const spent = stats.requests.filter((r) => r.key === RELAY_KEY).map((r) => (typeof r.at === 'number' ? r.at : Date.parse(String(r.at))));
    const upstream = { requests: spent.length, seconds: Math.round((Date.now() - started) / 1000), peakPerMinute: peakPerMinute(spent), planPerMinute: 30, share: 0.8 };

    await until('relay clients gone', async () => ((await (await fetch(`${relayUrl}/healthz`)).json()) as { clients: number }).clients === 0 || undefined, 20_000, 200);
    log(`  baseline: the sandbox's own stream with the same clients`);
    const sandboxRun = await hold(server, clients, sandboxUrl, counts, (count) => drive(sandboxUrl, clients, seconds, count), 'enterprise-key:bench-direct-');
    await clients.ask({ type: 'close' });
    const gc = (await memory(server)).gc;
    return { relay: relayRun, sandbox: sandboxRun, upstream, gc };
  } finally {
    server.stop();
    clients.stop();
  }
}
