/**
 * The rows and method text of the relay's server render (DESIGN.md §6 and §13): the page that
 * includes the rendered board against the floor (./rendered.ts, in the visitor rounds), its
 * takeover until live, and the render endpoint's cost (./relay/render-cost.ts).
 */
import type { RenderCostResults, SerialCost } from './relay/render-cost';
import { iqr, ms, verdict } from './report-format';
import type { Row } from './row';
import { median, round } from './util';
import type { VisitorResult } from './visitor';

/** DESIGN.md §6: the rendered board's first paint against the floor, by added round trip. */
export const RENDERED_RATIO_TARGET = { network: 0.8, other: 1.0 };
const targetOf = (v: VisitorResult) =>
  v.condition.latencyMs > 0 ? RENDERED_RATIO_TARGET.network : RENDERED_RATIO_TARGET.other;

const mb = (bytes: number) => `${round(bytes / 1024 / 1024, 1)} MB`;
/** The median of the figures there are (a load that never went live has none). */
const medianOf = (xs: number[]) => median(xs.filter((x) => !Number.isNaN(x)));

/** The rendered board's rows: first paint per condition, then its takeover until live over all loads. */
export function renderedRows(visitor: VisitorResult[] | undefined, failure: string | undefined): Row[] {
  const rows: Row[] = [];
  const measured = (visitor ?? []).filter((v) => v.rendered);
  for (const v of measured) {
    const r = v.rendered!;
    const target = targetOf(v);
    rows.push({
      section: 'paint',
      metric: `first paint of a page including the relay's rendered board: 10 rows painted, from navigation start, ${v.condition.name}, ${r.runs.length} runs`,
      measured: `${iqr(r.spread)}, ${round(r.ratio, 2)} × floor (per-round ratios ${round(r.pairRatio.q1, 2)}–${round(r.pairRatio.q3, 2)}); from the element parsed ${ms(r.fromParsedMs)}`,
      baseline:
        `floor page ${iqr(v.floor)} · client-only board ${iqr(v.board)}, ${round(v.ratio, 2)} × floor` +
        (v.markup ? ` · markup floor ${iqr(v.markup.spread)}, ${round(v.markup.ratio, 2)} × floor` : ''),
      target: `≤ ${target.toFixed(1)} × floor = ${ms(target * v.floorMs)}`,
      verdict: verdict(r.ratio <= target),
    });
  }
  if (measured.length > 0) {
    const all = measured.flatMap((v) => v.rendered!.takeover);
    const live = all.filter((t) => t.liveAt !== undefined);
    const prices = measured.flatMap((v) => v.rendered!.prices);
    const cls = all.map((t) => t.cls);
    const clsRowsFrame = all.map((t) => t.clsRowsFrame ?? 0);
    const partial = all.filter((t) => t.partialFrames > 0).length;
    // The largest shift of each kind, with what moved: the lead's first clue.
    const largest = (before: boolean) =>
      all
        .flatMap((t) => t.shifts.filter((x) => x.at < (t.paintAt ?? 0) === before).map((x) => ({ ...x, t })))
        .sort((a, b) => b.value - a.value)[0];
    const shiftText = (x: ReturnType<typeof largest>) =>
      x
        ? `largest ${round(x.value, 4)} at ${ms(x.at)} (rows painted ${ms(x.t.paintAt ?? NaN)}, element defined ${ms(x.t.definedAt ?? NaN)}, its own render ${ms(x.t.tookOverAt ?? NaN)}, stream open ${ms(x.t.streamAt ?? NaN)}): ${x.sources.join('; ')}`
        : 'none';
    const blankFrames = all.reduce((n, t) => n + t.blankFrames, 0);
    const blankBatches = all.reduce((n, t) => n + t.blankBatches, 0);
    const frames = all.reduce((n, t) => n + t.frames, 0);
    const statuses = [...new Set(all.flatMap((t) => t.statuses))];
    const shifted = cls.filter((c) => c === null || c > 0).length;
    const requested = prices.filter((n) => n !== 0).length;
    const per = measured
      .map((v) => {
        const t = v.rendered!.takeover;
        return `${v.condition.name}: live ${ms(medianOf(t.map((x) => x.liveAt ?? NaN)))} after navigation (own render over the server's ${ms(medianOf(t.map((x) => x.tookOverAt ?? NaN)))}, stream open ${ms(medianOf(t.map((x) => x.streamAt ?? NaN)))})`;
      })
      .join('; ');
    rows.push({
      section: 'paint',
      metric: `rendered board from its first paint to live (its own render over the server's nodes and its stream open), ${all.length} loads over the conditions above`,
      measured:
        `CLS after the rows' frame > 0 in ${shifted} of ${all.length} loads (max ${round(Math.max(0, ...cls.map((c) => c ?? NaN)), 4)}; ${shiftText(largest(false))}); ` +
        `in the rows' own frame > 0 in ${clsRowsFrame.filter((c) => c > 0).length} loads (max ${round(Math.max(0, ...clsRowsFrame), 4)}; ${shiftText(largest(true))}), ` +
        `${partial} of ${all.length} loads painted frames of part of the rows before them; ` +
        `frames with fewer than 10 priced rows ${blankFrames} of ${frames}, mutation batches ${blankBatches}; ` +
        `/v1/prices at the relay: ${requested} of ${prices.length} loads made one (${prices.reduce((a, b) => a + b, 0)} in all); ` +
        `live in ${live.length} of ${all.length} loads; price-board-status events: ${statuses.join(', ') || 'none'}. ${per}`,
      baseline: 'the client-only board asks /v1/prices once per load',
      target: 'CLS 0, no frame without its prices, no /v1/prices while the snapshot is fresh',
      verdict: verdict(shifted === 0 && blankFrames === 0 && requested === 0 && live.length === all.length),
    });
  }
  if (measured.length === 0 && (failure || visitor))
    rows.push({
      section: 'paint',
      metric: "first paint of a page including the relay's rendered board",
      measured: failure ? `failed: ${failure}` : 'skipped',
      baseline: '',
      target: '≤ 0.8 × floor at +150 ms, ≤ 1.0 × otherwise',
      verdict: failure ? 'failed' : 'info',
    });
  return rows;
}

