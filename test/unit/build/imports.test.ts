// build/ runs in Node inside Vite: the lint configuration keeps it to node:*, vite, terser and itself.
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The imports of `code`, linted as a file of build/, that the layer rules refuse. */
async function refused(code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}build/fixture.ts` });
  return result!.messages
    .filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports')
    .map((m) => /'([^']+)'/.exec(m.message)?.[1] ?? m.message);
}

describe('the imports of build/', () => {
  it('takes node:*, vite, terser and build/', async () => {
    const code = [
      "import { readFileSync } from 'node:fs';",
      "import { parseAst, type Plugin } from 'vite';",
      "import { minify } from 'terser';",
      "import { walk } from './syntax-tree';",
      'export const all = [readFileSync, parseAst, minify, walk] as unknown as Plugin[];',
    ].join('\n');
    expect(await refused(code)).toEqual([]);
  });

  it('refuses src/, the other folders and the widgets’ packages', async () => {
    const specifiers = [
      '../src/chart/price-chart',
      '../test/helpers/quote',
      '../relay/http',
      'lit',
      'lightweight-charts',
    ];
    const code = specifiers.map((s, i) => `import * as m${i} from '${s}';\nexport { m${i} };`).join('\n');
    expect(await refused(code)).toEqual(specifiers);
  });
});
