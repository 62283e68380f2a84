/** The relay section's rows (DESIGN.md §6, "Relay"), each beside its same-run baseline. */
import { kb } from '../report-format';
import type { Row } from '../row';
import { round } from '../util';
import type { BotnetResults } from './botnet';
import type { CatalogResults } from './catalog';
import { clusterSummary, type ClusterResults } from './cluster';
import type { FanoutResults, Latency } from './fanout';
import type { PagesResults } from './pages';

export interface RelayResults {
  fanout?: FanoutResults;
  pages?: PagesResults;
  cluster?: ClusterResults;
  botnet?: BotnetResults;
  catalog?: CatalogResults;
}

/** A latency figure with how it was taken: every receipt of every client counts. */
const latency = (l: Latency) =>
  `p50 ${l.p50} ms, p99 ${l.p99} ms over all ${l.receipts} receipts (${l.changes} changes × ${l.clients} clients at ${round(l.rate, 1)} changes/s, ${l.late} made late by a busy server, each dated when due); last client p99 ${l.lastClientP99} ms; ${l.completeChanges}/${l.changes} changes reached all; load average ${round(l.load, 1)}; CPU (cores) server ${round(l.serverCpu, 2)}, ${l.clientProcesses} client processes ${round(l.clientsCpu, 2)}`;

/** CPU per change of a server process, user and system (kernel) apart. */
const cpu = (l: Latency) =>
  `server CPU ${round(l.cpuPerChange, 1)} ms per change: user ${round(l.cpuSplit.user, 1)}, system ${round(l.cpuSplit.system, 1)}; ${round((l.cpuPerChange * 1000) / l.clients, 1)} µs per client`;

/** A floor in a baseline cell: its figure beside the relay's, same clients, same run. */
const floorCell = (name: string, l: Latency | undefined) =>
  l
    ? `${name}: p50 ${l.p50} ms, p99 ${l.p99} ms, ${l.late}/${l.changes} changes made late, load ${round(l.load, 1)}; ${cpu(l)}`
    : '';

/**
 * DESIGN.md §6: fan-out p99 at 10,000 clients ≤ 0.8 × the floor's (a bare node:http server, the
 * changes due together merged, same run), and ≤ 100 ms where the machine is quiet: where that
 * floor itself reaches every client within 100 ms (then 0.8 × the floor is below 100 ms anyway).
 */
const FANOUT_FLOOR_RATIO = 0.8;
const fanoutTarget = (merged: { p99: number } | undefined): string =>
  `p99 ≤ ${FANOUT_FLOOR_RATIO} × the floor writing changes due together${merged ? ` (${Math.round(FANOUT_FLOOR_RATIO * merged.p99)} ms)` : ''}; ≤ 100 ms where the machine is quiet (that floor's p99 ≤ 100 ms${merged ? `; here ${merged.p99} ms` : ''})`;
const fanoutMet = (
  l: { p99: number; completeChanges: number; changes: number; rate: number },
  merged: { p99: number } | undefined,
): boolean =>
  !!merged &&
  l.p99 <= FANOUT_FLOOR_RATIO * merged.p99 &&
  (merged.p99 > 100 || l.p99 <= 100) &&
  l.completeChanges === l.changes &&
  l.rate >= 9.5;

