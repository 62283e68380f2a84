/** The relay section's rows (DESIGN.md §6, "Relay"), each beside its same-run baseline. */
import type { Row } from '../report';
import { round } from '../util';
import type { FanoutResults, Latency } from './fanout';
import type { PagesResults } from './pages';

export interface RelayResults {
  fanout?: FanoutResults;
  pages?: PagesResults;
}

const kb = (bytes: number) => `${round(bytes / 1024, 1)} KB`;

/** A latency figure with how it was taken: every receipt of every client counts. */
const latency = (l: Latency) =>
  `p50 ${l.p50} ms, p99 ${l.p99} ms over all ${l.receipts} receipts (${l.changes} changes × ${l.clients} clients; ${round(l.rate, 1)} changes/s made); last client p99 ${l.lastClientP99} ms; ${l.completeChanges}/${l.changes} changes reached all; load average ${round(l.load, 1)}; CPU (cores) server ${round(l.serverCpu, 2)}, ${l.clientProcesses} client processes ${round(l.clientsCpu, 2)}`;

export function relayRows(r: RelayResults | undefined, failed: (section: string, metric: string, target: string) => void): Row[] {
  const rows: Row[] = [];
  const f = r?.fanout;
  if (f) {
    for (const [i, p] of f.relay.points.entries()) {
      const base = f.sandbox.points[i];
      rows.push({
        section: 'relay',
        metric: `stream clients held by one relay process (${p.clients})`,
        measured: `${p.connected} served${p.failed ? `, ${p.failed} failed` : ''}; ${kb(p.rssPerClient)} RSS, ${kb(p.heapPerClient)} heap per client`,
        baseline: base ? `sandbox stream: ${base.connected} served; ${kb(base.rssPerClient)} RSS, ${kb(base.heapPerClient)} heap per client` : '',
        target: p.clients >= 10_000 ? '≥ 10,000; ≤ 16 KB per idle client' : '(step)',
        verdict: p.clients >= 10_000 ? (p.connected >= 10_000 && p.rssPerClient <= 16 * 1024 ? 'met' : 'NOT met') : 'info',
      });
    }
    for (const [i, l] of f.relay.latency.entries()) {
      const b = f.sandbox.latency[i];
      const last = i === f.relay.latency.length - 1;
      rows.push({
        section: 'relay',
        metric: `fan-out latency, upstream change → receipt by every client, ${l.clients} clients, 10 changes/s`,
        measured: `${latency(l)}; of which change → relay p50 ${l.upstream?.[0]} / p99 ${l.upstream?.[1]} ms, relay writing to all p50 ${l.write[0]} / p99 ${l.write[1]} ms (server CPU ${round(l.cpuPerChange, 1)} ms per change)`,
        baseline: b ? `sandbox stream: ${latency(b)}; writing to all p50 ${b.write[0]} / p99 ${b.write[1]} ms (server CPU ${round(b.cpuPerChange, 1)} ms per change)` : '',
        target: last ? 'p99 ≤ 100 ms' : '(step)',
        verdict: last ? (l.p99 <= 100 && l.completeChanges === l.changes && l.rate >= 9.5 ? 'met' : 'NOT met') : 'info',
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
    failed('relay', 'stream clients / fan-out latency / memory per client', '≥ 10,000; p99 ≤ 100 ms; ≤ 16 KB');
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
  return rows;
}
