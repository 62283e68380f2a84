/**
 * Size: gzip -9 of the module graphs a browser actually downloads (module-graph.ts), for
 * dist/price-board.js and for two baselines built in the same run with the same Vite/minifier
 * settings into bench/tmp/; the lazy chunks by role, and the composition of each by source folder.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { build, loadConfigFromFile, type InlineConfig } from 'vite';
import { measureEntry, sizeOf, type EntrySizes, type GraphSize } from './module-graph';

type Shares = { group: string; share: number; approxGzip: number }[];
export interface Composition {
  /** Share of the rendered (pre-minification) code per source group, applied to the measured gzip. */
  initial: Shares;
  /** The same for each lazily loaded file (name without its hash). */
  lazy: { file: string; groups: Shares }[];
}
/**
 * The lazy chunks by role (static analysis of dist/): those every board asks for at start, beside
 * its first prices request (the board's `board-extras`; the tabs' sharing of one stream `tabs`,
 * asked for as the stream starts unless stream="off"; the hub and its driver are in the initial
 * module), and what a chart adds (the chart area and the chart
 * with lightweight-charts). Chunks are told apart by their names (`assets/<name>-<hash>.js`); the
 * files they import statically (a chunk of shared helpers) count with them.
 */
export interface LazySplit {
  /** The graphs of the chunks loaded at start, minus the initial graph. */
  start: GraphSize;
  /** The tabs chunk's graph (one stream per browser), minus the initial graph and the other start chunks' graphs. */
  transport: GraphSize;
  /** The chart-area and price-chart graphs, minus the initial graph and the start chunks. */
  chart: GraphSize;
  /** Initial graph + start chunks: all JS a board without chart (stream on) loads. */
  boardWithoutChart: GraphSize;
  /**
   * Lazily imported files in none of these graphs (each would need a decision where it belongs).
   * A dynamic import target that a start or chart graph holds anyway (e.g. a chunk the transport
   * imports statically and the initial module lazily) is not listed.
   */
  unclassified: GraphSize;
}

/** Loaded at start by every board (the tabs' code unless stream="off"). */
const WIDGET_CHUNKS = /(^|\/)(board-extras)-[\w-]+\.js$/;
const TRANSPORT_CHUNK = /(^|\/)tabs-[\w-]+\.js$/;
const CHART_CHUNKS = /(^|\/)(chart-area|price-chart)-[\w-]+\.js$/;

export function splitLazy(project: EntrySizes, root: string): LazySplit {
  const filesOf = (test: RegExp) =>
    new Set(project.lazy.filter((l) => test.test(l.target)).flatMap((l) => l.graph.files.map((f) => f.file)));
  const widget = filesOf(WIDGET_CHUNKS);
  const transport = [...filesOf(TRANSPORT_CHUNK)].filter((f) => !widget.has(f));
  const start = new Set([...widget, ...transport]);
  const chart = [...filesOf(CHART_CHUNKS)].filter((f) => !start.has(f));
  const abs = (files: Iterable<string>) => [...files].map((f) => resolve(root, f));
  return {
    start: sizeOf(abs(start), root),
    transport: sizeOf(abs(transport), root),
    chart: sizeOf(abs(chart), root),
    boardWithoutChart: sizeOf(abs([...project.initial.files.map((f) => f.file), ...start]), root),
    unclassified: sizeOf(
      abs(project.lazyAll.files.map((f) => f.file).filter((f) => !start.has(f) && !chart.includes(f))),
      root,
    ),
  };
}

export interface SizeResults {
  project: EntrySizes;
  split: LazySplit;
  baselines: { lit: EntrySizes; chartsCandles: EntrySizes; litPlusCharts: EntrySizes };
  settings: { minify: unknown; target: unknown; vite: string };
  composition?: Composition;
  compositionError?: string;
}

// Plain JS entries (bench/tmp is inside the type-checked tree, so no .ts files are written there).
const BASELINE_SOURCES = {
  lit: `import { LitElement, html } from 'lit';
class BaselineElement extends LitElement {
  render() { return html\`<p>lit</p>\`; }
}
if (!customElements.get('baseline-element')) customElements.define('baseline-element', BaselineElement);
`,
  chartsCandles: `import { createChart, CandlestickSeries } from 'lightweight-charts';
export function mount(container) {
  const chart = createChart(container);
  chart.addSeries(CandlestickSeries).setData([{ time: 1700000000, open: 1, high: 2, low: 0.5, close: 1.5 }]);
  return chart;
}
`,
  litPlusCharts: `import { LitElement, html } from 'lit';
class BaselineBoth extends LitElement {
  render() { return html\`<div></div>\`; }
  async firstUpdated() {
    const { createChart, CandlestickSeries } = await import('lightweight-charts');
    createChart(this.renderRoot.querySelector('div')).addSeries(CandlestickSeries);
  }
}
if (!customElements.get('baseline-both')) customElements.define('baseline-both', BaselineBoth);
`,
} as const;

async function projectBuildSettings(projectRoot: string): Promise<{ minify: unknown; target: unknown }> {
  try {
    const loaded = await loadConfigFromFile(
      { command: 'build', mode: 'production' },
      resolve(projectRoot, 'vite.config.ts'),
      projectRoot,
      'silent',
    );
    const b = loaded?.config.build ?? {};
    return { minify: b.minify, target: b.target };
  } catch {
    return { minify: undefined, target: 'es2022' };
  }
}

