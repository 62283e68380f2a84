import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import lit from 'eslint-plugin-lit';
import wc from 'eslint-plugin-wc';
import globals from 'globals';

/**
 * The layers of docs/ARCHITECTURE.md (the one list of them), kept by the linter: for each folder, what it must never
 * import. In src/, data flows one way: service → api/live → model → chart → widget → board;
 * `shared` (types, the attribute table, the error policy) is below everything; each widget (board,
 * ticker, converter) is a top of its own on `widget` (what they share). The Node side: the relay takes src/ only through
 * relay/from-src.ts and never the sandbox (the test double) but in its no-configuration mode, by a
 * dynamic import; the sandbox takes only the relay's HTTP writing and src/'s shared types; nothing
 * but tests imports test/.
 */
const LIT = ['lit', 'lit/*', '@lit/*'];
const WIDGETS = ['../board/*', '../ticker/*', '../converter/*'];
/** Folders of the repository (as a relative import names them) that only their own kind may import. */
const TOOLING = ['**/test/*', '**/bench/*', '**/scripts/*', '**/demo/*'];
const SRC_NEVER = {
  shared: ['../*', ...LIT, 'lightweight-charts', 'eventsource-parser'],
  format: [
    '../api/*',
    '../model/*',
    '../live/*',
    '../chart/*',
    '../widget/*',
    ...WIDGETS,
    '../embed/*',
    ...LIT,
    'lightweight-charts',
  ],
  api: ['../model/*', '../live/*', '../chart/*', '../widget/*', ...WIDGETS, '../embed/*', ...LIT, 'lightweight-charts'],
  model: ['../live/*', '../chart/*', '../widget/*', ...WIDGETS, '../embed/*', ...LIT, 'lightweight-charts'],
  live: ['../chart/*', '../widget/*', ...WIDGETS, '../embed/*', ...LIT, 'lightweight-charts'],
  // A leaf: the chart wrapper, its history and the sparkline; the board's chart UI is the board's.
  chart: ['../live/*', '../widget/*', ...WIDGETS, '../embed/*', ...LIT],
  // (the sparkline is pure and small: the spark cells draw it without the chart's chunk)
  widget: [...WIDGETS, '../chart/*', '!../chart/sparkline', '../embed/*', 'lightweight-charts'],
  board: ['../ticker/*', '../converter/*', '../embed/*', 'lightweight-charts'],
  // The ticker and the converter stand on widget/ beside the board: no widget imports another.
  ticker: ['../board/*', '../converter/*', '../chart/*', '../embed/*', 'lightweight-charts'],
  converter: ['../board/*', '../ticker/*', '../chart/*', '../embed/*', 'lightweight-charts'],
  embed: ['../api/*', '../model/*', '../live/*', '../chart/*', '../widget/*', ...WIDGETS, '../format/*'],
};
/**
 * What a layer imports only by `import()` (or for its types): the board's chart code stays out of
 * its initial module. Its controllers and its chart area, themselves loaded by `import()`, take the
 * chart's part statically.
 */
const SRC_LAZY = { board: ['../chart/*'] };
const LAZY_ENTRIES = { board: ['src/board/board-controllers.ts', 'src/board/chart-area.ts'] };
/** src/ (and the demo page) run in the browser: never the Node side. */
const NODE_SIDE = ['**/sandbox/*', '**/relay/*', 'node:*'];

const restrict = (files, patterns, ignores = []) => ({
  files,
  ignores,
  rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] },
});
const layer = (name, group, extra = {}) => ({
  group,
  message: `${name} must not import this (docs/ARCHITECTURE.md, the layers).`,
  ...extra,
});

/** The patterns of a layer of src/: what it never imports, and what only lazily unless `entry`. */
const srcPatterns = (name, entry = false) => [
  layer(`src/${name}/`, [...SRC_NEVER[name], ...TOOLING]),
  { group: NODE_SIDE, message: 'src/ runs in the browser: it never imports the sandbox, the relay or Node.' },
  ...(SRC_LAZY[name] && !entry
    ? [
        layer(`src/${name}/`, SRC_LAZY[name], {
          allowTypeImports: true,
          message: `src/${name}/ imports this only by import() or for its types (docs/ARCHITECTURE.md, the layers).`,
        }),
      ]
    : []),
];

