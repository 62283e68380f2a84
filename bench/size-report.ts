/** The size rows of the bench report: the board's start graph and chart chunk (./size.ts), the other widgets' (./widgets.ts). */
import type { Sections } from './sections';
import { kb, verdict, type RowSink } from './report-format';

/** What a chart-less board loads at start, its chart chunk, and what neither graph holds. */
export function sizeRows(s: Sections, { rows, failed }: RowSink): void {
  if (s.size) {
    const { project, baselines, split } = s.size;
    const lit = baselines.lit.initial.gzip;
    const charts = baselines.chartsCandles.initial.gzip;
    const files = (n: number) => `${n} file${n === 1 ? '' : 's'}`;
    const list = (g: { files: { file: string; gzip: number }[] }) =>
      g.files.map((f) => `${f.file.replace(/^assets\//, '')} ${kb(f.gzip)}`).join(', ');
    rows.push({
      section: 'size',
      metric: `initial module: dist/price-board.js + static imports (${files(project.initial.files.length)}), gzip -9`,
      measured: `${kb(project.initial.gzip)} (${list(project.initial)})`,
      baseline: `lit alone ${kb(lit)}`,
      // DESIGN.md §6 retired the initial module's own target (it was bought with complexity in the
      // data path); what a chart-less board loads at start is the target now (next row).
      target: 'none (retired)',
      verdict: 'info',
    });
    // DESIGN.md's "(board without chart)": everything such a board loads, the chunks it asks for
    // at start included (lazy, but every board fetches them at start, after its first paint). The
    // browser-observed set of a chart="none" board is shown beside it as a check.
    const loaded = s.loaded;
    const seen = loaded
      ? `; a chart="none" board fetched ${files(loaded.noChart.files.length)}, ${kb(loaded.noChart.gzip)}`
      : '';
    rows.push({
      section: 'size',
      metric: `board without chart, everything it loads: initial + the chunks loaded at start (${files(split.boardWithoutChart.files.length)}), gzip -9`,
      measured: `${kb(split.boardWithoutChart.gzip)}${seen}`,
      baseline: `lit alone ${kb(lit)}`,
      target: '≤ 31 KB',
      verdict: verdict(split.boardWithoutChart.gzip <= 31 * 1024),
    });
    rows.push({
      section: 'size',
      metric: `chunks loaded at start: board extras (once the first render is painted), the tabs' one stream unless stream="off" (${files(split.start.files.length)}), gzip -9`,
      measured: `${kb(split.start.gzip)} (${list(split.start)}); the tabs' code alone ${kb(split.transport.gzip)}`,
      baseline: '',
      target: '(part of the row above)',
      verdict: 'info',
    });
    // What a chart adds: the chart area and the chart with lightweight-charts (static graphs,
    // minus the initial module and the transport); the browser-observed chart-only set as a check.
    const chart = split.chart;
    const check =
      loaded && Math.abs(loaded.chartOnly.gzip - chart.gzip) > 16
        ? `; NB a board with the chart fetched ${kb(loaded.chartOnly.gzip)} more than one without (${list(loaded.chartOnly)})`
        : '';
    rows.push({
      section: 'size',
      metric: `chart chunk: what a chart adds, chart area + chart (${files(chart.files.length)}), gzip -9`,
      measured: `${kb(chart.gzip)} (${list(chart)})${check}`,
      baseline: `lightweight-charts createChart+CandlestickSeries ${kb(charts)}`,
      target: `≤ ${kb(charts + 3 * 1024)} (baseline + 3 KB)`,
      verdict: verdict(chart.gzip <= charts + 3 * 1024),
    });
    if (split.unclassified.files.length)
      rows.push({
        section: 'size',
        metric: `lazy files in neither the start chunks' nor the chart's graphs (${files(split.unclassified.files.length)}), gzip -9`,
        measured: `${kb(split.unclassified.gzip)} (${list(split.unclassified)})`,
        baseline: '',
        target: '(none expected)',
        verdict: 'info',
      });
  } else {
    failed('size', 'board without chart / chart chunk, gzip -9', '≤ 31 KB; chart ≤ baseline + 3 KB');
  }
}

/** What <price-ticker> and <price-converter> add to what they share with the board (DESIGN.md §8). */
export function widgetSizeRows(s: Sections, { rows, failed }: RowSink): void {
  if (s.widgetSizes) {
    const { board, ticker, converter } = s.widgetSizes;
    for (const [tag, file, g] of [
      ['price-ticker', 'price-ticker.js', ticker],
      ['price-converter', 'price-converter.js', converter],
    ] as const) {
      rows.push({
        section: 'size',
        metric: `<${tag}>: what dist/${file} adds to what it shares with the board (${g.files.length} files), gzip -9`,
        measured: `${kb(g.gzip)} (${g.files.map((f) => `${f.file.replace(/^assets\//, '')} ${kb(f.gzip)}`).join(', ')})`,
        baseline: `price-board.js graph ${kb(board.gzip)}`,
        target: '≤ 4 KB',
        verdict: verdict(g.gzip <= 4 * 1024),
      });
    }
  } else {
    failed('size', 'ticker and converter on top of the board', '≤ 4 KB each');
  }
}
