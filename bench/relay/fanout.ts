/**
 * Relay bench, fan-out: stream clients held by one relay process (1k, 5k, 10k; the clients in
 * separate processes), relay memory per idle client, p50/p99 latency from an upstream change to
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
  /** Changes a second on the schedule (10 asked). */
  rate: number;
  /** Changes the server process made more than 10 ms after they were due (it was busy); each still dated when due. */
  late: number;
  completeChanges: number;
  /** Receipts counted, of `changes × clients` expected. */
  receipts: number;
  p50: number;
  p99: number;
  /** p99 over changes of the time until the last client had it. */
  lastClientP99: number;
  /** Per change, ms, p50/p99: change → the relay has it (relay only). */
  upstream?: [number, number];
  /** Per change, ms, p50/p99: the server's own time from having the change to having written it to every client. */
  write: [number, number];
  /** The server process's CPU time per change, ms (all of it during the changes, divided by their number). */
  cpuPerChange: number;
  /** The same, user and system (kernel: the socket writes, and on loopback the receiver's side of them) apart. */
  cpuSplit: { user: number; system: number };
  /** Shares of one core used during the changes: the server process, and the client processes together. */
  serverCpu: number;
  clientsCpu: number;
  clientProcesses: number;
  /** 1-minute load average at the end of the changes. */
  load: number;
}
/** What the server process answers to `drive`. */
export interface DriveResult {
  changes: number;
  /** Changes a second on the schedule. */
  rate: number;
  /** Changes made more than 10 ms after they were due. */
  late: number;
  /** Per change, ms: change → the relay has it (relay only). */
  upstream: number[];
  /** Per change, ms: the server's own time until it has written the change to every client. */
  write: number[];
  /** This process's CPU time meanwhile, ms, user and system (kernel) apart. */
  cpu: { user: number; system: number };
  /** Share of one core this process used meanwhile, over `seconds`. */
  cpuShare: number;
  seconds: number;
  load: number;
}

export interface FanoutResults {
  relay: { points: FanoutPoint[]; latency: Latency[] };
  sandbox: { points: FanoutPoint[]; latency: Latency[] };
  /**
   * The bare server (floor-child.ts) at the first and the last count, one write per client per
   * change; and at the last count writing the changes that fell due together in one write per client.
   */
  floor: { latency: Latency[]; merged?: Latency };
  upstream: { requests: number; seconds: number; peakPerMinute: number; planPerMinute: number; share: number };
  gc: boolean;
}