const serial = (s: SerialCost) =>
  `${round(s.cpuMs, 2)} ms CPU per request, p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, ${s.bytes} B, ${s.failed}/${s.requests} failed`;

/** The render endpoint's cost: per request, and under floods of distinct queries. */
export function renderCostRows(r: RenderCostResults | undefined, failure: string | undefined): Row[] {
  if (!r)
    return failure
      ? [
          {
            section: 'render',
            metric: 'the render endpoint’s cost',
            measured: `failed: ${failure}`,
            baseline: '',
            target: '',
            verdict: 'failed',
          },
        ]
      : [];
  const prices = `the same relay's /v1/prices of the same 10 symbols: ${serial(r.prices)}`;
  const rows: Row[] = [
    {
      section: 'render',
      metric: `/render/price-board, 10 symbols, cached (a hit), ${r.hit.requests} one at a time`,
      measured: `${serial(r.hit)}; renders ${r.hit.renders}`,
      baseline: prices,
      target: 'no render (once per normalized query and change)',
      verdict: verdict(r.hit.renders === 0 && r.hit.failed === 0),
    },
    {
      section: 'render',
      metric: `/render/price-board, a miss that renders (distinct link templates), ${r.miss.requests} one at a time`,
      measured: `${serial(r.miss)}; renders ${r.miss.renders}: ${round(1000 / r.miss.cpuMs, 0)} renders/s of one relay process by its CPU`,
      baseline: `${prices} · the hit ${round(r.hit.cpuMs, 2)} ms`,
      target: '(information)',
      verdict: 'info',
    },
  ];
  for (const f of r.floods) {
    const growth = f.rssAfter - f.rssBefore;
    rows.push({
      section: 'render',
      metric: `flood of ${f.queries} ${f.kind}, ${f.concurrency} at a time: renders, latency, render cache, memory`,
      measured:
        `${f.renders} renders in ${round(f.seconds, 1)} s: ${round(f.rendersPerSecond, 0)} renders/s (${round(f.cpuPerRender, 2)} ms relay CPU each); ` +
        `p50 ${ms(f.p50)}, p99 ${ms(f.p99)}, ${f.failed} failed; load average ${round(f.load, 1)}; ` +
        `render cache ${f.cacheBytes} of ${f.cacheMaxBytes} B; RSS after GC ${mb(f.rssBefore)} → ${mb(f.rssAfter)} (${growth >= 0 ? '+' : ''}${mb(growth)}), peak ${mb(f.rssPeak)}; JS heap after GC ${mb(f.heapBefore)} → ${mb(f.heapAfter)}`,
      baseline: `one at a time: a miss ${round(r.miss.cpuMs, 2)} ms CPU (${round(1000 / r.miss.cpuMs, 0)}/s), /v1/prices ${round(r.prices.cpuMs, 2)} ms`,
      target: 'render cache ≤ its byte bound; none failed',
      verdict: verdict(f.cacheBytes <= f.cacheMaxBytes && f.failed === 0),
    });
    const list = (xs: string[]) => (xs.length ? ` (${xs.join(', ')})` : '');
    rows.push({
      section: 'render',
      metric: `upstream requests caused by the flood of ${f.queries} ${f.kind}`,
      measured: `${f.upstream.length} during the flood and the second after it${list(f.upstream)}`,
      baseline: `an idle spell as long right after: ${f.upstreamIdle.length}${list(f.upstreamIdle)}`,
      target: '0 of its own',
      verdict: verdict(f.upstream.length <= f.upstreamIdle.length),
    });
  }
  return rows;
}

