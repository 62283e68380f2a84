// What the tests of build/ share: lightweight-charts' installed production file, and a real Vite
// build of a fixture page with the plugins under test.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build, type Plugin, type UserConfig } from 'vite';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** lightweight-charts' production file as installed: the one the chart plugins rewrite. */
export const CHART_ID = `${root}node_modules/lightweight-charts/dist/lightweight-charts.production.mjs`;
export const CHART_CODE = readFileSync(CHART_ID, 'utf8');

/** The code of each chunk of a build (not written) of `fixture` (in fixtures/) with `plugins`. */
export async function buildWith(fixture: string, plugins: Plugin[], config: UserConfig = {}): Promise<string[]> {
  const result = await build({
    configFile: false,
    root,
    logLevel: 'silent',
    base: './', // as vite.config.ts: Vite's preload wrapper then takes the importer's URL
    plugins,
    // Production builds resolve lightweight-charts to its production file; Vitest sets NODE_ENV=test.
    resolve: { conditions: ['production', 'module', 'browser'] },
    ...config,
    build: {
      write: false,
      minify: false,
      modulePreload: { polyfill: false },
      rolldownOptions: { input: fileURLToPath(new URL(`./fixtures/${fixture}`, import.meta.url)) },
    },
  });
  const outputs = Array.isArray(result) ? result : [result];
  return outputs.flatMap((o) => ('output' in o ? o.output : [])).flatMap((f) => (f.type === 'chunk' ? [f.code] : []));
}
