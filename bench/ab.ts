/**
 * A/B of first paint between builds, interleaved so that machine noise falls on both alike:
 * `AB=dist,dist-b RUNS=9 npx tsx bench/ab.ts`. Prints per build the medians (ms) from the
 * element's connection to its rows in the DOM and to the rows painted. A debugging aid.
 */
import { boardUrl, js, newPage, patchStyles } from './browser';
import { PAINT_SYMBOLS } from './paint';
import { median, until } from './util';
import { abBuilds, runScript, samplesPer, withServers } from './tool';

// Each entry: a dist folder, optionally `|name` of a style patch (`STYLE_PATCHES` in browser.ts).
const dists = abBuilds();
const RUNS = Number(process.env.RUNS ?? 9);
const CPU = Number(process.env.PROFILE_CPU ?? 1);

async function main(): Promise<void> {
  const res = samplesPer(dists, ['rows', 'paint', 'nav', 'frame']);
  await withServers(dists, async (servers, browser) => {
    for (let run = 0; run <= RUNS; run++) {
      for (let i = 0; i < dists.length; i++) {
        const server = servers[i]!;
        const { context, page, cdp } = await newPage(browser, { watch: true, rows: PAINT_SYMBOLS.length });
        await patchStyles(page, dists[i]!.split('|')[1]);
        if (CPU > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU });
        await page.goto(
          boardUrl(server.url, {
            symbols: PAINT_SYMBOLS,
            key: `enterprise-key:ab${i}-${run}`,
            base: server.url,
            chart: process.env.CHART ?? 'candles',
          }),
        );
        const t = await until(
          'painted',
          async () => {
            const x = (await js<{ paintAt?: number; rowsAt: number; attachAt: number }[]>(page, '__bench.times()'))[0];
            return x?.paintAt !== undefined ? x : undefined;
          },
          15_000,
          20,
        );
        await context.close();
        if (run === 0) continue;
        res[i]!.rows.push(t.rowsAt - t.attachAt);
        res[i]!.paint.push(t.paintAt! - t.attachAt);
        res[i]!.nav.push(t.paintAt!);
        res[i]!.frame.push(t.paintAt! - t.rowsAt);
      }
    }
  });
  dists.forEach((d, i) =>
    console.log(
      `${d.padEnd(12)} connection→rows in DOM ${median(res[i]!.rows).toFixed(1)} ms, →painted ${median(res[i]!.paint).toFixed(1)} ms, nav→painted ${median(res[i]!.nav).toFixed(1)} ms, rows in DOM→painted ${median(res[i]!.frame).toFixed(1)} ms (${RUNS} runs)`,
    ),
  );
}
runScript(main);
