/**
 * `AB=dist,dist|sysui PROFILE_CPU=4 npx tsx bench/cpu.ts`: main-thread CPU time (thread time, from
 * DevTools timeline traces) of the first paint per build or style patch (`|name` of
 * `STYLE_PATCHES` in browser.ts), in interleaved runs. On a shared machine wall times of one page
 * load vary by ±100 ms; thread time varies less, so a change of a few ms of work shows sooner. Per
 * entry, medians (ms) of: all main-thread tasks to the rows painted, those from the element's
 * connection on, the layouts among them, and the wall times. A debugging aid beside bench/ab.ts.
 */
import { tracePaint, type TraceEvent } from './paint-trace';
import { median } from './util';
import { abBuilds, runScript, samplesPer, withServers } from './tool';

const entries = abBuilds();
const RUNS = Number(process.env.RUNS ?? 9);
const CPU = Number(process.env.PROFILE_CPU ?? 1);

/** Thread time (ms) of `events`. */
const cpuOf = (events: TraceEvent[]) => events.reduce((sum, e) => sum + (e.tdur ?? 0), 0) / 1000;

async function main(): Promise<void> {
  const acc = samplesPer(entries, ['all', 'fromConnection', 'layout', 'wall', 'wallFromConnection']);
  await withServers(entries, async (servers, browser) => {
    // Round 0 warms up the browser; rounds 1..RUNS are measured, every entry once per round.
    for (let run = 0; run <= RUNS; run++) {
      for (const [i, server] of servers.entries()) {
        const trace = await tracePaint(browser, server.url, {
          key: `enterprise-key:cpu${i}-${run}`,
          chart: process.env.CHART ?? 'candles',
          cpu: CPU,
          patch: entries[i]!.split('|')[1],
          categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'loading'],
        });
        if (run === 0) continue;
        const { events, times: t, pid, mainTid, navTs } = trace;
        const end = navTs + t.paintAt * 1000;
        const connection = navTs + t.attachAt * 1000;
        const main = events.filter((e) => e.pid === pid && e.tid === mainTid && e.ph === 'X' && e.ts <= end);
        const tasks = main.filter((e) => e.name === 'RunTask');
        const a = acc[i]!;
        a.all.push(cpuOf(tasks));
        a.fromConnection.push(cpuOf(tasks.filter((e) => e.ts + (e.dur ?? 0) >= connection)));
        a.layout.push(cpuOf(main.filter((e) => e.name === 'Layout' && e.ts >= connection)));
        a.wall.push(t.paintAt);
        a.wallFromConnection.push(t.paintAt - t.attachAt);
      }
    }
  });
  const width = Math.max(...entries.map((e) => e.length));
  for (const [i, entry] of entries.entries()) {
    const a = acc[i]!;
    const f = (xs: number[]) => median(xs).toFixed(1);
    console.log(
      `${entry.padEnd(width)}  cpu nav→painted ${f(a.all)}, connection→painted ${f(a.fromConnection)} (layout ${f(a.layout)}) | wall nav→painted ${f(a.wall)}, connection→painted ${f(a.wallFromConnection)} (${a.all.length} runs, CPU ×${CPU})`,
    );
  }
}

runScript(main);