/** How the rendered board's rows are measured (after "What a visitor sees"). */
export function renderedMethod(visitor: VisitorResult[] | undefined): string[] {
  const out = [
    "- **A page including the relay's rendered board** (DESIGN.md §6 and §13; `bench/rendered.ts`): a relay " +
      "(`relay/server.ts`, enterprise plan, no per-visitor limit, serving `dist/`, `PUBLIC_URL` its own origin) in front of the bench's " +
      "sandbox; the page (`bench/pages/rendered.html`, on the bench's origin) holds nginx's SSI directive " +
      '`<!--# include virtual="/render/price-board?symbols=<the 10 symbols>" -->`, which the bench server replaces with the ' +
      "relay's answer fetched **once per page load** (no cache; 1 s timeout, as the PHP recipe): the page's time includes the " +
      "relay's answer (a render-cache hit after the first), and the snapshot is never older than the load, so a `/v1/prices` " +
      'request would be a fault of the takeover, not an old snapshot (a site caching the fragment a few seconds, as the docs ' +
      'advise, serves the same HTML a little sooner). The fragment ends with its module preloaded from the relay and run by ' +
      "the relay's `assets/takeover.js` once the page has painted; the element " +
      'has no `base-url`, so its service is the relay that served it. The page is loaded in the same rounds as the board, the floor and the ' +
      'markup floor ("what a visitor sees", its place in the order rotating with them), same conditions, and compared with the same floor ' +
      'loads (target ≤ 0.8 × the floor at +150 ms, ≤ 1.0 × otherwise). Its root is declarative (the parser attaches it, no ' +
      '`attachShadow`), so the probe watches each `<price-board>` as parsed (a MutationObserver on the document) and then its ' +
      'root as for a board: 10 `[part=row]` with digits in `[part=price]` and the parser past the last row (a node after ' +
      "it in the root, the element's next sibling, or the document parsed: the last row's later cells may be parsed after " +
      'its price), the next frame, a ' +
      '`user-blocking` task. From the ' +
      "element parsed means from the probe's first sight of that root. Then, per load, until the board is **live** (its own first " +
      "render over the server's nodes, seen as the root emptied by `replaceChildren`, and its stream's response: the page's " +
      '`fetch` of `/v1/stream` resolved), and two frames more: the layout shifts (`layout-shift` entries without recent input; ' +
      "CLS is their sum after the frame that paints the rows, the verdict's figure; those in that frame itself, against frames " +
      "before it that showed part of the parsed rows, are shown beside it; what moved is named from each source's rects, looked " +
      "up in the board's root, since a node in a shadow root is not given), the frames (a `requestAnimationFrame` loop) and the " +
      'mutation batches of the root in which fewer than 10 rows show a price, and the `price-board-status` events; the ' +
      "relay's `/v1/prices` GETs are counted in its process (the `http.server.request.start` diagnostics channel, its port) " +
      'from the navigation to the closed context.',
  ];
  const list = (xs: number[]) => xs.map((x) => round(x, 0)).join(', ');
  for (const v of visitor ?? [])
    if (v.rendered)
      out.push(
        `  Rendered board, ${v.condition.name}: ${list(v.rendered.runs)} ms; /v1/prices at the relay per load ${v.rendered.prices.join(', ')}; ` +
          `live after navigation ${list(v.rendered.takeover.map((t) => t.liveAt ?? NaN))} ms.`,
      );
  return out;
}

/** How the render endpoint's cost is measured (after the relay's method). */
export const RENDER_COST_METHOD =
  "- **The render endpoint's cost** (`bench/relay/render-cost.ts`): a relay alone in its process (`render-child.ts`, " +
  "enterprise plan) in front of the sandbox in the bench's process, where every upstream request is counted (the " +
  "diagnostics channel, the sandbox's port). The sandbox's market is frozen, so its stream says nothing readable: the relay's " +
  'upstream staleness (`staleAfterMs`) is set past the run, or it would replace that stream every 45 s of itself (one stream and one ' +
  'prices request, whatever the visitors do). After 50 warm-up rounds, one request at a time over a keep-alive connection: ' +
  "the relay's `/v1/prices` for the 10 symbols of the first-paint rows (the baseline), `/render/price-board?symbols=<those " +
  '10>` (a hit: cached), and the same with a distinct `link` template each (a miss: one render each); CPU is the relay ' +
  "process's `process.cpuUsage()` (user + system) over the requests, divided by them; renders are `relay_renders_total` " +
  'from its `/metrics`. Then two floods of 5,000 distinct valid queries, 50 at a time: distinct `link` templates on the 10 ' +
  'symbols, and distinct symbol lists (2 to 10 of the same symbols, in some order, fixed seed): renders a second (renders ' +
  "counted ÷ wall time), the relay's CPU per render, latency of every request, `relay_render_cache_bytes` against " +
  "`relay_render_cache_max_bytes` at the end, the relay process's RSS and JS heap in use after a full GC before and " +
  "after (and its peak RSS, sampled every 20 ms), and the upstream requests from the flood's start to a second after its end, beside those of an " +
  'idle spell as long right after it (what the relay asks of itself).';
