import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import lit from 'eslint-plugin-lit';
import wc from 'eslint-plugin-wc';
import globals from 'globals';

/**
 * The layers of docs/ARCHITECTURE.md, kept by the linter: for each folder of src/, the folders
 * (and packages) it must never import. Data flows one way: service → api/live → model → board →
 * chart; `shared` (types, the attribute table, the error policy) is below everything.
 */
const LIT = ['lit', 'lit/*', '@lit/*'];
const NEVER = {
  shared: ['../*', ...LIT, 'lightweight-charts', 'eventsource-parser'],
  format: ['../api/*', '../model/*', '../live/*', '../chart/*', '../board/*', '../embed/*', ...LIT, 'lightweight-charts'],
  api: ['../model/*', '../live/*', '../chart/*', '../board/*', '../embed/*', ...LIT, 'lightweight-charts'],
  model: ['../live/*', '../chart/*', '../board/*', '../embed/*', ...LIT, 'lightweight-charts'],
  live: ['../chart/*', '../board/*', '../embed/*', ...LIT, 'lightweight-charts'],
  chart: ['../api/*', '../model/*', '../live/*', '../board/*', '../embed/*', ...LIT],
  board: ['../embed/*'],
  embed: ['../api/*', '../model/*', '../live/*', '../chart/*', '../board/*', '../format/*'],
};
/** src/ never imports the Node side. */
const NODE_SIDE = ['**/sandbox/*', '**/relay/*', 'node:*'];

const layerRules = Object.entries(NEVER).map(([layer, never]) => ({
  files: [`src/${layer}/**/*.ts`],
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: [
          { group: never, message: `${layer}/ must not import this (docs/ARCHITECTURE.md, the layers).` },
          { group: NODE_SIDE, message: 'src/ runs in the browser: it never imports the sandbox, the relay or Node.' },
        ],
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['dist/', 'relay/dist/', 'node_modules/', 'bench/tmp/', 'test-results/', 'playwright-report/', 'custom-elements.json', 'tmp/'] },
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
    // One private-member style: ECMAScript `#private`, as most of src/ (truly private at run time).
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: ":matches(PropertyDefinition, MethodDefinition, TSParameterProperty)[accessibility='private']",
          message: 'Use a #private member (one private-member style in src/).',
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
