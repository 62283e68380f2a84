/**
 * A/B of the live load (bench/live.ts) between builds, interleaved so that machine noise falls on
 * both alike: `AB=/tmp/dist-a,/tmp/dist-b RUNS=3 npx tsx bench/live-ab.ts` (COLUMNS=… for the
 * board's columns, or per entry after a `|`, joined by `+`: `AB="dist,dist|price+change+spark"`;
 * MOTION=reduce for prefers-reduced-motion, LIVE_SECONDS, default 10). Prints
 * each run's long tasks (count, max), main-thread busy ms/s and dropped frames, then the medians
 * per build. A debugging aid.
 */
import { runLive } from './live';
import { median, symbolIds } from './util';
import { abBuilds, runScript, samplesPer, withServers } from './tool';

const dists = abBuilds();
const RUNS = Number(process.env.RUNS ?? 3);
/** An entry's columns: after its `|`, else COLUMNS (none: the default columns). */
const columnsOf = (entry: string): string | undefined =>
  entry.split('|')[1]?.replaceAll('+', ',') ?? process.env.COLUMNS;

async function main(): Promise<void> {
  const res = samplesPer(dists, ['count', 'max', 'busy', 'cpu', 'drop']);
  await withServers(dists, async (servers, browser) => {
    const symbols = symbolIds(await servers[0]!.call('/v1/symbols', { key: 'enterprise-key:ab-setup' })).slice(0, 170);
    for (let run = 0; run < RUNS; run++) {
      for (let i = 0; i < dists.length; i++) {
        const r = await runLive(browser, servers[i]!, {
          symbols,
          key: `enterprise-key:live-ab${i}-${run}`,
          pushKey: `enterprise-key:live-ab-push${i}`,
          seconds: Number(process.env.LIVE_SECONDS ?? 10),
          perSecond: 200,
          everyMs: 50,
          reducedMotion: process.env.MOTION === 'reduce',
          ...(columnsOf(dists[i]!) ? { columns: columnsOf(dists[i]!) } : {}),
        });
        const l = r.load;
        res[i]!.count.push(l.longTaskCount);
        res[i]!.max.push(l.longTaskMaxMs);
        res[i]!.busy.push(l.busyMsPerSec);
        res[i]!.cpu.push(l.cpuMsPerSec);
        res[i]!.drop.push(l.droppedFrames);
        console.log(
          `${dists[i]!.padEnd(16)} run ${run + 1}: ${l.longTaskCount} long tasks (max ${l.longTaskMaxMs.toFixed(0)} ms), busy ${l.busyMsPerSec.toFixed(0)} ms/s (cpu ${l.cpuMsPerSec.toFixed(0)}, script ${l.scriptMsPerSec.toFixed(0)}, style ${l.styleMsPerSec.toFixed(0)}, layout ${l.layoutMsPerSec.toFixed(0)}), dropped ${l.droppedFrames} of ${l.frames}, final mismatches ${r.finalMismatches}, writes ${l.records} records for ${l.appliedQuotes} quotes, redundant ${l.redundant.cell}`,
        );
      }
    }
  });
  dists.forEach((d, i) => {
    const r = res[i]!;
    console.log(
      `${d.padEnd(16)} median of ${RUNS}: ${median(r.count)} long tasks (max ${median(r.max).toFixed(0)} ms), busy ${median(r.busy).toFixed(0)} ms/s (cpu ${median(r.cpu).toFixed(0)}), dropped ${median(r.drop)}; counts ${r.count.join(' ')}`,
    );
  });
}
runScript(main);
