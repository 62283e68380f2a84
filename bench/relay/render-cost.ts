/**
 * Relay bench, the render endpoint's cost (DESIGN.md §13): a relay alone in its process
 * (./render-child.ts) in front of the sandbox (in this process, where its requests are counted).
 * One request at a time: the same relay's `/v1/prices` for the 10 symbols (the baseline), the
 * board's fragment of the same symbols cached (a hit: no render), and distinct fragments (each a
 * miss that renders): the relay process's CPU per request and the latency. Then floods of distinct
 * valid queries (distinct `link` templates, then distinct symbol sets of held symbols), 50 at a
 * time: renders a second, latency, the render cache's bytes against its bound, the process's RSS
 * growth, and the upstream requests during the flood beside those of an idle spell as long after it.
 *
 * Run alone: `npx tsx bench/relay/render-cost.ts`.
 */
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { startSandbox } from '../../sandbox/server';
import { PAINT_SYMBOLS } from '../paint';
import { countRequests, printWhenRunAlone, prng, quantile, sleep } from '../util';
import { Child } from './fanout';

const UPSTREAM_KEY = 'enterprise-key:bench-render-cost';
const SYMBOLS = PAINT_SYMBOLS.join(',');

/** One request at a time. */
export interface SerialCost {
  requests: number;
  /** The relay process's CPU (user + system) per request, ms. */
  cpuMs: number;
  p50: number;
  p99: number;
  /** Renders the relay counted meanwhile. */
  renders: number;
  failed: number;
  /** One answer's size. */
  bytes: number;
}

/** A flood of distinct queries. */
export interface FloodCost {
  /** What makes the queries distinct. */
  kind: string;
  queries: number;
  concurrency: number;
  seconds: number;
  renders: number;
  rendersPerSecond: number;
  /** The relay process's CPU per render, ms. */
  cpuPerRender: number;
  p50: number;
  p99: number;
  failed: number;
  cacheBytes: number;
  cacheMaxBytes: number;
  /** The relay process's RSS (after a full GC) before and after the flood, and its peak during it. */
  rssBefore: number;
  rssAfter: number;
  rssPeak: number;
  /** Its JS heap in use after a full GC, before and after the flood (what it retains). */
  heapBefore: number;
  heapAfter: number;
  /** Upstream requests (at the sandbox: method and target) during the flood and the second after it. */
  upstream: string[];
  /** Upstream requests in an idle spell as long, right after: what the relay asks of itself. */
  upstreamIdle: string[];
  /** The machine's 1-minute load average at the end of the flood. */
  load: number;
}

export interface RenderCostResults {
  prices: SerialCost;
  hit: SerialCost;
  miss: SerialCost;
  floods: FloodCost[];
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** GET `url`: status, body bytes and ms (keep-alive, as an includer's server would ask). */
function get(url: string): Promise<{ status: number; bytes: number; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = request(url, { agent }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, ms: performance.now() - t0 }));
    });
    req.on('error', () => resolve({ status: 0, bytes: 0, ms: performance.now() - t0 }));
    req.end();
  });
}

/** The relay's own figures from `/metrics`. */
async function metrics(relay: string): Promise<{ renders: number; cacheBytes: number; cacheMaxBytes: number }> {
  const text = await (await fetch(`${relay}/metrics`)).text();
  const sum = (name: string) =>
    text
      .split('\n')
      .filter((line) => line.startsWith(`${name} `) || line.startsWith(`${name}{`))
      .reduce((total, line) => total + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
  return {
    renders: sum('relay_renders_total'),
    cacheBytes: sum('relay_render_cache_bytes'),
    cacheMaxBytes: sum('relay_render_cache_max_bytes'),
  };
}

const cpuOf = async (child: Child) => {
  const c = await child.ask<{ user: number; system: number }>({ type: 'cpu' });
  return (c.user + c.system) / 1000;
};

/** `paths` asked one at a time. */
async function serial(child: Child, relay: string, paths: string[]): Promise<SerialCost> {
  const before = await metrics(relay);
  const cpu0 = await cpuOf(child);
  const times: number[] = [];
  let failed = 0;
  let bytes = 0;
  for (const path of paths) {
    const r = await get(relay + path);
    if (r.status !== 200) failed += 1;
    times.push(r.ms);
    bytes = r.bytes;
  }
  const cpu = (await cpuOf(child)) - cpu0;
  const after = await metrics(relay);
  return {
    requests: paths.length,
    cpuMs: cpu / paths.length,
    p50: quantile(times, 0.5),
    p99: quantile(times, 0.99),
    renders: after.renders - before.renders,
    failed,
    bytes,
  };
}

/** `paths` asked `concurrency` at a time, beside an idle spell as long for the upstream's count. */
async function flood(
  child: Child,
  relay: string,
  upstream: string[],
  kind: string,
  paths: string[],
  concurrency: number,
): Promise<FloodCost> {
  const memBefore = await child.ask<{ rss: number; heapUsed: number }>({ type: 'mem' });
  const before = await metrics(relay);
  const cpu0 = await cpuOf(child);
  await child.ask({ type: 'peak' });
  const times: number[] = [];
  let failed = 0;
  let next = 0;
  const up0 = upstream.length;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < paths.length) {
        const r = await get(relay + paths[next++]!);
        if (r.status !== 200) failed += 1;
        times.push(r.ms);
      }
    }),
  );
  const wallMs = performance.now() - t0;
  const load = loadavg()[0]!;
  const cpu = (await cpuOf(child)) - cpu0;
  const { peak } = await child.ask<{ peak: number }>({ type: 'peak' });
  const after = await metrics(relay);
  await sleep(1000);
  const upstreamDuring = upstream.slice(up0);
  // The same length of doing nothing, for what the relay asks upstream of itself.
  const idle0 = upstream.length;
  await sleep(wallMs + 1000);
  const upstreamIdle = upstream.slice(idle0);
  const memAfter = await child.ask<{ rss: number; heapUsed: number }>({ type: 'mem' });
  const renders = after.renders - before.renders;
  return {
    kind,
    queries: paths.length,
    concurrency,
    seconds: wallMs / 1000,
    renders,
    rendersPerSecond: renders / (wallMs / 1000),
    cpuPerRender: renders > 0 ? cpu / renders : NaN,
    p50: quantile(times, 0.5),
    p99: quantile(times, 0.99),
    failed,
    cacheBytes: after.cacheBytes,
    cacheMaxBytes: after.cacheMaxBytes,
    rssBefore: memBefore.rss,
    rssAfter: memAfter.rss,
    rssPeak: Math.max(peak, memAfter.rss),
    heapBefore: memBefore.heapUsed,
    heapAfter: memAfter.heapUsed,
    upstream: upstreamDuring,
    upstreamIdle,
    load,
  };
}

