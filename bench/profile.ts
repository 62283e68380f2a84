/**
 * `npm run bench:profile`: DevTools CPU profiles of the first paint (the page of the paint
 * section), to see what runs between the board's /v1/prices answer and its rows in the DOM.
 * Prints, over RUNS runs, the mean self time per function (and per script) from the board's
 * /v1/prices request to its rows in the DOM,
 * and saves the last profile to bench/tmp/first-paint.cpuprofile (open it in DevTools).
 * PROFILE_CPU=4 profiles under 4× CPU throttling.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { boardUrl, js, newPage } from './browser';
import { PAINT_SYMBOLS } from './paint';
import { median, until } from './util';
import { ROOT, runScript, withServer } from './tool';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const RUNS = Number(process.env.RUNS ?? 5);
const CPU = Number(process.env.PROFILE_CPU ?? 1);

/** Self time (ms) per "function @ file:line" of the samples between `from` and `to` (µs, the profile's clock). */
function selfTimes(p: Profile, from: number, to: number): Map<string, number> {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const out = new Map<string, number>();
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i]!;
    const dt = (p.timeDeltas[i + 1] ?? 0) / 1000;
    if (t < from || t > to) continue;
    const f = byId.get(p.samples[i]!)!.callFrame;
    const file = f.url.replace(/^.*\//, '').replace(/\?.*$/, '');
    const key = `${f.functionName || '(anonymous)'} @ ${file || '-'}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
    out.set(key, (out.get(key) ?? 0) + dt);
  }
  return out;
}

async function main(): Promise<void> {
  const perFn = new Map<string, number[]>();
  const windows: number[] = [];
  let last: Profile | undefined;
  await withServer('dist', async (server, browser) => {
    for (let run = 0; run <= RUNS; run++) {
      const { context, page, cdp } = await newPage(browser, { watch: true, rows: PAINT_SYMBOLS.length });
      if (CPU > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU });
      const net = new Map<string, { url: string; sent: number; done?: number }>();
      cdp.on('Network.requestWillBeSent', (e) => net.set(e.requestId, { url: e.request.url, sent: e.timestamp }));
      cdp.on('Network.loadingFinished', (e) => {
        const r = net.get(e.requestId);
        if (r) r.done = e.timestamp;
      });
      await cdp.send('Network.enable');
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      await cdp.send('Profiler.start');
      const chart = process.env.PROFILE_CHART ?? 'candles';
      const stream = process.env.PROFILE_STREAM ?? 'auto';
      await page.goto(
        boardUrl(server.url, {
          symbols: PAINT_SYMBOLS,
          key: 'enterprise-key:bench-profile',
          base: server.url,
          chart,
          stream,
        }),
      );
      const t = await until(
        'rows painted',
        async () =>
          (await js<{ rowsAt?: number; paintAt?: number }[]>(page, '__bench.times()'))[0]?.paintAt !== undefined
            ? (await js<{ rowsAt: number }[]>(page, '__bench.times()'))[0]
            : undefined,
        15_000,
        20,
      );
      const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
      await context.close();
      const reqs = [...net.values()];
      const doc = reqs.find((r) => r.url.includes('/bench/board.html'))!;
      const prices = reqs.find((r) => r.url.includes('/v1/prices'))!;
      // Network timestamps are seconds on the profile's monotonic clock; rowsAt is ms from navigation
      // start (≈ the document request). From the request's start: whatever keeps the main thread
      // busy from then on delays the answer's handling.
      const from = prices.sent * 1e6;
      const to = (doc.sent + t.rowsAt / 1000) * 1e6;
      if (run === 0) continue; // warm-up
      windows.push((to - from) / 1000);
      for (const [k, v] of selfTimes(profile, from, to)) perFn.set(k, [...(perFn.get(k) ?? []), v]);
      last = profile;
    }
  });
  mkdirSync(resolve(ROOT, 'bench/tmp'), { recursive: true });
  writeFileSync(resolve(ROOT, 'bench/tmp/first-paint.cpuprofile'), JSON.stringify(last));
  const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / RUNS; // mean over runs (a function absent in a run counts 0)
  const rows = [...perFn].map(([k, v]) => [k, total(v)] as const).sort((a, b) => b[1] - a[1]);
  console.log(
    `prices request sent → rows in DOM: median ${median(windows).toFixed(1)} ms over ${RUNS} runs${CPU > 1 ? ` (CPU ×${CPU})` : ''}; mean self time per function:`,
  );
  for (const [k, v] of rows.slice(0, 40)) console.log(`${v.toFixed(1).padStart(7)} ms  ${k}`);
  const byFile = new Map<string, number>();
  for (const [k, v] of rows) {
    const file = k.replace(/^.* @ /, '').replace(/:\d+:\d+$/, '');
    byFile.set(file, (byFile.get(file) ?? 0) + v);
  }
  console.log('by script:');
  for (const [f, v] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 10))
    console.log(`${v.toFixed(1).padStart(7)} ms  ${f}`);
}

runScript(main);
