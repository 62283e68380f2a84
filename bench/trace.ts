/**
 * `npx tsx bench/trace.ts`: one DevTools timeline trace of the first paint; prints the main
 * thread's tasks from the board's /v1/prices request to its rows painted, each with its largest
 * events (a debugging aid beside bench:profile, which only sees JavaScript). `TRACE_MORE=fonts,blink`
 * adds trace categories (there: each font lookup the renderer asks of the browser process, and its
 * wait), `TRACE_MIN_US` and `TRACE_MAX` how small and how many events are printed per task.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { tracePaint } from './paint-trace';
import { ROOT, runScript, withServer } from './tool';

const CPU = Number(process.env.PROFILE_CPU ?? 1);

async function main(): Promise<void> {
  await withServer('dist', async (server, browser) => {
    for (let run = 0; run < 2; run++) {
      const trace = await tracePaint(browser, server.url, {
        key: `enterprise-key:bench-trace${run}`,
        chart: process.env.PROFILE_CHART ?? 'candles',
        stream: 'auto',
        cpu: CPU,
        patch: process.env.PATCH, // e.g. PATCH=nosizer (STYLE_PATCHES in browser.ts)
        categories: [
          'devtools.timeline',
          'disabled-by-default-devtools.timeline',
          'v8',
          'blink.user_timing',
          'loading',
          'v8.execute',
          'disabled-by-default-v8.compile',
          ...(process.env.TRACE_MORE ? process.env.TRACE_MORE.split(',') : []),
        ],
      });
      if (run === 0) continue;
      writeFileSync(resolve(ROOT, 'bench/tmp/first-paint.trace.json'), trace.raw);
      const { events, times: t, send, pid, mainTid, navTs } = trace;
      console.log(
        `attach ${t.attachAt.toFixed(1)} rowsInDom ${t.rowsAt.toFixed(1)} painted ${t.paintAt.toFixed(1)} (ms from navigation)`,
      );
      const rel = (ts: number) => ((ts - navTs) / 1000).toFixed(1);
      const from = send.ts - 2000;
      const to = navTs + t.paintAt * 1000;
      for (const e of events.filter(
        (e) => e.name.startsWith('Resource') && e.pid === pid && e.ts >= from - 60000 && e.ts <= to,
      ))
        console.log(
          `  ${rel(e.ts)} ${e.name} ${String(e.args?.data?.url ?? e.args?.data?.requestId ?? '')
            .replace(/^https?:\/\/[^/]+/, '')
            .slice(0, 60)}`,
        );
      const onMain = events.filter(
        (e) => e.pid === pid && e.tid === mainTid && e.ph === 'X' && e.ts + (e.dur ?? 0) >= from && e.ts <= to,
      );
      const tasks = onMain.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) > 300);
      for (const task of tasks) {
        const end = task.ts + task.dur!;
        const inner = onMain.filter(
          (e) =>
            e !== task &&
            e.ts >= task.ts &&
            e.ts + (e.dur ?? 0) <= end &&
            (e.dur ?? 0) > Number(process.env.TRACE_MIN_US ?? 300),
        );
        console.log(
          `${rel(task.ts)} task ${(task.dur! / 1000).toFixed(1)} ms (cpu ${((task.tdur ?? 0) / 1000).toFixed(1)})`,
        );
        for (const e of inner.slice(0, Number(process.env.TRACE_MAX ?? 25))) {
          const d = e.args?.data ?? {};
          const what = d.url ? String(d.url).replace(/^.*\//, '') : (d.functionName ?? d.type ?? d.name ?? '');
          console.log(
            `    ${rel(e.ts)} ${(e.dur! / 1000).toFixed(1).padStart(6)} (cpu ${((e.tdur ?? 0) / 1000).toFixed(1)}) ${e.name} ${what}`,
          );
        }
      }
    }
  });
}
runScript(main);