export function relayRows(
  r: RelayResults | undefined,
  failed: (section: string, metric: string, target: string) => void,
): Row[] {
  const rows: Row[] = [];
  const f = r?.fanout;
  if (f) {
    for (const [i, p] of f.relay.points.entries()) {
      const base = f.sandbox.points[i];
      rows.push({
        section: 'relay',
        metric: `stream clients held by one relay process (${p.clients})`,
        measured: `${p.connected} served${p.failed ? `, ${p.failed} failed` : ''}; ${kb(p.rssPerClient)} RSS, ${kb(p.heapPerClient)} heap per client`,
        baseline: base
          ? `sandbox stream: ${base.connected} served; ${kb(base.rssPerClient)} RSS, ${kb(base.heapPerClient)} heap per client`
          : '',
        target: p.clients >= 10_000 ? '≥ 10,000; ≤ 16 KB per idle client' : '(step)',
        verdict:
          p.clients >= 10_000 ? (p.connected >= 10_000 && p.rssPerClient <= 16 * 1024 ? 'met' : 'NOT met') : 'info',
      });
    }
    for (const [i, l] of f.relay.latency.entries()) {
      const b = f.sandbox.latency[i];
      const last = i === f.relay.latency.length - 1;
      const merged = last ? f.floor.merged : undefined;
      rows.push({
        section: 'relay',
        metric: `fan-out latency, upstream change → receipt by every client, ${l.clients} clients, 10 changes/s`,
        measured: `${latency(l)}; of which change → relay p50 ${l.upstream?.[0]} / p99 ${l.upstream?.[1]} ms, relay writing to all p50 ${l.write[0]} / p99 ${l.write[1]} ms (${cpu(l)})`,
        baseline: [
          floorCell('floor (bare node:http, same frame, one write per change)', f.floor.latency[i]),
          floorCell('floor writing changes due together in one write', merged),
          b ? `sandbox stream: ${latency(b)}; writing to all p50 ${b.write[0]} / p99 ${b.write[1]} ms (${cpu(b)})` : '',
        ]
          .filter(Boolean)
          .join(' · '),
        target: last ? fanoutTarget(merged) : '(step)',
        verdict: last ? (fanoutMet(l, merged) ? 'met' : 'NOT met') : 'info',
      });
    }
    const floors = [
      ...f.floor.latency.map((l) => ({ l, merged: false })),
      ...(f.floor.merged ? [{ l: f.floor.merged, merged: true }] : []),
    ];
    for (const { l, merged } of floors) {
      rows.push({
        section: 'relay',
        metric: `FLOOR: a bare node:http SSE server (no relay logic) writing the same frame to the same ${l.clients} clients, 10 changes/s, ${merged ? 'changes due together in one write per client (as the relay)' : 'one write per client per change'}`,
        measured: `${latency(l)}; writing to all p50 ${l.write[0]} / p99 ${l.write[1]} ms (${cpu(l)})`,
        baseline:
          'what one Node process here spends to tell every client of a change: a loop of socket writes of one Buffer',
        target: "(the relay's floor)",
        verdict: 'info',
      });
    }
    const u = f.upstream;
    rows.push({
      section: 'relay',
      metric: `upstream requests while serving ${f.relay.points.at(-1)?.clients ?? 0} clients (basic plan)`,
      measured: `${u.requests} in ${u.seconds} s; peak ${u.peakPerMinute} in any 60 s`,
      baseline: `plan: ${u.planPerMinute}/min; 80 %: ${Math.floor(u.planPerMinute * u.share)}`,
      target: '≤ 80 % of the plan',
      verdict: u.peakPerMinute <= Math.floor(u.planPerMinute * u.share) ? 'met' : 'NOT met',
    });
  } else {
    failed(
      'relay',
      'stream clients / fan-out latency / memory per client',
      `≥ 10,000; ${fanoutTarget(undefined)}; ≤ 16 KB`,
    );
  }
  const p = r?.pages;
  if (p) {
    rows.push({
      section: 'relay',
      metric: `page loads served in one minute, basic key (${p.attempted} visitors)`,
      measured: `through the relay: ${p.relayed} (upstream: ${p.upstreamViaRelay} requests)`,
      baseline: `direct, key in the page: ${p.direct}`,
      target: '(all visitors served)',
      verdict: p.relayed === p.attempted ? 'met' : 'NOT met',
    });
  } else {
    failed('relay', 'page loads per minute, basic key', '(all visitors served)');
  }
  // A part that could not measure has one failed row instead.
  const part = <T>(result: T | undefined, metric: string, target: string, toRows: (result: T) => Row[]): Row[] => {
    if (result) return toRows(result);
    failed('relay', metric, target);
    return [];
  };
  rows.push(
    ...part(r?.cluster, 'cluster: fan-out through Redis, takeover after SIGKILL', 'takeover ≤ 5 s', clusterRows),
    ...part(
      r?.botnet,
      'history under a botnet: upstream requests per minute, visitor p99',
      '≤ 80 % of the plan',
      botnetRows,
    ),
    ...part(r?.catalog, 'relay CPU per /v1/prices with a 100,000-symbol catalog', CATALOG_TARGET, catalogRows),
  );
  return rows;
}

/** A big catalog costs no more per request than a small one: it is parsed once per upstream copy. */
const CATALOG_CPU_RATIO = 2;

const CATALOG_TARGET = `CPU per request ≤ ${CATALOG_CPU_RATIO} × the small catalog's`;

function catalogRows(c: CatalogResults): Row[] {
  const figure = (run: CatalogResults['big']) =>
    `${round(run.cpuPerRequest, 2)} ms CPU per request, p50 ${run.p50} ms, ${run.failed}/${run.requests} failed`;
  return [
    {
      section: 'relay',
      metric: `relay CPU per /v1/prices with a ${c.big.symbols.toLocaleString('en')}-symbol catalog (${round(c.big.catalogBytes / 1e6, 1)} MB), one request at a time`,
      measured: figure(c.big),
      baseline: `the sandbox's ${c.small.symbols}-symbol catalog: ${figure(c.small)}`,
      target: CATALOG_TARGET,
      verdict:
        c.big.failed === 0 && c.big.cpuPerRequest <= CATALOG_CPU_RATIO * c.small.cpuPerRequest ? 'met' : 'NOT met',
    },
  ];
}