/** A forked child (a file of bench/relay/) speaking request/answer over IPC. */
export class Child {
  readonly #waiting: Array<{
    resolve: (m: { type: string } & Record<string, unknown>) => void;
    reject: (e: Error) => void;
  }> = [];

  constructor(readonly proc: ChildProcess) {
    proc.on('message', (m: { type: string }) =>
      this.#waiting.shift()?.resolve(m as { type: string } & Record<string, unknown>),
    );
    // A child that dies (a bad configuration, a crash) fails its questions instead of leaving them open.
    proc.on('exit', (code, signal) => {
      for (const w of this.#waiting.splice(0)) w.reject(new Error(`bench child exited (${signal ?? code})`));
    });
  }
  static async start(
    file: string,
    execArgv: string[] = [],
    env: Record<string, string> = {},
  ): Promise<[Child, Record<string, unknown>]> {
    const child = new Child(
      fork(resolve(HERE, file), [], {
        execArgv: ['--import', 'tsx', ...execArgv],
        env: { ...process.env, ...env },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      }),
    );
    return [child, await child.next()];
  }
  next(): Promise<{ type: string } & Record<string, unknown>> {
    return new Promise((resolve, reject) => this.#waiting.push({ resolve, reject }));
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

/** The client processes, each holding an equal share of the sockets, asked together. */
export class Clients {
  #total = 0;
  readonly #children: Child[];

  constructor(children: Child[]) {
    this.#children = children;
  }
  static async start(processes: number): Promise<Clients> {
    return new Clients(
      await Promise.all(Array.from({ length: processes }, async () => (await Child.start('clients-child.ts'))[0])),
    );
  }
  get processes(): number {
    return this.#children.length;
  }
  async connect(url: string, count: number, keyPrefix?: string): Promise<{ snapshots: number; failed: number }> {
    const n = this.#children.length;
    const answers = await Promise.all(
      this.#children.map((c, i) => {
        const share = Math.floor(count / n) + (i < count % n ? 1 : 0);
        const first = this.#total + i * Math.ceil(count / n);
        return c.ask<{ snapshots: number; failed: number }>({
          type: 'connect',
          url,
          symbols: 'usd,eur',
          count: share,
          first,
          keyPrefix,
        });
      }),
    );
    this.#total += count;
    return { snapshots: sum(answers.map((a) => a.snapshots)), failed: sum(answers.map((a) => a.failed)) };
  }
  async all(type: 'reset' | 'close'): Promise<void> {
    if (type === 'close') this.#total = 0;
    await Promise.all(this.#children.map((c) => c.ask({ type })));
  }
  /** Every process's receipts merged: one histogram, and per change its receipts and slowest one. */
  async stats(): Promise<{
    snapshots: number;
    histogram: Uint32Array;
    changes: Map<number, { count: number; max: number }>;
    cpu: number;
  }> {
    type Stats = {
      snapshots: number;
      histogram: [number, number][];
      changes: [number, number, number][];
      cpuShare: number;
    };
    const all = await Promise.all(this.#children.map((c) => c.ask<Stats>({ type: 'stats' })));
    const histogram = new Uint32Array(10_001);
    const changes = new Map<number, { count: number; max: number }>();
    for (const s of all) {
      for (const [at, n] of s.histogram) histogram[at]! += n;
      for (const [t0, count, max] of s.changes) {
        const c = changes.get(t0) ?? { count: 0, max: 0 };
        changes.set(t0, { count: c.count + count, max: Math.max(c.max, max) });
      }
    }
    return { snapshots: sum(all.map((s) => s.snapshots)), histogram, changes, cpu: sum(all.map((s) => s.cpuShare)) };
  }
  stop(): void {
    for (const c of this.#children) c.stop();
  }
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

function percentile(h: Uint32Array, p: number): number {
  const total = sum([...h]);
  let seen = 0;
  for (let i = 0; i < h.length; i++) {
    seen += h[i]!;
    if (seen >= total * p) return i;
  }
  return NaN;
}

/** p50 and p99 of a list of ms. */
function p50p99(xs: number[]): [number, number] {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.ceil(s.length * p) - 1)] ?? NaN;
  return [at(0.5), at(0.99)];
}

/**
 * Connects clients up to each count, measuring the server's memory per client at each, and the
 * fan-out latency at the first and the last count.
 */
async function hold(
  server: Child,
  clients: Clients,
  url: string,
  counts: number[],
  measure: (count: number) => Promise<Latency>,
  keyPrefix?: string,
): Promise<{ points: FanoutPoint[]; latency: Latency[] }> {
  const base = await memory(server);
  const points: FanoutPoint[] = [];
  const latency: Latency[] = [];
  let total = 0;
  for (const count of counts) {
    const answer = await clients.connect(url, count - total, keyPrefix);
    total = count;
    await sleep(500); // let the last writes leave before measuring
    const mem = await memory(server);
    points.push({
      clients: count,
      connected: answer.snapshots,
      failed: answer.failed,
      rssPerClient: (mem.rss - base.rss) / count,
      heapPerClient: (mem.heapUsed - base.heapUsed) / count,
    });
    if (count === counts[0] || count === counts.at(-1)) latency.push(await measure(count));
  }
  return { points, latency };
}

/** What every client received of `changes` changes: waits until each reached every client (10 s at most). */
export async function receiptsOf(clients: Clients, changes: number) {
  const complete = (s: Awaited<ReturnType<Clients['stats']>>) =>
    [...s.changes.values()].filter((c) => c.count >= s.snapshots);
  const stats = await until(
    'every client to get the last change',
    async () => {
      const s = await clients.stats();
      return complete(s).length >= changes ? s : undefined;
    },
    10_000,
    250,
  ).catch(() => clients.stats());
  const slowest = new Uint32Array(10_001);
  for (const c of complete(stats)) slowest[Math.min(10_000, c.max)]! += 1;
  return {
    completeChanges: complete(stats).length,
    receipts: sum([...stats.histogram]),
    p50: percentile(stats.histogram, 0.5),
    p99: percentile(stats.histogram, 0.99),
    lastClientP99: percentile(slowest, 0.99),
    clientsCpu: stats.cpu,
    clientProcesses: clients.processes,
  };
}

/** 10 changes a second for `seconds` (made in the server process), then every client's receipts. */
async function drive(
  server: Child,
  clients: Clients,
  target: 'relay' | 'sandbox' | 'floor' | 'floor-merged',
  seconds: number,
  expected: number,
): Promise<Latency> {
  await clients.all('reset');
  const driven = await server.ask<DriveResult>({ type: 'drive', target, seconds, perSecond: 10 });
  return {
    clients: expected,
    changes: driven.changes,
    rate: driven.rate,
    late: driven.late,
    ...(await receiptsOf(clients, driven.changes)),
    upstream: target === 'relay' ? p50p99(driven.upstream) : undefined,
    write: p50p99(driven.write),
    cpuPerChange: (driven.cpu.user + driven.cpu.system) / driven.changes,
    cpuSplit: { user: driven.cpu.user / driven.changes, system: driven.cpu.system / driven.changes },
    serverCpu: driven.cpuShare,
    load: driven.load,
  };
}

function peakPerMinute(times: number[]): number {
  let peak = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i]! - times[j]! >= 60_000) j++;
    peak = Math.max(peak, i - j + 1);
  }
  return peak;
}

