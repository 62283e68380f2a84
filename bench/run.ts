/**
 * `npm run bench`: measures the DESIGN.md §6 targets against baselines built/measured in the same
 * run, prints a table, writes bench/results.json and docs/bench.md. Exits non-zero only when the
 * bench itself cannot measure (a section throws); a missed target is a verdict, not a failure.
 */
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import type { Browser } from 'playwright';
import { launchBrowser } from './browser';
import { runKeyless } from './keyless';
import { runLive } from './live';
import { runLoaded } from './loaded';
import { runMemory } from './memory';
import { runPaint } from './paint';
import { withRendered } from './rendered';
import { runRelayBotnet } from './relay/botnet';
import { runRelayCatalog } from './relay/catalog';
import { runRelayCluster } from './relay/cluster';
import { runRelayFanout } from './relay/fanout';
import { runRelayPages } from './relay/pages';
import { runRenderCost } from './relay/render-cost';
import { buildRows, consoleTable, markdown } from './report';
import type { Sections } from './sections';
import { startBenchServer, type BenchServer } from './server';
import { runSharing } from './sharing';
import { measureEntry } from './module-graph';
import { runSize } from './size';
import { runTabs } from './tabs';
import { symbolIds } from './util';
import { keyedPages, runVisitor, withMarkupFloor } from './visitor';
import { runTickerLive, runWidgetSizes } from './widgets';

const ROOT = resolve(import.meta.dirname, '..');
const TMP = resolve(ROOT, 'bench/tmp');
// BENCH_DIST: measure another build output (a debugging aid); the default is the project's dist/.
const DIST = resolve(ROOT, process.env.BENCH_DIST ?? 'dist');
// e.g. BENCH_ONLY=size,paint, or `npm run bench -- relay` (sections as arguments). Some rows also
// run alone by their own name, which their section's name includes: visitor, rendered and keyless
// (paint), tabs (sharing), columns (live), render (relay). `rendered` runs the visitor rounds with
// the page that includes the relay's rendered board (its rows and the client-only board's).
const ONLY = new Set([...(process.env.BENCH_ONLY ?? '').split(','), ...process.argv.slice(2)].filter(Boolean));
const PARTS: Record<string, string> = {
  visitor: 'paint',
  rendered: 'paint',
  keyless: 'paint',
  tabs: 'sharing',
  columns: 'live',
  render: 'relay',
};
const BROWSER_SECTIONS = [
  'size',
  'paint',
  'live',
  'sharing',
  'memory',
  'visitor',
  'rendered',
  'keyless',
  'tabs',
  'columns',
];
// What a visitor sees (THE first-paint target): measured rounds per condition, board and floor each.
const VISITOR_RUNS = 9;
const KEYLESS_RUNS = 7;

const log = (s: string) => console.log(s);
const want = (name: string) =>
  ONLY.size === 0 || ONLY.has(name) || (PARTS[name] !== undefined && ONLY.has(PARTS[name]));

