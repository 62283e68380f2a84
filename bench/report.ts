/** Turns the section results into one table (console + docs/bench.md) with verdicts against DESIGN.md §6. */
import { RELAY_METHOD, relayRows } from './relay/report';
import { RENDER_COST_METHOD, renderCostRows, renderedMethod } from './rendered-report';
import { liveRows, tickerLiveRows } from './live-report';
import { paintRows } from './paint-report';
import { kb, ms, rowSink, verdict } from './report-format';
import type { Row } from './row';
import type { Sections } from './sections';
import type { TabsResults } from './tabs';
import { sizeRows, widgetSizeRows } from './size-report';
import { round } from './util';

/** A section measured, failed, or asked for (a partial run leaves the others out). */
function want(s: Sections, failures: Record<string, string>, section: keyof Sections): boolean {
  return s[section] !== undefined || section in failures;
}

export function buildRows(s: Sections, failures: Record<string, string>): Row[] {
  const sink = rowSink(failures);
  const { rows, failed } = sink;
  sizeRows(s, sink);
  paintRows(s, failures, sink);
  liveRows(s, sink);
  widgetSizeRows(s, sink);
  tickerLiveRows(s, sink);

  // ---- sharing
  if (s.sharing) {
    const { single, many } = s.sharing;
    rows.push({
      section: 'sharing',
      metric: `stream connections, ${many.boards} boards, same key`,
      measured: String(many.streams),
      baseline: `1 board: ${single.streams}`,
      target: '1',
      verdict: verdict(many.streams === 1),
    });
    if (s.tabs) rows.push(tabsRow(s.tabs));
    rows.push({
      section: 'sharing',
      metric: `/v1/prices requests at start, ${many.boards} boards`,
      measured: `${many.prices} (history: ${many.history})`,
      baseline: `1 board: ${single.prices} (history: ${single.history})`,
      target: '≤ 1',
      verdict: verdict(many.prices <= 1),
    });
  } else {
    failed('sharing', 'stream connections / prices requests, 10 boards', '1 and ≤ 1');
    if (s.tabs) rows.push(tabsRow(s.tabs));
  }
  if (!s.tabs) failed('sharing', 'stream connections, 5 tabs of one site', '1', 'tabs');

  // ---- memory
  if (s.memory) {
    const m = s.memory;
    const noise = `noise ${kb(m.noiseBytes)}`;
    rows.push({
      section: 'memory',
      metric: `retained heap after ${m.cycles.done} mount/unmount cycles`,
      measured: `${kb(m.cyclesGrowth)} (second half: ${round(m.bytesPerCycle, 0)} B/cycle)${m.cycles.timeouts ? `; ${m.cycles.timeouts} boards without rows` : ''}`,
      baseline: noise,
      target: '< 1 MB',
      verdict: verdict(m.cyclesGrowth < 1024 * 1024 && !m.cycles.aborted),
    });
    rows.push({
      section: 'memory',
      metric: `retained heap after ${m.events.pushed} stream events (board mounted)`,
      measured: `${kb(m.eventsGrowth)}${m.events.finalMismatches ? ` (${m.events.finalMismatches} symbols not at the last price)` : ''}`,
      baseline: noise,
      target: '< 1 MB',
      verdict: verdict(m.eventsGrowth < 1024 * 1024),
    });
    rows.push({
      section: 'memory',
      metric: 'retained heap, everything unmounted, vs after warm-up',
      measured: `${kb(m.totalGrowth)}; <price-board> alive ${m.afterAll.boards ?? 'n/a'}, canvases ${m.afterAll.canvases ?? 'n/a'}`,
      baseline: `warm-up: ${m.warmup.boards ?? 'n/a'} alive, ${m.warmup.canvases ?? 'n/a'} canvases`,
      target: '< 1 MB',
      verdict: verdict(m.totalGrowth < 1024 * 1024),
    });
    rows.push({
      section: 'memory',
      metric: 'open stream connections afterwards',
      measured: `${m.afterCycles.openStreams} after cycles, ${m.afterAll.openStreams} at the end`,
      baseline: `before: ${m.openStreamsBefore}`,
      target: '0',
      verdict: verdict(m.afterCycles.openStreams === 0 && m.afterAll.openStreams === 0),
    });
    rows.push({
      section: 'memory',
      metric: 'pending timers afterwards',
      measured: `${m.afterCycles.timers.pending} after cycles, ${m.afterAll.timers.pending} at the end`,
      baseline: `after warm-up: ${m.warmup.timers.pending}`,
      target: '(0 expected)',
      verdict: 'info',
    });
  } else {
    failed('memory', 'retained heap growth / open connections', '< 1 MB, 0 open');
  }
  if (want(s, failures, 'relay')) rows.push(...relayRows(s.relay, failed));
  rows.push(...renderCostRows(s.renderCost, failures.render));
  return rows;
}