const board = (query: Record<string, string>) => `/render/price-board?${new URLSearchParams(query)}`;

/** `n` distinct symbol lists of the 10 held symbols (2 to 10 of them, in some order). */
function symbolSets(n: number): string[] {
  const random = prng(43);
  const sets = new Set<string>();
  while (sets.size < n) {
    const ids = [...PAINT_SYMBOLS].sort(() => random() - 0.5);
    const set = ids.slice(0, 2 + Math.floor(random() * 9)).join(',');
    // The 10 in their order is the hit measured before (not a miss).
    if (set !== SYMBOLS) sets.add(set);
  }
  return [...sets];
}

export async function runRenderCost(
  log: (line: string) => void,
  opts: { serial?: number; flood?: number; concurrency?: number } = {},
): Promise<RenderCostResults> {
  const n = opts.serial ?? 200;
  const floodSize = opts.flood ?? 5000;
  const concurrency = opts.concurrency ?? 50;
  const sandbox = await startSandbox({ port: 0, market: 'open', tickMs: 0 });
  // Every request the relay makes upstream, in order.
  const upstream: string[] = [];
  const counting = countRequests(sandbox.port, (method, url) => upstream.push(`${method} ${url.split('?')[0]}`) > 0);
  const [child, ready] = await Child.start('render-child.ts', ['--expose-gc'], {
    UPSTREAM_URL: sandbox.url,
    UPSTREAM_KEY,
  });
  const relay = ready.relay as string;
  try {
    // Warm: the renderer loaded, the quotes held, the code compiled (as a relay that has served a while).
    for (let i = 0; i < 50; i++) {
      await get(`${relay}/v1/prices?symbols=${SYMBOLS}`);
      await get(relay + board({ symbols: SYMBOLS }));
      await get(relay + board({ symbols: SYMBOLS, link: `https://example.com/warm/${i}/{symbol}` }));
    }
    const prices = await serial(child, relay, Array(n).fill(`/v1/prices?symbols=${SYMBOLS}`));
    const hit = await serial(child, relay, Array(n).fill(board({ symbols: SYMBOLS })));
    const miss = await serial(
      child,
      relay,
      Array.from({ length: n }, (_, i) => board({ symbols: SYMBOLS, link: `https://example.com/miss/${i}/{symbol}` })),
    );
    log(
      `  /v1/prices ${prices.cpuMs.toFixed(2)} ms CPU; fragment hit ${hit.cpuMs.toFixed(2)} ms (${hit.renders} renders), miss ${miss.cpuMs.toFixed(2)} ms (${miss.renders} renders)`,
    );
    const floods: FloodCost[] = [];
    const links = Array.from({ length: floodSize }, (_, i) =>
      board({ symbols: SYMBOLS, link: `https://example.com/flood/${i}/{symbol}` }),
    );
    const sets = symbolSets(floodSize).map((symbols) => board({ symbols }));
    for (const [kind, paths] of [
      ['distinct link templates', links],
      ['distinct symbol sets of the held symbols', sets],
    ] as const) {
      const f = await flood(child, relay, upstream, kind, paths, concurrency);
      log(
        `  flood of ${f.queries} ${kind}: ${f.rendersPerSecond.toFixed(0)} renders/s, p99 ${f.p99.toFixed(1)} ms, cache ${f.cacheBytes}/${f.cacheMaxBytes} B, upstream ${f.upstream.length} (idle ${f.upstreamIdle.length})`,
      );
      floods.push(f);
    }
    return { prices, hit, miss, floods };
  } finally {
    child.stop();
    counting.stop();
    agent.destroy();
    await sandbox.close();
  }
}

printWhenRunAlone(import.meta.url, () => runRenderCost(console.log));
