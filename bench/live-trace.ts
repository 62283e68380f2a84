/**
 * `npx tsx bench/live-trace.ts` (after `npm run build`): one DevTools timeline trace of the live
 * load of bench/live.ts (LIVE_SECONDS, default 5 s; COLUMNS=… sets the board's columns; MOTION=reduce
 * for prefers-reduced-motion). Prints the main thread's tasks over 50 ms, each with its time per
 * event name (style, layout, paint, script, GC…), then the same totals over the whole load window
 * per second. Saves the trace to bench/tmp/live.trace.json (open it in DevTools). A debugging aid.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { boardUrl, js, newPage, patchStyles } from './browser';
import { pushLoad } from './live';
import type { TraceEvent } from './paint-trace';
import { quotesOf, sleep, symbolIds, until } from './util';
import { ROOT, runScript, withServer } from './tool';

type Ev = TraceEvent;
const SECONDS = Number(process.env.LIVE_SECONDS ?? 5);
// Event names whose own time (minus their children's) is summed per task.
const KINDS = [
  'UpdateLayoutTree',
  'Layout',
  'PrePaint',
  'Paint',
  'Layerize',
  'Commit',
  'FunctionCall',
  'EventDispatch',
  'FireAnimationFrame',
  'RunMicrotasks',
  'MinorGC',
  'MajorGC',
  'V8.GC_SCAVENGER',
  'V8.GC_MARK_COMPACTOR',
  'ParseHTML',
  'HitTest',
  'UpdateLayer',
  'AnimationFrame::Render',
  'ScheduleStyleRecalculation',
  'IntersectionObserverController::computeIntersections',
  'LayerTreeHost::WaitForCommitCompletion',
  'ProxyMain::BeginMainFrame',
];

async function main(): Promise<void> {
  await withServer(process.env.BENCH_DIST ?? 'dist', async (server, browser) => {
    const symbols = symbolIds(await server.call('/v1/symbols', { key: 'enterprise-key:trace-setup' })).slice(0, 170);
    const key = `enterprise-key:live-trace-${Date.now()}`;
    const { context, page } = await newPage(
      browser,
      { watch: true, rows: symbols.length },
      process.env.MOTION === 'reduce' ? { reducedMotion: 'reduce' } : {},
    );
    await patchStyles(page, process.env.PATCH); // PATCH=name: a style patch (STYLE_PATCHES in browser.ts)
    await page.goto(
      boardUrl(server.url, {
        symbols,
        key,
        base: server.url,
        attrs: process.env.COLUMNS ? { columns: process.env.COLUMNS } : {},
      }),
    );
    await until(
      'rows painted',
      async () => (await js<{ paintAt?: number }[]>(page, '__bench.times()'))[0]?.paintAt,
      20_000,
    );
    await sleep(process.env.COLUMNS ? 6000 : 2000);
    const prices = new Map(
      quotesOf(await server.call(`/v1/prices?symbols=${symbols.join(',')}`, { key: 'enterprise-key:trace-push' })).map(
        (q) => [q.symbol, q.price],
      ),
    );
    const cdp = await context.newCDPSession(page);
    if (process.env.JS_PROFILE) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    await browser.startTracing(page, {
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink', 'cc', 'benchmark'],
    });
    const t0 = Date.now();
    // PUSH_RANGE=from:to: push only to those of the board's symbols (e.g. 0:20 on screen, 60:152 off it).
    const [from, to] = (process.env.PUSH_RANGE ?? `0:${symbols.length}`).split(':').map(Number);
    const pushed = symbols.slice(from, to);
    await pushLoad(
      server,
      { symbols: pushed, seconds: SECONDS, perSecond: Number(process.env.PER_SECOND ?? 200), everyMs: 50 },
      prices,
    );
    await sleep(500);
    const wall = (Date.now() - t0) / 1000;
    const buf = await browser.stopTracing();
    if (process.env.JS_PROFILE) {
      const { profile } = await cdp.send('Profiler.stop');
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      const self = new Map<string, number>();
      const deltas = profile.timeDeltas ?? [];
      profile.samples?.forEach((id, i) => {
        const f = byId.get(id)!.callFrame;
        const k = `${f.functionName || '(anon)'} ${f.url.replace(/^.*\//, '')}:${f.lineNumber + 1}`;
        self.set(k, (self.get(k) ?? 0) + (deltas[i + 1] ?? 0) / 1000);
      });
      const secs = (profile.endTime - profile.startTime) / 1e6;
      console.log(
        `JS self time ms/s: ${[...self]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 30)
          .map(([k, v]) => `\n  ${(v / secs).toFixed(2)} ${k}`)
          .join('')}`,
      );
    }
    await context.close();
    mkdirSync(resolve(ROOT, 'bench/tmp'), { recursive: true });
    writeFileSync(resolve(ROOT, 'bench/tmp/live.trace.json'), buf);
    const events: Ev[] = JSON.parse(buf.toString()).traceEvents;
    const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
    if (!main) throw new Error('no renderer main thread in the trace');
    const onMain = events
      .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X')
      .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
    const tasks = onMain.filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask');
    // Self time per kind inside [from, to): an event's duration minus its nested kinds' (one level of nesting counted).
    const selfByKind = (from: number, to: number, field: 'dur' | 'tdur' = 'dur'): Map<string, number> => {
      const inside = onMain.filter((e) => KINDS.includes(e.name) && e.ts >= from && e.ts + (e.dur ?? 0) <= to);
      const out = new Map<string, number>();
      for (const e of inside) {
        const end = e.ts + (e.dur ?? 0);
        const nested = inside
          .filter((c) => c !== e && c.ts >= e.ts && c.ts + (c.dur ?? 0) <= end)
          .filter(
            (c, _, arr) =>
              !arr.some(
                (p) => p !== c && p.ts <= c.ts && p.ts + (p.dur ?? 0) >= c.ts + (c.dur ?? 0) && p.dur! > c.dur!,
              ),
          )
          .reduce((s, c) => s + (c[field] ?? 0), 0);
        out.set(e.name, (out.get(e.name) ?? 0) + ((e[field] ?? 0) - nested) / 1000);
      }
      return out;
    };
    const fmt = (m: Map<string, number>, min = 1) =>
      [...m]
        .filter(([, v]) => v >= min)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${v.toFixed(1)}`)
        .join(', ');
    const start = tasks[0]?.ts ?? 0;
    const long = tasks.filter((t) => (t.dur ?? 0) > 50_000);
    console.log(`${long.length} tasks over 50 ms in ${wall.toFixed(1)} s of load:`);
    for (const t of long) {
      const end = t.ts + t.dur!;
      const styles = onMain
        .filter((e) => e.name === 'UpdateLayoutTree' && e.ts >= t.ts && e.ts <= end)
        .map((e) => `${((e.dur ?? 0) / 1000).toFixed(1)}ms/${String(e.args?.elementCount ?? '?')}el`);
      console.log(
        `  at ${((t.ts - start) / 1000).toFixed(0)} ms: ${(t.dur! / 1000).toFixed(1)} ms (cpu ${((t.tdur ?? 0) / 1000).toFixed(1)}) — ${fmt(selfByKind(t.ts, end), 0.5)}; styles [${styles.join(' ')}]`,
      );
    }
    const byCpu = [...tasks].sort((a, b) => (b.tdur ?? 0) - (a.tdur ?? 0)).slice(0, 8);
    console.log('the tasks of most thread time:');
    for (const t of byCpu)
      console.log(
        `  at ${((t.ts - start) / 1000).toFixed(0)} ms: cpu ${((t.tdur ?? 0) / 1000).toFixed(1)} ms (wall ${(t.dur! / 1000).toFixed(1)}) — ${fmt(selfByKind(t.ts, t.ts + t.dur!), 0.5)}`,
      );
    const all = selfByKind(start, Infinity);
    const perSec = new Map([...all].map(([k, v]) => [k, v / wall]));
    const busy = tasks.reduce((s, t) => s + (t.dur ?? 0), 0) / 1000 / wall;
    const cpu = tasks.reduce((s, t) => s + (t.tdur ?? 0), 0) / 1000 / wall;
    const longCpu = tasks.filter((t) => (t.tdur ?? 0) > 50_000).length;
    console.log(`${longCpu} tasks over 50 ms of thread (cpu) time`);
    console.log(`busy ${busy.toFixed(0)} ms/s (cpu ${cpu.toFixed(0)} ms/s); per second: ${fmt(perSec)}`);
    // CPU per thread (all processes): what else the load costs beside the page's main thread.
    const names = new Map<string, string>();
    for (const e of events)
      if (e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, String(e.args?.name));
      else if (e.name === 'process_name' && !names.has(`${e.pid}`)) names.set(`${e.pid}`, String(e.args?.name));
    const perThread = new Map<string, number>();
    for (const e of events) {
      if (e.ph !== 'X' || !/^(ThreadControllerImpl::)?RunTask$|^ThreadPool_RunTask$/.test(e.name)) continue;
      const k = `${names.get(`${e.pid}`) ?? e.pid}/${names.get(`${e.pid}:${e.tid}`) ?? e.tid}`;
      perThread.set(k, (perThread.get(k) ?? 0) + (e.tdur ?? 0) / 1000 / wall);
    }
    const cpuKinds = selfByKind(start, Infinity, 'tdur');
    console.log(`main thread cpu ms/s: ${fmt(new Map([...cpuKinds].map(([k, v]) => [k, v / wall])))}`);
    console.log(`cpu ms/s per thread: ${fmt(perThread, 2)}`);
    const commitWait = onMain.filter((e) => e.name === 'ProxyMain::BeginMainFrame::commit');
    console.log(
      `main thread waiting for the compositor's commit: ${(commitWait.reduce((s, e) => s + (e.dur ?? 0) - (e.tdur ?? 0), 0) / 1000 / wall).toFixed(1)} ms/s`,
    );
    const layouts = onMain.filter((e) => e.name === 'Layout');
    const layoutCpu = layouts.reduce((s, e) => s + (e.tdur ?? 0), 0) / 1000;
    console.log(
      `${layouts.length} layouts, ${(layoutCpu / Math.max(1, layouts.length)).toFixed(2)} ms cpu each (max ${(Math.max(0, ...layouts.map((e) => e.tdur ?? 0)) / 1000).toFixed(1)})`,
    );
    const styleRecalcs = onMain.filter((e) => e.name === 'UpdateLayoutTree');
    const els = styleRecalcs.map((e) => Number(e.args?.elementCount ?? 0));
    console.log(
      `${styleRecalcs.length} style recalcs, ${els.reduce((a, b) => a + b, 0)} elements (max ${Math.max(0, ...els)} in one)`,
    );
  });
}
runScript(main);
