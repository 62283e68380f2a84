import { readdirSync, readFileSync } from 'node:fs';
import type { Plugin } from 'vite';
import { chartFilePlugin } from './chart-file.ts';
import { applyEdits, walk, type SyntaxNode } from './syntax-tree.ts';

const NAME = 'price-board-drop-unused-chart-api';

/**
 * lightweight-charts' public API methods that nothing in the chart uses (src/chart/ calls none of
 * them, and the chart object never leaves that code but through `inspect()`, for tests).
 */
export const UNUSED_CHART_API = [
  // panes (the chart has one)
  ...['getHeight', 'setHeight', 'getStretchFactor', 'setStretchFactor', 'setPreserveEmptyPane', 'preserveEmptyPane'],
  ...['moveToPane', 'seriesOrder', 'addPane', 'removePane', 'swapPanes', 'paneSize'],
  // series (one, never removed; no price lines)
  ...['coordinateToPrice', 'barsInLogicalRange', 'createPriceLine', 'removePriceLine', 'priceLines', 'lastValueData'],
  ...['removeSeries', 'clearMarkers'],
  // time scale (the chart fits its content; no scrolling by code)
  ...['scrollPosition', 'scrollToPosition', 'scrollToRealTime', 'setVisibleLogicalRange', 'resetTimeScale'],
  ...[
    'coordinateToLogical',
    'coordinateToTime',
    'subscribeVisibleTimeRangeChange',
    'unsubscribeVisibleTimeRangeChange',
  ],
  ...['subscribeVisibleLogicalRangeChange', 'unsubscribeVisibleLogicalRangeChange'],
  // chart (no clicks, screenshots or crosshair set by code)
  ...['subscribeClick', 'unsubscribeClick', 'subscribeDblClick', 'unsubscribeDblClick', 'takeScreenshot'],
  ...['chartElement', 'setCrosshairPosition', 'clearCrosshairPosition'],
];

/**
 * lightweight-charts' classes that the chart never reaches with the options it sets, each found by
 * a text only it holds in the production file (whose names are minified). `unreached` says why and
 * returns what breaks that reason (the build then fails): the file no longer defaults to it, or
 * src/chart/ (`ours`) may now reach the class. A class that is made all the same (`made`) keeps its
 * constructor.
 */