const layerRules = [
  ...Object.keys(SRC_NEVER).map((name) => restrict([`src/${name}/**/*.ts`], srcPatterns(name))),
  ...Object.entries(LAZY_ENTRIES).map(([name, files]) => restrict(files, srcPatterns(name, true))),
  restrict(['src/*.ts'], [layer('src/', [...NODE_SIDE, ...TOOLING])]),
  restrict(['demo/**/*.ts'], [layer('demo/', ['**/test/*', '**/bench/*', '**/scripts/*', ...NODE_SIDE])]),
  restrict(
    ['relay/**/*.ts'],
    [
      layer('relay/', ['**/src/*', ...TOOLING, ...LIT, 'lightweight-charts'], {
        message:
          'relay/ takes src/ only through relay/from-src.ts, and never test/, bench/, scripts/ or demo/ (docs/ARCHITECTURE.md).',
      }),
      layer('relay/', ['**/sandbox/*'], {
        allowTypeImports: true,
        message: 'relay/ never imports the sandbox (a test double); the no-configuration mode loads it with import().',
      }),
    ],
    ['relay/from-src.ts', 'relay/render/from-widgets.ts', 'relay/vite.config.ts'],
  ),
  restrict(
    ['sandbox/**/*.ts'],
    [
      {
        regex:
          '^(\\.\\./)+(relay/(?!http$)|src/(?!shared/)|test/|bench/|scripts/|demo/)|^(lit|@lit/|lightweight-charts)',
        message: 'sandbox/ takes only relay/http (the contract over HTTP) and src/shared (docs/ARCHITECTURE.md).',
      },
    ],
  ),
  // The bench runs what the tests run: the same Chromium and the same relay processes.
  restrict(
    ['bench/**/*.ts'],
    [
      {
        regex: '^(\\.\\./)+(test/(?!helpers/)|demo/)',
        message: 'bench/ takes only test/helpers of the tests (docs/ARCHITECTURE.md).',
      },
    ],
  ),
  restrict(['scripts/**/*.ts', 'scripts/**/*.mjs'], [layer('scripts/', ['**/test/*', '**/bench/*', '**/demo/*'])]),
  // The build's plugins run in Node inside Vite (vite.config.ts wires them): they read src/chart/ as text, never import it.
  restrict(
    ['build/**/*.ts'],
    [
      {
        regex: '^(?!node:|vite$|terser$|\\./)',
        message: 'build/ imports only node:*, vite, terser and build/ (docs/ARCHITECTURE.md).',
      },
    ],
  ),
];

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'relay/dist/',
      'node_modules/',
      'bench/tmp/',
      'test-results/',
      'playwright-report/',
      'custom-elements.json',
      'tmp/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // One import statement per module (a type-only one beside it is fine).
      'no-duplicate-imports': ['error', { allowSeparateTypeImports: true }],
    },
  },
  ...layerRules,
  {
    // One private-member style: ECMAScript `#private` (truly private at run time). A `private constructor` stays:
    // JavaScript has no private constructor, and it keeps callers on a static factory.
    files: ['src/**/*.ts', 'relay/**/*.ts', 'sandbox/**/*.ts', 'bench/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            ":matches(PropertyDefinition, MethodDefinition[kind!='constructor'], TSParameterProperty)[accessibility='private']",
          message: 'Use a #private member (one private-member style).',
        },
      ],
    },
  },
  {
    // The loader is one small file built on its own (vite.config.ts): besides types it takes only
    // the embed's plain-data lists, which its build inlines.
    files: ['src/embed/loader.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!\\./(params|protocol)$)',
              allowTypeImports: true,
              message: 'embed.js imports only ./params and ./protocol besides types (it stays one small file).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    ...lit.configs['flat/recommended'],
  },
  {
    files: ['src/**/*.ts'],
    ...wc.configs['flat/recommended'],
  },
);