export interface FanoutOptions {
  counts?: number[];
  seconds?: number;
  /** The clients' sockets are spread over this many processes (each reads its share). */
  clientProcesses?: number;
  /** Measure the sandbox's own stream too (a diagnostic run may skip it). */
  baseline?: boolean;
}

export async function runRelayFanout(log: (s: string) => void, options: FanoutOptions = {}): Promise<FanoutResults> {
  const { counts = [1_000, 5_000, 10_000], seconds = 10, clientProcesses = 4, baseline = true } = options;
  const started = Date.now();
  // BENCH_TRACE_GC=1: the server's collections on stderr (a debugging aid: are pauses GC?).
  const [server, ready] = await Child.start(
    'server-child.ts',
    ['--expose-gc', ...(process.env.BENCH_TRACE_GC ? ['--trace-gc'] : [])],
    { BENCH_RELAY_KEY: RELAY_KEY },
  );
  const clients = await Clients.start(clientProcesses);
  let floorServer: Child | undefined;
  try {
    const sandboxUrl = ready.sandbox as string;
    const relayUrl = ready.relay as string;
    // The floor writes the relay's own frame: the quote as the relay serializes it.
    const usd = ((await (await fetch(`${relayUrl}/v1/prices?symbols=usd`)).json()) as { data: { quotes: unknown[] } })
      .data.quotes[0];
    const [floorChild, floorReady] = await Child.start('floor-child.ts', ['--expose-gc'], {
      BENCH_FLOOR_QUOTE: JSON.stringify(usd),
    });
    floorServer = floorChild;
    const floorUrl = floorReady.url as string;
    log(
      `  relay: holding ${counts.join(' / ')} clients in ${clientProcesses} processes; ${seconds * 10} changes at 10/s at ${counts[0]} and ${counts.at(-1)}`,
    );
    const relayRun = await hold(server, clients, relayUrl, counts, (count) =>
      drive(server, clients, 'relay', seconds, count),
    );
    await clients.all('close');
    const stats = (await (await fetch(`${sandboxUrl}/__sandbox/stats`)).json()) as SandboxStats;
    const spent = stats.requests
      .filter((r) => r.key === RELAY_KEY)
      .map((r) => (typeof r.at === 'number' ? r.at : Date.parse(String(r.at))));
    const upstream = {
      requests: spent.length,
      seconds: Math.round((Date.now() - started) / 1000),
      peakPerMinute: peakPerMinute(spent),
      planPerMinute: 30,
      share: 0.8,
    };

    await until(
      'relay clients gone',
      async () =>
        ((await (await fetch(`${relayUrl}/healthz`)).json()) as { clients: number }).clients === 0 || undefined,
      20_000,
      200,
    );
    // Next to the relay's run, so that the two are measured under the nearest load.
    log(`  floor: a bare node:http SSE server writing the same frame to the same clients`);
    const floorRun = await hold(floorChild, clients, floorUrl, [counts[0]!, counts.at(-1)!], (count) =>
      drive(floorChild, clients, 'floor', seconds, count),
    );
    const floor = {
      latency: floorRun.latency,
      merged: await drive(floorChild, clients, 'floor-merged', seconds, counts.at(-1)!),
    };
    await clients.all('close');
    floorChild.stop();
    if (!baseline)
      return { relay: relayRun, sandbox: { points: [], latency: [] }, floor, upstream, gc: (await memory(server)).gc };
    log(`  baseline: the sandbox's own stream with the same clients`);
    const sandboxRun = await hold(
      server,
      clients,
      sandboxUrl,
      counts,
      (count) => drive(server, clients, 'sandbox', seconds, count),
      'enterprise-key:bench-direct-',
    );
    await clients.all('close');
    const gc = (await memory(server)).gc;
    return { relay: relayRun, sandbox: sandboxRun, floor, upstream, gc };
  } finally {
    server.stop();
    floorServer?.stop();
    clients.stop();
  }
}