/** Builds one baseline entry with the project's minifier/target into bench/tmp/baselines/<name>/dist. */
async function buildBaseline(
  name: keyof typeof BASELINE_SOURCES,
  tmpRoot: string,
  settings: { minify: unknown; target: unknown },
): Promise<EntrySizes> {
  const dir = resolve(tmpRoot, 'baselines', name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const entry = resolve(dir, 'entry.js');
  writeFileSync(entry, BASELINE_SOURCES[name]);
  const outDir = resolve(dir, 'dist');
  const config: InlineConfig = {
    configFile: false,
    root: dir,
    base: './',
    logLevel: 'silent',
    build: {
      target: (settings.target as never) ?? 'es2022',
      ...(settings.minify === undefined ? {} : { minify: settings.minify as never }),
      outDir,
      emptyOutDir: true,
      modulePreload: { polyfill: false },
      rolldownOptions: {
        input: { [name]: entry },
        preserveEntrySignatures: 'exports-only',
        output: { entryFileNames: '[name].js', chunkFileNames: 'assets/[name]-[hash].js' },
      },
    },
  };
  await build(config);
  return measureEntry(resolve(outDir, `${name}.js`), outDir);
}

function groupOf(id: string, projectRoot: string): string {
  const clean = id.replace(/^\0/, '').split('?')[0]!;
  const nm = clean.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = clean.slice(nm + 'node_modules/'.length).split('/');
    const pkg = rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
    return pkg;
  }
  const rel = relative(projectRoot, clean);
  if (rel.startsWith('src/')) {
    const parts = rel.split('/');
    return parts.length > 2 ? `src/${parts[1]}/` : rel;
  }
  if (/preload-helper/.test(clean)) return 'vite preload helper';
  if (/runtime.*helpers/.test(clean)) return 'compiler helpers';
  return rel.startsWith('..') || rel.startsWith('/') ? clean.split('/').slice(-2).join('/') : rel || clean;
}

/**
 * Where the bytes come from: rebuilds src/price-board.ts with the project's own config into
 * bench/tmp/attrib and reads rolldown's per-module rendered lengths. Approximate (pre-minification
 * shares applied to the gzip measured on dist/); for guidance only.
 */
async function composition(projectRoot: string, tmpRoot: string, project: EntrySizes): Promise<Composition> {
  // Gzip per lazy file is taken from the attribution build itself (same sources, same config).
  const outDir = resolve(tmpRoot, 'attrib');
  const result = await build({
    configFile: resolve(projectRoot, 'vite.config.ts'),
    root: projectRoot,
    logLevel: 'silent',
    build: {
      outDir,
      emptyOutDir: true,
      write: true,
      rolldownOptions: { input: { 'price-board': resolve(projectRoot, 'src/price-board.ts') } },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as unknown as {
    output: {
      type: string;
      fileName: string;
      isEntry?: boolean;
      modules?: Record<string, { renderedLength: number }>;
    }[];
  }[];
  const chunks = outputs.flatMap((o) => o.output).filter((c) => c.type === 'chunk');
  const entry = measureEntry(resolve(outDir, 'price-board.js'), outDir);
  const initialFiles = new Set(entry.initial.files.map((f) => f.file));
  const tally = (files: Set<string>, gzipTotal: number) => {
    const byGroup = new Map<string, number>();
    let total = 0;
    for (const c of chunks) {
      if (!files.has(c.fileName)) continue;
      for (const [id, m] of Object.entries(c.modules ?? {})) {
        const g = groupOf(id, projectRoot);
        byGroup.set(g, (byGroup.get(g) ?? 0) + m.renderedLength);
        total += m.renderedLength;
      }
    }
    return [...byGroup.entries()]
      .map(([group, len]) => ({
        group,
        share: total ? len / total : 0,
        approxGzip: total ? Math.round((gzipTotal * len) / total) : 0,
      }))
      .sort((a, b) => b.share - a.share);
  };
  return {
    initial: tally(initialFiles, project.initial.gzip),
    lazy: entry.lazyAll.files.map((f) => ({
      file: f.file.replace(/^assets\//, '').replace(/-[\w-]{8}\.js$/, '.js'),
      groups: tally(new Set([f.file]), f.gzip),
    })),
  };
}

export async function runSize(
  projectRoot: string,
  dist: string,
  tmpRoot: string,
  log: (s: string) => void,
): Promise<SizeResults> {
  const settings = await projectBuildSettings(projectRoot);
  log(
    `  baselines with minify=${String(settings.minify ?? 'vite default')} target=${String(settings.target ?? 'default')}`,
  );
  const lit = await buildBaseline('lit', tmpRoot, settings);
  const chartsCandles = await buildBaseline('chartsCandles', tmpRoot, settings);
  const litPlusCharts = await buildBaseline('litPlusCharts', tmpRoot, settings);
  const project = measureEntry(resolve(dist, 'price-board.js'), dist);
  const { version } = JSON.parse(readFileSync(resolve(projectRoot, 'node_modules/vite/package.json'), 'utf8')) as {
    version: string;
  };
  const out: SizeResults = {
    project,
    split: splitLazy(project, dist),
    baselines: { lit, chartsCandles, litPlusCharts },
    settings: { ...settings, vite: version },
  };
  try {
    out.composition = await composition(projectRoot, tmpRoot, project);
  } catch (e) {
    out.compositionError = String((e as Error)?.message ?? e);
  }
  return out;
}
