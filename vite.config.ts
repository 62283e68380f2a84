import { defineConfig, type BuildEnvironmentOptions } from 'vite';
import { dropChartAttributionLogo } from './build/drop-chart-attribution-logo.ts';
import { dropUnusedChartApi } from './build/drop-unused-chart-api.ts';
import { minifyLitLiterals } from './build/minify-lit-literals.ts';
import { otherBuilds } from './build/other-builds.ts';
import { plainDynamicImports } from './build/plain-dynamic-imports.ts';
import { terserAfterOxc } from './build/terser-after-oxc.ts';

/**
 * The public modules, one line each: `dist/<name>.js` for script tags and CDNs (lit and the chart
 * inlined) and `dist/lib/<name>.js` for npm and bundlers (lit and the chart imported by name).
 */
const ENTRIES: Record<string, string> = {
  'price-board': 'src/price-board.ts',
  'price-ticker': 'src/price-ticker.ts',
  'price-converter': 'src/price-converter.ts',
};

/**
 * The script of the relay's rendered fragments (`dist/assets/takeover.js?price-board`): it loads the
 * widget's module once the page has painted (src/embed/takeover.ts). Script-tag build only.
 */
const TAKEOVER = 'src/embed/takeover.ts';

/** What the npm build leaves to the app's bundler, so that one copy of each serves the whole app. */
const DEPENDENCIES = /^(lit|lit-html|lit-element|@lit\/reactive-element|lightweight-charts)(\/|$)/;

/**
 * Rolldown's build-timing check warns when plugins take a large share of a build over 3 s: on a
 * busy machine it fires for any build, which says nothing about this config and would break
 * `npm start`'s one-line greeting. Every build turns it off.
 */
const QUIET_CHECKS = { checks: { bundlerTimings: false } } as const;

/** The builds beside the script-tag one (the top-level `build`): the npm modules and the loader. */
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

export default defineConfig({
  // Every URL inside dist/ is relative, so it works under any path prefix (a CDN folder).
  base: './',
  plugins: [
    minifyLitLiterals(),
    plainDynamicImports(),
    dropChartAttributionLogo(),
    dropUnusedChartApi(),
    terserAfterOxc(),
    otherBuilds(OTHER_BUILDS),
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
      input: { index: 'index.html', 'embed-page': 'embed.html', ...ENTRIES, takeover: TAKEOVER },
      // dist/price-board.js holds the element's code itself, so a script-tag embed loads one
      // file before the element upgrades (not a re-export of a hashed chunk: one more round trip).
      // The pages (demo, embed.html) and the lazy chunks import what they share with it from
      // price-board.js, which therefore exports a few minified internals beside `PriceBoard`.
      // Pages and script tags thus run one module instance: the element is defined once.
      preserveEntrySignatures: 'allow-extension',
      output: {
        // The public scripts keep stable names; everything else is content-hashed.
        // The fragments' script keeps a stable name among the chunks (a site passing `/assets/` to
        // the relay passes it too).
        entryFileNames: (chunk) =>
          chunk.name in ENTRIES
            ? '[name].js'
            : chunk.name === 'takeover'
              ? 'assets/takeover.js'
              : 'assets/[name]-[hash].js',
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
          // chunk loaded only when polling, src/live/driver.ts) is in it too: the first request never waits for a chunk. What the board loads at start
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
