import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { minify as terser } from 'terser';
import { defineConfig, parseAst, type BuildEnvironmentOptions, type Plugin } from 'vite';

/**
 * The public modules, one line each: `dist/<name>.js` for script tags and CDNs (lit and the chart
 * inlined) and `dist/lib/<name>.js` for npm and bundlers (lit and the chart imported by name).
 */
const ENTRIES: Record<string, string> = {
  'price-board': 'src/price-board.ts',
  'price-ticker': 'src/price-ticker.ts',
  'price-converter': 'src/price-converter.ts',
};

/** What the npm build leaves to the app's bundler, so that one copy of each serves the whole app. */
const DEPENDENCIES = /^(lit|lit-html|lit-element|@lit\/reactive-element|lightweight-charts)(\/|$)/;

/** `code` with each range replaced by its text (the ranges do not overlap), or null when there is none. */
function applyEdits(
  code: string,
  edits: { start: number; end: number; text: string }[],
): { code: string; map: null } | null {
  if (edits.length === 0) return null;
  let out = code;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return { code: out, map: null };
}

/** CSS text without comments and without the whitespace CSS ignores; quoted strings are kept as they are. */
function minifyCssText(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split(/('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")/)
    .map((part, i) =>
      i % 2
        ? part
        : part
            .replace(/\s+/g, ' ')
            .replace(/ ?([{};,>]) ?/g, '$1')
            .replace(/: /g, ':')
            .replace(/;}/g, '}'),
    )
    .join('');
}

/** HTML template text with each indentation run (whitespace holding a line break) cut to one space. */
function minifyHtmlText(text: string): string {
  return text.replace(/[ \t]*\n\s*/g, ' ');
}

/**
 * Build only: minifies the static text of lit's css`` and html`` literals in src/ (the JS
 * minifier keeps template text as written), about 0.4 KB gzip off the initial module. Only
 * whitespace that renders the same goes: CSS comments and insignificant spaces (quoted strings
 * kept), and in HTML each indentation run becomes one space (no `white-space: pre` content here).
 * The e2e tests run on this output.
 */
function minifyLitLiterals(): Plugin {
  return {
    name: 'price-board-minify-lit-literals',
    apply: 'build',
    enforce: 'post', // after TypeScript is stripped, so the code parses as JS
    transform(code, id) {
      if (!/[\\/]src[\\/].*\.ts$/.test(id) || id.includes('node_modules') || !/\b(css|html)`/.test(code)) return null;
      const edits: { start: number; end: number; text: string }[] = [];
      const visit = (node: unknown): void => {
        if (!node || typeof node !== 'object') return;
        if (Array.isArray(node)) return node.forEach(visit);
        const n = node as {
          type?: string;
          tag?: { type?: string; name?: string };
          quasi?: { quasis: { start: number; end: number; value: { raw: string } }[] };
        };
        if (
          n.type === 'TaggedTemplateExpression' &&
          n.tag?.type === 'Identifier' &&
          (n.tag.name === 'css' || n.tag.name === 'html')
        ) {
          const minify = n.tag.name === 'css' ? minifyCssText : minifyHtmlText;
          for (const q of n.quasi!.quasis) edits.push({ start: q.start, end: q.end, text: minify(q.value.raw) });
        }
        for (const key in node) if (key !== 'type') visit((node as Record<string, unknown>)[key]);
      };
      visit(parseAst(code));
      return applyEdits(code, edits);
    },
  };
}

/**
 * Build only: Vite wraps each dynamic `import()` in a helper (about 0.7 KB gzip in the initial
 * module) that preloads the imported chunk's own imports and CSS. Our lazy chunks (chart, chart
 * area, live transport) import only the chunk the board has already loaded, and no CSS, so that
 * helper has nothing to do; this one just imports. (It fires no `vite:preloadError`: the board
 * handles a failed import itself.) Each chunk's calls of it then go, the import left in their
 * place: `__vitePreload(() => import(x), ...)` is `import(x)`, and the form Vite gives a
 * destructured import, `__vitePreload(async () => { const { a: b } = await import(x); return
 * { a: b }; }, ...)`, is `import(x)` too (its namespace holds `a`): 71 B gzip off the chunks a
 * board loads at start. A call of another form keeps the helper.
 */
function plainDynamicImports(): Plugin {
  const id = '\0vite/preload-helper.js';
  type Node = {
    type: string;
    start: number;
    end: number;
    [key: string]: unknown;
  };
  const isNode = (value: unknown): value is Node =>
    !!value && typeof value === 'object' && typeof (value as Node).type === 'string';
  /** The import a wrapper's loader stands for, or undefined for a loader of another form. */
  const importOf = (loader: Node): Node | undefined => {
    if (loader.type !== 'ArrowFunctionExpression' || (loader.params as Node[]).length) return undefined;
    const body = loader.body as Node;
    if (!loader.async) return loader.expression ? body : undefined; // `() => import(x)` (or `import(x).then(...)`)
    // `async () => { const { a: b, ... } = await import(x); return { a: b, ... }; }`
    const [declaration, ret, ...rest] = (body.body ?? []) as Node[];
    if (rest.length || declaration?.type !== 'VariableDeclaration' || ret?.type !== 'ReturnStatement') return undefined;
    const [declarator, ...more] = declaration.declarations as Node[];
    const pattern = declarator?.id as Node | undefined;
    const init = declarator?.init as Node | undefined;
    const returned = ret.argument as Node | undefined;
    if (more.length || pattern?.type !== 'ObjectPattern' || returned?.type !== 'ObjectExpression') return undefined;
    if (init?.type !== 'AwaitExpression' || (init.argument as Node).type !== 'ImportExpression') return undefined;
    const pairs = (object: Node) =>
      (object.properties as Node[]).map((p) =>
        p.type === 'Property' &&
        !p.computed &&
        (p.key as Node).type === 'Identifier' &&
        (p.value as Node).type === 'Identifier'
          ? `${(p.key as { name: string }).name}:${(p.value as { name: string }).name}`
          : '?',
      );
    const from = pairs(pattern);
    const to = pairs(returned);
    if (from.includes('?') || from.join() !== to.join()) return undefined;
    return init.argument as Node;
  };
  return {
    name: 'price-board-plain-dynamic-imports',
    apply: 'build',
    enforce: 'pre',
    resolveId: (source) => (source === id ? id : null),
    load: (source) => (source === id ? 'export const __vitePreload = (load) => load();' : null),
    renderChunk(code) {
      if (!code.includes('__vitePreload(')) return null;
      const edits: { start: number; end: number; text: string }[] = [];
      const visit = (node: unknown): void => {
        if (!node || typeof node !== 'object') return;
        if (Array.isArray(node)) return node.forEach(visit);
        const n = node as Node;
        const args = n.args ?? n.arguments;
        if (
          n.type === 'CallExpression' &&
          isNode(n.callee) &&
          (n.callee as { name?: string }).name === '__vitePreload' &&
          Array.isArray(args) &&
          args.length === 3 &&
          isNode(args[0])
        ) {
          const target = importOf(args[0]);
          if (target) {
            edits.push({ start: n.start, end: n.end, text: code.slice(target.start, target.end) });
            return;
          }
        }
        for (const key in node) if (key !== 'type') visit((node as Record<string, unknown>)[key]);
      };
      visit(parseAst(code));
      return applyEdits(code, edits);
    },
  };
}

/**
 * Build only: empties lightweight-charts' attribution-logo widget, the one class holding the logo
 * (`tv-attr-logo`: its SVG, its `<style>` text, its link), about 0.9 KB gzip off the chart chunk.
 * The chart always turns that logo off (`layout.attributionLogo: false`, src/chart/price-chart.ts:
 * its `<style>` element breaks under a strict CSP), so the class only ever checked the option and
 * drew nothing; emptied, it still does nothing. The licence's attribution stays visible through our
 * own "TradingView" link (src/chart/attribution.ts; test/e2e/csp.spec.ts checks it in dist/, and
 * dist.spec.ts that the logo code is gone). The build fails when lightweight-charts' production
 * file has no such class or more than one, when the class holds more than plain methods or the
 * logo is left outside it, or when lightweight-charts came from another file (its development
 * build, say), so that an update cannot silently keep or break it. The npm build (dist/lib)
 * imports lightweight-charts by name and keeps the logo code: the app's options decide there.
 */
function dropChartAttributionLogo(): Plugin {
  const name = 'price-board-drop-chart-attribution-logo';
  const file = /[\\/]node_modules[\\/]lightweight-charts[\\/]dist[\\/]lightweight-charts\.production\.mjs$/;
  const marker = 'tv-attr-logo';
  const done = new Set<string>();
  return {
    name,
    apply: 'build',
    transform(code, id) {
      if (!file.test(id)) return null;
      type Node = {
        type?: string;
        start: number;
        end: number;
        body?: Node & { body: Node[] };
        kind?: string;
        static?: boolean;
        computed?: boolean;
        key?: { type: string; name?: string };
      };
      const classes: Node[] = [];
      const visit = (node: unknown): void => {
        if (!node || typeof node !== 'object') return;
        if (Array.isArray(node)) return node.forEach(visit);
        const n = node as Node;
        if (
          (n.type === 'ClassDeclaration' || n.type === 'ClassExpression') &&
          code.slice(n.start, n.end).includes(marker)
        )
          classes.push(n);
        for (const key in node) if (key !== 'type') visit((node as Record<string, unknown>)[key]);
      };
      visit(parseAst(code));
      if (classes.length !== 1) {
        throw new Error(
          `${name}: expected one class holding "${marker}" in ${id}, found ${classes.length}; check lightweight-charts' attribution logo code`,
        );
      }
      // The class keeps, with empty bodies, the methods whose name the rest of the file uses (the
      // chart calls its update and remove); the others and the constructor go.
      const cls = classes[0]!;
      const outside = code.slice(0, cls.start) + code.slice(cls.end);
      const methods = cls.body!.body.filter((m) => m.kind !== 'constructor');
      if (
        !methods.every(
          (m) =>
            m.type === 'MethodDefinition' &&
            m.kind === 'method' &&
            !m.static &&
            !m.computed &&
            m.key?.type === 'Identifier',
        )
      ) {
        throw new Error(
          `${name}: the class holding "${marker}" in ${id} has members other than plain methods; check it`,
        );
      }
      const used = new Set([...outside.matchAll(/[.'"`]([\w$]+)/g)].map((m) => m[1]));
      const kept = methods.map((m) => m.key!.name!).filter((key) => used.has(key));
      const out = `${code.slice(0, cls.body!.start)}{${kept.map((key) => `${key}(){}`).join('')}}${code.slice(cls.body!.end)}`;
      if (out.includes(marker)) throw new Error(`${name}: "${marker}" is still in ${id} after emptying its class`);
      done.add(id);
      return { code: out, map: null };
    },
    buildEnd() {
      const missed = [...this.getModuleIds()].filter(
        (id) => /[\\/]node_modules[\\/]lightweight-charts[\\/]/.test(id) && !done.has(id),
      );
      if (missed.length)
        throw new Error(`${name}: lightweight-charts came from ${missed.join(', ')}, which it does not handle`);
    },
  };
}

/**
 * lightweight-charts' public API methods that nothing in the chart uses (src/chart/ calls none of
 * them, and the chart object never leaves that code but through `inspect()`, for tests).
 */
const UNUSED_CHART_API = [
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
const UNREACHED_CHART_CLASSES: {
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

/**
 * Build only: empties the methods of lightweight-charts' API listed in `UNUSED_CHART_API` and of
 * the classes in `UNREACHED_CHART_CLASSES`: a bundler keeps a class's methods whether called or
 * not, and these are never called here (666 B gzip off the chart chunk for the API, 2,390 B for
 * the classes). The build fails when one of the API methods is not one method of its
 * production file, when that file names one elsewhere (its own code would call it), or when
 * src/chart/ names one; when a class's marker is not in exactly one class, or what keeps it
 * unreached no longer holds; so that an update or a new use cannot silently break. The npm build
 * (dist/lib) imports lightweight-charts by name and keeps them.
 */
function dropUnusedChartApi(): Plugin {
  const name = 'price-board-drop-unused-chart-api';
  const file = /[\\/]node_modules[\\/]lightweight-charts[\\/]dist[\\/]lightweight-charts\.production\.mjs$/;
  return {
    name,
    apply: 'build',
    transform(code, id) {
      if (!file.test(id)) return null;
      const dir = new URL('./src/chart/', import.meta.url);
      const ours = readdirSync(dir)
        .filter((f) => f.endsWith('.ts'))
        .map((f) => readFileSync(new URL(f, dir), 'utf8'))
        .join('\n');
      type Node = { type?: string; start: number; end: number; kind?: string; static?: boolean; computed?: boolean };
      type Method = Node & { key?: { type: string; name?: string }; value?: { body?: Node } };
      const bodies = new Map<string, Node[]>();
      const classes: (Node & { body: { body: Method[] } })[] = [];
      const visit = (node: unknown): void => {
        if (!node || typeof node !== 'object') return;
        if (Array.isArray(node)) return node.forEach(visit);
        const n = node as Method;
        if (n.type === 'MethodDefinition' && n.kind === 'method' && !n.static && !n.computed && n.key?.name) {
          const list = bodies.get(n.key.name) ?? [];
          bodies.set(n.key.name, [...list, n.value!.body!]);
        }
        if (n.type === 'ClassDeclaration' || n.type === 'ClassExpression') classes.push(n as (typeof classes)[0]);
        for (const key in node) if (key !== 'type') visit((node as Record<string, unknown>)[key]);
      };
      visit(parseAst(code));
      const edits: Node[] = [];
      for (const method of UNUSED_CHART_API) {
        const found = bodies.get(method) ?? [];
        const named = code.match(new RegExp(`\\b${method}\\b`, 'g'))?.length ?? 0;
        if (found.length !== 1 || named !== 1)
          throw new Error(
            `${name}: expected one method ${method} in ${id}, named nowhere else; check lightweight-charts`,
          );
        if (new RegExp(`\\b${method}\\b`).test(ours))
          throw new Error(`${name}: src/chart/ uses ${method}; take it off UNUSED_CHART_API`);
        edits.push(found[0]!);
      }
      for (const cls of UNREACHED_CHART_CLASSES) {
        const holding = classes.filter((c) => code.slice(c.start, c.end).includes(cls.marker));
        // The innermost class holding the marker (a class expression may sit inside another).
        const found = holding.filter((c) => !holding.some((d) => d !== c && d.start >= c.start && d.end <= c.end));
        if (found.length !== 1 || code.split(cls.marker).length !== 2)
          throw new Error(`${name}: expected "${cls.marker}" once, in one class (${cls.name}) of ${id}`);
        const reason = cls.unreached(code, ours);
        if (reason)
          throw new Error(`${name}: ${cls.name} may be reached: ${reason}; take it off UNREACHED_CHART_CLASSES`);
        for (const m of found[0]!.body.body) {
          if (m.type !== 'MethodDefinition' || m.static || (m.kind === 'constructor' && cls.made)) continue;
          edits.push(m.value!.body!);
        }
      }
      let out = code;
      for (const body of edits.sort((a, b) => b.start - a.start))
        out = `${out.slice(0, body.start)}{}${out.slice(body.end)}`;
      return { code: out, map: null };
    },
  };
}

/**
 * Build only, the script-tag files: terser runs once more over each chunk Vite's minifier (oxc)
 * wrote, with its safe defaults (3 passes, names kept: oxc's are already short), and its output is
 * kept where it gzips smaller: 301 B gzip -9 off what a board loads at start, 62 B off the chart
 * (16 B off lightweight-charts' own candlestick build). Terser instead of oxc was larger (start
 * +540 B, chart +487 B). The V8 compile hint comment (`allFunctionsCalledOnLoad`) stays first.
 */
function terserAfterOxc(): Plugin {
  const gzip = (code: string) => gzipSync(code, { level: 9 }).length;
  return {
    name: 'price-board-terser-after-oxc',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    async generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const { code } = await terser(chunk.code, {
          module: true,
          ecma: 2020,
          compress: { passes: 3 },
          mangle: false,
          format: { comments: /^# allFunctionsCalledOnLoad$/ },
        });
        if (code !== undefined && gzip(code) < gzip(chunk.code)) chunk.code = code;
      }
    },
  };
}

/**
 * Rolldown's build-timing check warns when plugins take a large share of a build over 3 s: on a
 * busy machine it fires for any build, which says nothing about this config and would break
 * `npm start`'s one-line greeting. Every build turns it off.
 */
const QUIET_CHECKS = { checks: { bundlerTimings: false } } as const;

/**
 * The builds beside the script-tag one (the top-level `build`). Each replaces that `build` rather
 * than inheriting it: environments otherwise merge the top-level options into their own.
 */
const OTHER_BUILDS: Record<string, BuildEnvironmentOptions> = {
  lib: {
    outDir: 'dist/lib',
    // Readable modules: the app's bundler minifies.
    minify: false,
    lib: { entry: ENTRIES, formats: ['es'], fileName: (_format, name) => `${name}.js` },
    rolldownOptions: { ...QUIET_CHECKS, external: (id) => DEPENDENCIES.test(id) },
  },
  loader: {
    outDir: 'dist',
    // A classic script (IIFE), so that it runs pasted as `<script src>` (also async/defer) as
    // well as `<script type="module" src>`: no import/export, no import.meta.
    lib: { entry: 'src/embed/loader.ts', formats: ['iife'], name: 'priceBoardEmbed', fileName: () => 'embed.js' },
    rolldownOptions: QUIET_CHECKS,
  },
};

function otherBuilds(): Plugin {
  return {
    name: 'price-board-other-builds',
    configEnvironment(name, config) {
      const own = OTHER_BUILDS[name];
      if (own) config.build = { target: 'es2022', emptyOutDir: false, copyPublicDir: false, ...own };
    },
  };
}

export default defineConfig({
  // Every URL inside dist/ is relative, so it works under any path prefix (a CDN folder).
  base: './',
  plugins: [
    minifyLitLiterals(),
    plainDynamicImports(),
    dropChartAttributionLogo(),
    dropUnusedChartApi(),
    terserAfterOxc(),
    otherBuilds(),
  ],
  build: scriptTagBuild(),
  // `vite build` builds the script-tag files and pages first (they empty dist/), then the npm
  // modules and the loader beside them.
  environments: { lib: { consumer: 'client' }, loader: { consumer: 'client' } },
  builder: {
    async buildApp(builder) {
      for (const name of ['client', 'lib', 'loader']) await builder.build(builder.environments[name]!);
    },
  },
});

/** dist/: the script-tag modules, the pages (demo, embed.html), their chunks and assets. */
function scriptTagBuild(): BuildEnvironmentOptions {
  return {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    // No inline polyfill script: the pages must run under script-src 'self'. No list of each lazy
    // chunk's own imports in the scripts either (`__vite__mapDeps`: about 0.15 KB gzip of hashed
    // names in the initial module), which only the preload helper read, and ours ignores it
    // (`plainDynamicImports`); the pages' <link rel="modulepreload"> are kept.
    modulePreload: {
      polyfill: false,
      resolveDependencies: (_file, deps, { hostType }) => (hostType === 'js' ? [] : deps),
    },
    // Fonts and images stay files (no data: URLs), so a strict CSP needs no data: for them.
    assetsInlineLimit: 0,
    // The licences of everything bundled (lit, lightweight-charts, Vazirmatn, ...) ship with
    // dist/: the minified chunks lose their banners.
    license: { fileName: 'THIRD-PARTY-LICENSES.md' },
    rolldownOptions: {
      ...QUIET_CHECKS,
      input: { index: 'index.html', 'embed-page': 'embed.html', ...ENTRIES },
      // dist/price-board.js holds the element's code itself, so a script-tag embed loads one
      // file before the element upgrades (not a re-export of a hashed chunk: one more round trip).
      // The pages (demo, embed.html) and the lazy chunks import what they share with it from
      // price-board.js, which therefore exports a few minified internals beside `PriceBoard`.
      // Pages and script tags thus run one module instance: the element is defined once.
      preserveEntrySignatures: 'allow-extension',
      output: {
        // The public scripts keep stable names; everything else is content-hashed.
        entryFileNames: (chunk) => (chunk.name in ENTRIES ? '[name].js' : 'assets/[name]-[hash].js'),
        // V8's explicit compile hint: a public script's every function runs on load (the element,
        // its first render), so V8 compiles them with the script, off the main thread while it
        // streams in, not one at a time on the main thread as each is first called.
        postBanner: (chunk) => (chunk.isEntry && chunk.name in ENTRIES ? '//# allFunctionsCalledOnLoad' : ''),
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
        codeSplitting: {
          // The pages' self-hosted font gets a file of its own name. Everything the element loads
          // up front (src/ but the embed scripts, and lit) is one file, the price-board entry:
          // left alone, rolldown put api/errors.ts in a file of its own, which every page then
          // had to load as well. The ticker's and the converter's own code (and the text reset and
          // the stale prices' mark they share, and the converter's arithmetic, format/amount.ts) stays out of it: their
          // scripts import the rest (the element base, widget/, among it) from price-board.js; so
          // do the spark cells (widget/spark*), a chunk loaded only when that column is shown.
          // The live data layer (the hub and its driver: `/v1/prices`, the stream; the poller is a
          // chunk loaded only when polling, src/live/transport.ts) is in it too: the first request never waits for a chunk. What the board loads at start
          // beside it is one chunk with what it needs beyond price-board.js (left alone, rolldown
          // made a file of each piece that two lazy chunks share, each one more round trip after
          // the chunk that imports it): the board's `board-extras` with the date formatting. (Its
          // namespace needs a helper of the bundler's, which it keeps in a tiny file of its own.)
          groups: [
            { name: 'vazirmatn', test: /[\\/]node_modules[\\/]vazirmatn[\\/]/ },
            {
              name: 'price-board',
              tags: ['$initial'],
              priority: 2,
              test: /[\\/]src[\\/](?!embed[\\/]|ticker[\\/]|converter[\\/]|widget[\\/]text-reset|widget[\\/]stale-mark|widget[\\/]spark|format[\\/]amount|price-ticker|price-converter)|[\\/]node_modules[\\/](lit|lit-html|lit-element|@lit[\\/]reactive-element)[\\/]/,
            },
            { name: 'board-extras', priority: 1, test: /[\\/]src[\\/]board[\\/]board-controllers\.ts$/ },
          ],
        },
      },
    },
  };
}