export const UNREACHED_CHART_CLASSES: {
  name: string;
  marker: string;
  made: boolean;
  unreached(lib: string, ours: string): string | undefined;
}[] = [
  {
    // Merges bars when they are narrower than a pixel; only with timeScale.enableConflation.
    name: 'DataConflater',
    marker: '31*t.length+17*',
    made: true,
    unreached: (lib, ours) =>
      !lib.includes('enableConflation:!1')
        ? 'enableConflation is no longer off by default'
        : /conflat/i.test(ours)
          ? 'src/chart/ names conflation'
          : undefined,
  },
  {
    // The draggable bar between two panes: the chart has one pane (addPane and moveToPane are
    // emptied, and its one series is added without a pane index).
    name: 'PaneSeparator',
    marker: 'colspan',
    made: false,
    unreached: (_lib, ours) =>
      !['addPane', 'moveToPane'].every((m) => UNUSED_CHART_API.includes(m))
        ? 'addPane or moveToPane is no longer emptied'
        : /\baddSeries\(|\baddCustomSeries\((?![\w$.]+\))/.test(ours)
          ? 'src/chart/ adds a series that may take a pane index'
          : undefined,
  },
  {
    // The pulsing dot of lastPriceAnimation, made only for the built-in line, area and baseline
    // series (addSeries); the chart's one series is a custom one (addCustomSeries).
    name: 'SeriesLastPriceAnimationPaneView',
    marker: '%2600/2600',
    made: false,
    unreached: (_lib, ours) => (/\baddSeries\(/.test(ours) ? 'src/chart/ adds a built-in series' : undefined),
  },
];

/** The TypeScript of src/chart/, joined: what the chart may call. */
export function chartSources(dir = new URL('../src/chart/', import.meta.url)): string {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => readFileSync(new URL(f, dir), 'utf8'))
    .join('\n');
}

/**
 * lightweight-charts' production file (`code`, from `id`) with the bodies of the methods in
 * `UNUSED_CHART_API` and of the classes in `UNREACHED_CHART_CLASSES` emptied, given the code of
 * src/chart/ (`ours`). Throws when one of the API methods is not one method of the file, or the
 * file names it elsewhere (its own code would call it), or `ours` names it; when a class's marker
 * is not in exactly one class, or what keeps it unreached no longer holds.
 */
export function emptyUnusedChartCode(code: string, id: string, ours: string): string {
  type Method = SyntaxNode & { value: { body: SyntaxNode } };
  const bodies = new Map<string, SyntaxNode[]>();
  const classes: (SyntaxNode & { body: { body: Method[] } })[] = [];
  walk(code, (node) => {
    const key = (node.key as { name?: string } | undefined)?.name;
    if (node.type === 'MethodDefinition' && node.kind === 'method' && !node.static && !node.computed && key)
      bodies.set(key, [...(bodies.get(key) ?? []), (node as Method).value.body]);
    if (node.type === 'ClassDeclaration' || node.type === 'ClassExpression') classes.push(node as (typeof classes)[0]);
  });
  const emptied: SyntaxNode[] = [];
  for (const method of UNUSED_CHART_API) {
    const found = bodies.get(method) ?? [];
    const named = code.match(new RegExp(`\\b${method}\\b`, 'g'))?.length ?? 0;
    if (found.length !== 1 || named !== 1)
      throw new Error(`${NAME}: expected one method ${method} in ${id}, named nowhere else; check lightweight-charts`);
    if (new RegExp(`\\b${method}\\b`).test(ours))
      throw new Error(`${NAME}: src/chart/ uses ${method}; take it off UNUSED_CHART_API`);
    emptied.push(found[0]!);
  }
  for (const cls of UNREACHED_CHART_CLASSES) {
    const holding = classes.filter((c) => code.slice(c.start, c.end).includes(cls.marker));
    // The innermost class holding the marker (a class expression may sit inside another).
    const found = holding.filter((c) => !holding.some((d) => d !== c && d.start >= c.start && d.end <= c.end));
    if (found.length !== 1 || code.split(cls.marker).length !== 2)
      throw new Error(`${NAME}: expected "${cls.marker}" once, in one class (${cls.name}) of ${id}`);
    const reason = cls.unreached(code, ours);
    if (reason) throw new Error(`${NAME}: ${cls.name} may be reached: ${reason}; take it off UNREACHED_CHART_CLASSES`);
    for (const m of found[0]!.body.body) {
      if (m.type !== 'MethodDefinition' || m.static || (m.kind === 'constructor' && cls.made)) continue;
      emptied.push(m.value.body);
    }
  }
  return (
    applyEdits(
      code,
      emptied.map((body) => ({ start: body.start, end: body.end, text: '{}' })),
    )?.code ?? code
  );
}

/**
 * Build only: empties the methods of lightweight-charts' API listed in `UNUSED_CHART_API` and of
 * the classes in `UNREACHED_CHART_CLASSES`: a bundler keeps a class's methods whether called or
 * not, and these are never called here (666 B gzip off the chart chunk for the API, 2,390 B for
 * the classes). The build fails where `emptyUnusedChartCode` throws, or when lightweight-charts
 * came from another file (`chartFilePlugin`), so that an update or a new use cannot silently
 * break. The npm build (dist/lib) imports lightweight-charts by name and keeps them.
 */
export function dropUnusedChartApi(): Plugin {
  return chartFilePlugin(NAME, (code, id) => emptyUnusedChartCode(code, id, chartSources()));
}