function tabsRow(t: TabsResults): Row {
  const { single, many } = t;
  const notLive = many.statuses.filter((x) => x !== 'live').length;
  return {
    section: 'sharing',
    metric: `stream connections, ${many.tabs} tabs of one site (one browser context), same key, once every tab shows live`,
    measured: `${many.streams} (open at the service: ${many.openStreams}; /v1/prices requests: ${many.prices})${notLive ? `; ${notLive} tabs no longer live: ${many.statuses.join(', ')}` : ''}`,
    baseline: `1 tab: ${single.streams} (/v1/prices: ${single.prices})`,
    target: '1',
    verdict: verdict(many.streams === 1),
  };
}

export function consoleTable(rows: Row[]): string {
  const cols: (keyof Row)[] = ['section', 'metric', 'measured', 'baseline', 'target', 'verdict'];
  const width = (c: keyof Row) => Math.min(70, Math.max(c.length, ...rows.map((r) => r[c].length)));
  const cut = (s: string, w: number) => (s.length > w ? s.slice(0, w - 1) + '…' : s.padEnd(w));
  const lines = [cols.map((c) => cut(c, width(c))).join(' │ '), cols.map((c) => '─'.repeat(width(c))).join('─┼─')];
  for (const r of rows) lines.push(cols.map((c) => cut(r[c], width(c))).join(' │ '));
  return lines.join('\n');
}

const md = (s: string) => s.replace(/\|/g, '\\|');