async function main(): Promise<number> {
  const watchdog = setTimeout(() => {
    console.error('bench: gave up after 20 minutes');
    process.exit(2);
  }, 20 * 60_000);
  watchdog.unref();

  const browserWanted = BROWSER_SECTIONS.some(want);
  if (browserWanted && !existsSync(resolve(DIST, 'price-board.js'))) {
    console.error(`bench: ${DIST}/price-board.js is missing; run "npx vite build" (npm run bench builds first).`);
    return 1;
  }
  mkdirSync(TMP, { recursive: true });
  const sections: Sections = {};
  const failures: Record<string, string> = {};
  const started = Date.now();
  const loadAtStart = loadavg()[0]!;
  const step = async <T>(name: string, fn: () => Promise<T>, wanted = want(name)): Promise<T | undefined> => {
    if (!wanted) return undefined;
    const t0 = Date.now();
    log(`▸ ${name}`);
    try {
      const r = await fn();
      log(`  done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      return r;
    } catch (e) {
      const msg = String((e as Error)?.message ?? e)
        .split('\n')[0]!
        .slice(0, 300);
      failures[name] = msg;
      console.error(`  ${name} failed: ${(e as Error)?.stack ?? e}`);
      return undefined;
    }
  };

  sections.size = await step('size', () => runSize(ROOT, DIST, TMP, log));
  sections.widgetSizes = await step('size', async () => runWidgetSizes(DIST));

  let server: BenchServer | undefined;
  let browser: Browser | undefined;
  let chromiumVersion = 'Chromium ?';
  if (browserWanted)
    try {
      server = await startBenchServer(ROOT, DIST);
      browser = await launchBrowser();
      chromiumVersion = `Chromium ${browser.version()}`;
      const srv = server;
      const br = browser;
      const all = symbolIds(await srv.call('/v1/symbols', { key: 'enterprise-key:bench-setup' }));
      const live170 = all.slice(0, 170);
      if (live170.length < 170) log(`  note: /v1/symbols lists only ${live170.length} symbols`);

      sections.loaded = await step('size', () => runLoaded(br, srv, DIST, 'enterprise-key:bench-loaded'));
      const initialFiles = measureEntry(resolve(DIST, 'price-board.js'), DIST).initial.files.map((f) => f.file);
      sections.paint = await step('paint', () =>
        runPaint(br, srv, { variant: 'same-origin', runs: 7, key: 'enterprise-key:bench-paint', initialFiles }),
      );
      sections.paintCors = await step('paint', () =>
        runPaint(br, srv, { variant: 'cross-origin', runs: 7, key: 'enterprise-key:bench-paint-cors', initialFiles }),
      );
      sections.visitor = await step(
        'visitor',
        async () => {
          const pages = await withMarkupFloor(br, srv, keyedPages(srv));
          // The page with the relay's rendered board in the same rounds; without it if its relay cannot start.
          const rendered = await withRendered(srv, pages, {
            dist: DIST,
            upstreamKey: 'enterprise-key:bench-rendered',
          }).catch((error: unknown) => {
            failures.rendered = String((error as Error)?.message ?? error).slice(0, 300);
            console.error(`  rendered board: ${(error as Error)?.stack ?? error}`);
            return undefined;
          });
          try {
            return await runVisitor(br, rendered?.pages ?? pages, {
              runs: VISITOR_RUNS,
              keyPrefix: 'enterprise-key:bench-visitor',
            });
          } finally {
            await rendered?.close();
          }
        },
        want('visitor') || want('rendered'),
      );
      sections.keyless = await step('keyless', () =>
        runKeyless(br, srv, { runs: KEYLESS_RUNS, keyPrefix: 'enterprise-key:bench-keyless', dist: DIST }),
      );
      const liveOpts = {
        symbols: live170,
        pushKey: 'enterprise-key:bench-live-push',
        seconds: 10,
        perSecond: 200,
        everyMs: 50,
      };
      sections.live = await step('live', () => runLive(br, srv, { ...liveOpts, key: 'enterprise-key:bench-live' }));
      // Diagnostic: the same load without the price flash (prefers-reduced-motion).
      sections.liveReduced = await step('live', () =>
        runLive(br, srv, { ...liveOpts, key: 'enterprise-key:bench-live-rm', reducedMotion: true }),
      );
      sections.liveColumns = await step('columns', () =>
        runLive(br, srv, {
          ...liveOpts,
          key: 'enterprise-key:bench-live-columns',
          columns: 'price,change,change-amount,spark,bubble',
        }),
      );
      sections.tickerLive = await step('live', () =>
        runTickerLive(br, srv, { ...liveOpts, key: 'enterprise-key:bench-ticker' }),
      );
      sections.sharing = await step('sharing', () =>
        runSharing(br, srv, { keyPrefix: 'enterprise-key:bench-share', boards: 10 }),
      );
      sections.tabs = await step('tabs', () => runTabs(br, srv, { keyPrefix: 'enterprise-key:bench-tabs', tabs: 5 }));
      sections.memory = await step('memory', () =>
        runMemory(br, srv, {
          cycles: 1000,
          events: 100_000,
          batch: 1000,
          keyPrefix: 'enterprise-key:bench-mem',
          liveSymbols: live170,
        }),
      );
    } catch (e) {
      failures.setup = String((e as Error)?.message ?? e);
      console.error(`bench setup failed: ${(e as Error)?.stack ?? e}`);
    } finally {
      await browser?.close().catch(() => undefined);
      await server?.close().catch(() => undefined);
    }
  // After the browser sections: the relay's 10,000 clients would disturb their timings.
  sections.relay = await step('relay', async () => {
    // Each part on its own: one that cannot measure (its row says failed) does not cost the others.
    const part = <T>(name: string, fn: () => Promise<T>): Promise<T | undefined> =>
      fn().catch((error: unknown) => {
        console.error(`  relay ${name} failed: ${(error as Error)?.stack ?? error}`);
        return undefined;
      });
    return {
      fanout: await part('fan-out', () => runRelayFanout(log)),
      pages: await part('pages', runRelayPages),
      cluster: await part('cluster', () => runRelayCluster(log)),
      botnet: await part('botnet', () => runRelayBotnet(log)),
      catalog: await part('catalog', () => runRelayCatalog(log)),
    };
  });

  // The render endpoint's cost, its relay alone in a process (after the fan-out's clients are gone).
  sections.renderCost = await step('render', () => runRenderCost(log));

  let commit = 'unknown';
  try {
    commit = execSync('git rev-parse --short HEAD', { cwd: ROOT }).toString().trim();
    if (execSync('git status --porcelain -- src', { cwd: ROOT }).toString().trim()) commit += ' (src/ modified)';
  } catch {
    /* not a git checkout */
  }
  const env = {
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    chromium: chromiumVersion,
    node: process.versions.node,
    cpus: `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}`,
    commit,
    durationS: String(Math.round((Date.now() - started) / 1000)),
    // Timings depend on what else runs on the machine: the 1-minute load average, start → end.
    load: `${loadAtStart.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`,
  };
  // A partial run shows only what it measured.
  const rows = buildRows(sections, failures).filter((r) => ONLY.size === 0 || r.measured !== 'skipped');
  log('');
  log(consoleTable(rows));
  const missed = rows.filter((r) => r.verdict === 'NOT met').length;
  const met = rows.filter((r) => r.verdict === 'met').length;
  log('');
  log(
    `Targets (DESIGN.md §6): ${met} met, ${missed} not met${Object.keys(failures).length ? `, sections failed: ${Object.keys(failures).join(', ')}` : ''}. ${env.durationS} s.`,
  );

  if (ONLY.size === 0) {
    writeFileSync(
      resolve(ROOT, 'bench/results.json'),
      JSON.stringify({ env, rows, failures, sections }, null, 2) + '\n',
    );
    writeFileSync(resolve(ROOT, 'docs/bench.md'), markdown(rows, env, sections));
    log('Wrote bench/results.json and docs/bench.md');
  } else {
    writeFileSync(
      resolve(TMP, 'results.partial.json'),
      JSON.stringify({ env, rows, failures, sections }, null, 2) + '\n',
    );
    log('Partial run (BENCH_ONLY): wrote bench/tmp/results.partial.json only');
  }
  return Object.keys(failures).length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