function botnetRows(b: BotnetResults): Row[] {
  const limit = Math.floor(b.plan.perMinute * b.plan.share);
  const visitor = (v: BotnetResults['attacked']) =>
    `p50 ${v.p50} ms, p99 ${v.p99} ms, ${v.failed}/${v.requests} failed`;
  const failures = Object.entries(b.attacked.failures)
    .map(([what, n]) => `${n} × ${what}`)
    .join('; ');
  return [
    {
      section: 'relay',
      metric: `history under a botnet (basic plan): ${b.botAddresses} distinct addresses asking every symbol's history over any span and prices, ${b.minutes} min, beside one visitor's page loads`,
      measured: `upstream busiest minute ${b.upstream.peakPerMinute} (${b.upstream.requests} in all, ${b.upstream.history} history); visitor ${visitor(b.attacked)}, p99 ${round(b.attacked.p99 / b.unattacked.p99, 1)} × unattacked${failures ? ` (${failures})` : ''}`,
      baseline: `same visitor, no botnet: ${visitor(b.unattacked)}; plan ${b.plan.perMinute}/min, 80 %: ${limit}`,
      target: 'upstream ≤ 80 % of the plan; visitor p99 as a ratio',
      verdict: b.upstream.peakPerMinute <= limit ? 'met' : 'NOT met',
    },
  ];
}

function clusterRows(c: ClusterResults): Row[] {
  const latency = (l: ClusterResults['single']) =>
    `p50 ${l.p50} ms, p99 ${l.p99} ms (${l.completeChanges}/${l.changes} changes reached all ${l.clients} connected clients; ${l.receipts} receipts)`;
  const { takeoverMs, changeMs } = clusterSummary(c);
  return [
    {
      section: 'relay',
      metric: `cluster fan-out latency, change → receipt, ${c.cluster.clients} clients over 3 processes + Redis, 10 changes/s`,
      measured: latency(c.cluster),
      baseline: `one process, same clients: ${latency(c.single)}`,
      target: '(beside one process)',
      verdict: 'info',
    },
    {
      section: 'relay',
      metric: 'cluster takeover after SIGKILL of the leader (median of 2)',
      measured: `new leader after ${takeoverMs} ms; a change made at the kill reached a survivor's client after ${changeMs} ms (${c.takeovers.map((t) => `${t.leaderMs}/${t.changeMs}`).join(', ')})`,
      baseline: 'lock TTL 4,000 ms',
      target: '≤ 5 s',
      verdict: takeoverMs <= 5_000 ? 'met' : 'NOT met',
    },
  ];
}

/** The relay rows' "How each figure is measured" text. */
export const RELAY_METHOD =
  '- **Relay fan-out** (`bench/relay/`): the relay and its upstream sandbox run in one process (`server-child.ts`), the stream ' +
  'clients in 4 others (`clients-child.ts`: raw sockets from 50 loopback addresses, one shared read buffer, one timestamp per ' +
  "read). Changes are due every 100 ms for 10 s; each is dated when due and that time is its price, so a receipt's latency is " +
  'due → receipt. A server process busy writing (its loop blocked) makes the changes that fell due meanwhile as soon as it can, ' +
  'still dated when due, as a remote upstream would have made them on time: a server that cannot keep up shows it in its ' +
  'latency, not in a slower schedule ("made late" counts them). Every receipt of every client counts for p50/p99. CPU per change ' +
  "is the server process's `process.cpuUsage()` over the changes (and 1 s after, for the relay) divided by their number, user and " +
  "system apart; on loopback a socket write also runs the receiving socket's TCP path inside the sender's system call, so system " +
  'time is most of it. Baselines, same clients, same run: the FLOOR, a bare `node:http` SSE server in a process of its own ' +
  "(`floor-child.ts`, no relay logic) that writes the same frame (the relay's `quote` event for the same quote) to every socket " +
  'in one loop, one write per client per change, and at the largest count also with the changes that fell due together in one ' +
  "write per client (what the relay does); measured right after the relay, so at the nearest load; then the sandbox's own stream fan-out.\n" +
  '- **History under a botnet** (`bench/relay/botnet.ts`): a relay on a basic key in front of the sandbox, both on one virtual clock ' +
  "(a page load every 2 s of it, so the plan's minutes pass in seconds); a visitor loads pages (prices, usd 30 days, and 7 or 30 days " +
  "of another symbol in turn) while 40 bots a step, each from its own loopback address, ask any symbol's history over 1..365 days or " +
  "7/30/365, or prices; the same visitor alone is the baseline. Upstream requests are the sandbox's log of the relay's key (busiest " +
  "60 s of the virtual clock); the visitor's latencies are wall-clock, every request counted.\n" +
  '- **A big catalog** (`bench/relay/catalog.ts`): a relay whose upstream (the sandbox behind a proxy that answers ' +
  "`/v1/symbols` with 100,000 symbols, the sandbox's own first) is asked the same `/v1/prices` 200 times, one at a time, " +
  "after 50 to warm up; CPU is the process's `process.cpuUsage()` (relay, upstream and client) per request; the baseline is " +
  "the same against the sandbox's own catalog.";