export function markdown(rows: Row[], env: Record<string, string>, s: Sections): string {
  const out: string[] = [];
  out.push('# Benchmarks');
  out.push('');
  out.push(
    'Measured by `npm run bench` (`bench/run.ts`); every baseline is measured in the same run. ' +
      'Targets are those of DESIGN.md §6. Raw figures: `bench/results.json`.',
  );
  out.push('');
  out.push(
    `Run: ${env.date} · ${env.chromium} (headless) · Node ${env.node} · ${env.cpus} · load average ${env.load} · commit ${env.commit} · ${env.durationS} s`,
  );
  out.push('');
  out.push('| Section | Metric | Measured | Baseline (same run) | Target | Verdict |');
  out.push('|---|---|---|---|---|---|');
  for (const r of rows)
    out.push(
      `| ${r.section} | ${md(r.metric)} | ${md(r.measured)} | ${md(r.baseline)} | ${md(r.target)} | ${r.verdict === 'NOT met' ? '**NOT met**' : r.verdict} |`,
    );
  out.push('');
  out.push('## How each figure is measured');
  out.push('');
  out.push(
    '- **Size**: gzip -9 (Node zlib) of each file of a module graph, summed. The initial graph is `dist/price-board.js` ' +
      'and everything it imports statically (dynamic `import()` targets excluded). The browser rows list the `dist/` JS files ' +
      'a 10-symbol board actually fetched (resource timing, 1.5 s after its rows or candles) with `chart="none"` and with the ' +
      'chart on, as a check of the static figures. The lazy chunks are told apart by name: those a board asks for at ' +
      "start, beside its first prices request (`board-extras-*.js`; `tabs-*.js`, the tabs' sharing of one stream, asked for " +
      'as the stream starts, unless `stream="off"`; the hub and its driver are in the initial module), and their static ' +
      'imports, count towards "board without chart"; the chart ' +
      'chunk is what a chart adds (`chart-area-*.js` + `price-chart-*.js` and their static imports, minus the initial ' +
      'module and the start chunks). ' +
      'Baselines are Vite builds with the same minifier and target into `bench/tmp/`: a minimal `LitElement` component, ' +
      'and `createChart` + `CandlestickSeries` from lightweight-charts.',
  );
  if (s.size) {
    const lazy = s.size.project.lazy.map((l) => `${l.target.replace(/^assets\//, '')} ${kb(l.graph.gzip)}`).join(', ');
    out.push(
      `  Dynamic \`import()\` targets of the initial graph and of its lazy chunks (each minus the initial graph): ${lazy || 'none'}.`,
    );
  }
  if (s.size?.composition) {
    const top = (xs: { group: string; approxGzip: number }[]) =>
      xs
        .slice(0, 6)
        .map((x) => `${x.group} ≈ ${kb(x.approxGzip)}`)
        .join(', ');
    const lazy = s.size.composition.lazy.map((l) => `${l.file}: ${top(l.groups)}`).join('; ');
    out.push(
      `  Approximate composition (shares of rendered code applied to gzip): initial: ${top(s.size.composition.initial)}; lazy: ${lazy}.`,
    );
  }
  out.push(
    '- **First paint**: Chromium (headless, Debian build), one page per run with a fresh context (empty cache), ' +
      'median of 7 runs after one warm-up run. The page, `dist/` and the sandbox share one loopback origin ' +
      '(a second row set loads the page from another origin, so the API calls are CORS with preflight). ' +
      '"Rows painted" is the first task after the frame that follows a MutationObserver on the shadow root seeing 10 `[part=row]` ' +
      "with digits in `[part=price]` (a `user-blocking` task posted from that frame's `requestAnimationFrame` callback, so the frame's " +
      'style, layout and paint of the rows are included). These rows are information: the target of first paint is the ' +
      'ratio to the floor page from navigation start ("what a visitor sees", below); the old absolute target (from the ' +
      "element's connection ≤ 1.5 × RTT + 16.7 ms) is retired, its figure kept. From the element's connection means from its " +
      'upgrade (the probe sees it attach its shadow root). The RTT is the median of 15 ' +
      'bare `fetch`es of the same `/v1/prices` URL with `X-API-Key` (after 3 warm-up ones) from the same page, body parsed. ' +
      "The baseline column gives the floor page's own time from its `fetch` call to its rows painted " +
      '(the no-throttling row of "what a visitor sees", same run): the least this machine needs to fetch, lay out and ' +
      'paint the same rows once, whatever the widget does. ' +
      'Chart candles: first frame in which the chart canvases hold saturated (candle-coloured) pixels. ' +
      'Where the time goes: `npm run bench:profile` (`bench/profile.ts`) takes DevTools CPU profiles of the same page ' +
      "(`PROFILE_CPU=4` for 4× throttling), prints the self time per function from the board's `/v1/prices` request " +
      'to its rows in the DOM and saves one profile to `bench/tmp/first-paint.cpuprofile`; `npx tsx bench/trace.ts` ' +
      "prints the main thread's tasks (script, style, layout, paint, with their CPU time) of one first paint from a " +
      'DevTools timeline trace; `AB=dist,dist-b npx tsx bench/ab.ts` compares builds (or style rules) in interleaved runs.',
  );
  if (s.paint) {
    const b = s.paint.breakdown;
    out.push(
      `  Median timeline from navigation start (same origin): initial module graph loaded ${ms(b.moduleLoadedMs)}, ` +
        `element upgraded ${ms(b.upgradedMs)}, board's /v1/prices sent ${ms(b.pricesStartMs)} and answered ${ms(b.pricesEndMs)}, ` +
        `rows in the DOM ${ms(b.rowsInDomMs)}, their frame's rAF ${ms(b.rowsFrameMs)}, painted ${ms(s.paint.rowsPaintedMs)}; ` +
        `/v1/history sent ${ms(b.historyStartMs)}, answered ${ms(b.historyEndMs)}; chart candles ${ms(s.paint.chartCandlesMs)}.`,
    );
    const g = s.paint.gaps;
    out.push(
      `  Medians of per-run gaps: upgrade → board's /v1/prices sent ${ms(g.upgradeToPricesSent)}; its round trip ${ms(g.boardPricesRoundTrip)}; ` +
        `answer → rows in the DOM ${ms(g.answerToRowsInDom)}; DOM → next frame's rAF ${ms(g.domToFrame)}; ` +
        `rAF → frame rendered ${ms(g.frameToPainted)} (DOM → painted ${ms(g.domToPaintedFrame)}).`,
    );
  }
  const runs = s.visitor?.[0]?.boardRuns.length ?? '?';
  out.push(
    '- **What a visitor sees** (first paint against the floor, the target of DESIGN.md §6): from navigation start to the ' +
      'first task after the frame that shows the 10 rows, as above, for the board (chart on) and the floor page alike; ' +
      'fresh context per load. The CPU is slowed 4× through CDP `Emulation.setCPUThrottlingRate`; the network gets 150 ms ' +
      'of added latency on every request (the page, the module, the chunks, the API) through CDP ' +
      '`Network.emulateNetworkConditions`. The floor (`bench/pages/floor.html`) is a page whose classic script makes one ' +
      '`fetch` of the same `/v1/prices` and one `innerHTML` of the same rows (title, toman price, change, Persian digits), ' +
      "nothing else, and marks its rows painted as the probe does a board's (the rows in the DOM, the next frame's " +
      '`requestAnimationFrame`, then a `user-blocking` task). The **markup floor** (information; `withMarkupFloor` in `bench/visitor.ts`) ' +
      "is the same script writing, instead of its own rows, the board's DOM and style sheets as the board's rows first " +
      'showed in one load of the same build in the same run (one shadow root, its sheets made before the fetch, one ' +
      "`innerHTML`): what the board's markup and styles cost with none of its JavaScript; the board's time beyond it is the " +
      "element's (module, Lit, data path). These times are noisy on a small shared machine, so the loads " +
      `are interleaved: ${runs} rounds after a warm-up round, each loading, for every condition in turn, the board page, ` +
      "the floor page, the markup floor and the page with the relay's rendered board (below; which goes first rotates), so that whatever else the machine does falls on all alike. The " +
      'verdict is the ratio of the medians (target ≤ 1.2); each median is shown with its interquartile range (IQR), and ' +
      'the ratio with the IQR of the per-round ratios (a board load over the floor load next to it). The bench waits on a ' +
      "promise of the page's probe (one DevTools call, no polling of the page while it loads). " +
      '**Keyless relay snippet**: a relay (`relay/server.ts`, enterprise plan, no per-visitor limit, serving `dist/`) in ' +
      "front of the bench's sandbox, on its own origin; the page (`bench/pages/keyless.html`, on the bench's origin) is the " +
      'README\'s keyless snippet with `<link rel="preload" as="fetch" crossorigin>` of ' +
      "`<relay>/v1/prices?symbols=<the board's symbols, comma-joined in attribute order>` in its head, the module from the " +
      'relay and a board with `base-url` the relay and no key; beside it the floor page pointed at the same relay, with no ' +
      "key (a simple CORS request). The relay's `/v1/prices` requests are counted in its process (Node's " +
      '`http.server.request.start` diagnostics channel, GETs on its port) from the navigation to the closed context: 1 per ' +
      'load when the board uses the preloaded response.',
  );
  const list = (xs: number[]) => xs.map((x) => round(x, 0)).join(', ');
  for (const v of s.visitor ?? [])
    out.push(
      `  ${v.condition.name}: board ${list(v.boardRuns)} ms; floor ${list(v.floorRuns)} ms` +
        (v.markup ? `; markup floor ${list(v.markup.runs)} ms` : '') +
        `. From the start of the work to the ` +
        `rows painted (medians): board from its connection ${ms(v.boardFromStartMs)}, floor from its \`fetch\` call ${ms(v.floorFromStartMs)}.`,
    );
  for (const v of s.keyless?.conditions ?? [])
    out.push(
      `  Keyless relay snippet, ${v.condition.name}: board ${list(v.boardRuns)} ms; floor ${list(v.floorRuns)} ms; ` +
        `/v1/prices requests per board load ${(v.pricesPerBoardLoad ?? []).join(', ')}.`,
    );
  out.push(...renderedMethod(s.visitor));
  out.push(
    `- **Live load**: one board with the first 170 ids of \`/v1/symbols\` (the sandbox lists ${s.live?.symbols ?? '?'}); the bench posts 10 new prices every 50 ms for ` +
      '10 s to `/__sandbox/market` (each becomes a `quote` stream event). In the page: `longtask` and `long-animation-frame` ' +
      'observers, a rAF loop (a gap > 1.5 frames counts its missing frames as dropped), a MutationObserver on the shadow root ' +
      'that compares every touched cell (`[part=price]` etc.) with its previous text and attributes, and the ' +
      '`price-board-quotes` events for the number of applied quotes. Busy time: DevTools `Performance.getMetrics` ' +
      'TaskDuration delta per second. Baseline: the same measurements over 2 idle seconds. A second run with ' +
      '`prefers-reduced-motion: reduce` (no price flash) separates the flash (a tint on for a moment, `src/board/flash.ts`) from the rest. ' +
      'A third run gives the board `columns="price,change,change-amount,spark,bubble"` (DESIGN.md §10) and, before the ' +
      'load, waits for the spark lines (one history request per symbol; up to 10 s) and checks that the rows show ' +
      'every asked cell (a part of that name): without them the row says so and is not a verdict.',
  );
  const loaf = s.live?.load.loafs[0];
  if (loaf) {
    const script = loaf.scripts[0];
    out.push(
      `  Longest animation frame under load: ${ms(loaf.duration)} (rendering ${ms(loaf.render)}` +
        (script ? `; script ${ms(script.duration)} in ${script.invoker} at ${script.source}` : '') +
        `); applied quotes arrived in ${s.live!.load.quotesEvents} \`price-board-quotes\` batches.`,
    );
  }
  out.push(
    '- **Sharing**: boards written in the HTML before the module defines the element; requests counted in the ' +
      "sandbox's request log for the page's own key, 1.5 s after every board shows its rows. Baseline: one board. " +
      'Tabs: one browser context (one profile, so the pages share Web Locks and BroadcastChannel), 5 pages of the same ' +
      'origin opened one after another, each with one board (same key and base-url, `chart="none"`) waited for until its ' +
      "`status` is `live`; streams counted 1.5 s after the last, in the sandbox's request log for the key (and those " +
      'open at the end). Baseline: one tab.',
  );
  out.push(
    '- **Memory**: after a warm-up (20 cycles, one board per key kept until its chart shows candles, 20 cycles), heap is `Runtime.getHeapUsage` after `HeapProfiler.collectGarbage` (×3). ' +
      'A cycle appends a 10-symbol board (chart on), waits for its rows, one frame, removes it; keys rotate over 10 ' +
      'suffixes to stay under the rate limit. Then one 170-symbol board receives 100,000 `quote` events (batches of 1,000) ' +
      'and is removed. Live instances via `Runtime.queryObjects`; open streams from the sandbox; pending timers from ' +
      'patched `setTimeout`/`setInterval`. Noise: the same GC procedure one idle second apart.',
  );
  out.push(RELAY_METHOD);
  out.push(RENDER_COST_METHOD);
  out.push('');
  return out.join('\n');
}
