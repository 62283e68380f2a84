/**
 * `npx tsx bench/trace.ts`: one DevTools timeline trace of the first paint; prints the main
 * thread's tasks from the board's /v1/prices request to its rows painted, each with its largest
 * events (a debugging aid beside bench:profile, which only sees JavaScript).
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { boardUrl, js, launchBrowser, newPage, patchStyles } from './browser';
import { PAINT_SYMBOLS } from './paint';
import { startBenchServer } from './server';
import { until } from './util';

interface Ev {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  cat: string;
  args?: {
    data?: { url?: string; requestId?: string; functionName?: string; type?: string; name?: string };
    name?: string;
  };
}
const ROOT = resolve(import.meta.dirname, '..');
const CPU = Number(process.env.PROFILE_CPU ?? 1);

async function main(): Promise<void> {
  const server = await startBenchServer(ROOT, resolve(ROOT, 'dist'));
  const browser = await launchBrowser();
  try {
    for (let run = 0; run < 2; run++) {
      const { context, page, cdp } = await newPage(browser, { watch: true, rows: PAINT_SYMBOLS.length });
      if (CPU > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU });
      await patchStyles(page, process.env.PATCH); // e.g. PATCH=nosizer (STYLE_PATCHES in browser.ts)
      await browser.startTracing(page, {
        categories: [
          'devtools.timeline',
          'disabled-by-default-devtools.timeline',
          'v8',
          'blink.user_timing',
          'loading',
          'v8.execute',
          'disabled-by-default-v8.compile',
        ],
      });
      await page.goto(
        boardUrl(server.url, {
          symbols: PAINT_SYMBOLS,
          key: `enterprise-key:bench-trace${run}`,
          base: server.url,
          chart: process.env.PROFILE_CHART ?? 'candles',
          stream: 'auto',
        }),
      );
      await until(
        'rows painted',
        async () => (await js<{ paintAt?: number }[]>(page, '__bench.times()'))[0]?.paintAt,
        15_000,
        20,
      );
      const t = (await js<{ rowsAt: number; paintAt: number; attachAt: number }[]>(page, '__bench.times()'))[0]!;
      const buf = await browser.stopTracing();
      await context.close();
      if (run === 0) continue;
      writeFileSync(resolve(ROOT, 'bench/tmp/first-paint.trace.json'), buf);
      const events: Ev[] = JSON.parse(buf.toString()).traceEvents;
      const nav = events.find(
        (e) => e.name === 'navigationStart' || e.name === 'NavigationStartToLargestContentfulPaint::Start',
      );
      const send = events.filter(
        (e) => e.name === 'ResourceSendRequest' && String(e.args?.data?.url).includes('/v1/prices'),
      )[0]!;
      const tid = events
        .filter((e) => e.name === 'RunTask' && e.pid === send.pid)
        .reduce((m, e) => {
          m.set(e.tid, (m.get(e.tid) ?? 0) + (e.dur ?? 0));
          return m;
        }, new Map<number, number>());
      const mainTid =
        events.find((e) => e.name === 'thread_name' && e.pid === send.pid && e.args?.name === 'CrRendererMain')?.tid ??
        [...tid].sort((a, b) => b[1] - a[1])[0]![0];
      const navTs = events.find((e) => e.name === 'navigationStart' && e.pid === send.pid)?.ts ?? nav?.ts ?? 0;
      console.log(
        `attach ${t.attachAt.toFixed(1)} rowsInDom ${t.rowsAt.toFixed(1)} painted ${t.paintAt.toFixed(1)} (ms from navigation)`,
      );
      const rel = (ts: number) => ((ts - navTs) / 1000).toFixed(1);
      const from = send.ts - 2000;
      const to = navTs + t.paintAt * 1000;
      for (const e of events.filter(
        (e) => e.name.startsWith('Resource') && e.pid === send.pid && e.ts >= from - 60000 && e.ts <= to,
      ))
        console.log(
          `  ${rel(e.ts)} ${e.name} ${String(e.args?.data?.url ?? e.args?.data?.requestId ?? '')
            .replace(/^https?:\/\/[^/]+/, '')
            .slice(0, 60)}`,
        );
      const onMain = events.filter(
        (e) => e.pid === send.pid && e.tid === mainTid && e.ph === 'X' && e.ts + (e.dur ?? 0) >= from && e.ts <= to,
      );
      const tasks = onMain.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) > 300);
      for (const task of tasks) {
        const end = task.ts + task.dur!;
        const inner = onMain.filter(
          (e) => e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end && (e.dur ?? 0) > 300,
        );
        console.log(
          `${rel(task.ts)} task ${(task.dur! / 1000).toFixed(1)} ms (cpu ${((task.tdur ?? 0) / 1000).toFixed(1)})`,
        );
        for (const e of inner.slice(0, 25)) {
          const d = e.args?.data ?? {};
          const what = d.url ? String(d.url).replace(/^.*\//, '') : (d.functionName ?? d.type ?? d.name ?? '');
          console.log(
            `    ${rel(e.ts)} ${(e.dur! / 1000).toFixed(1).padStart(6)} (cpu ${((e.tdur ?? 0) / 1000).toFixed(1)}) ${e.name} ${what}`,
          );
        }
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
