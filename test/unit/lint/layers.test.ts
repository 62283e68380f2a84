// The layer rules of eslint.config.js catch a forbidden import: fixture files are linted as if
// they sat in src/ (they are .txt so that neither tsc nor `eslint .` reads them as code).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The rule ids and messages ESLint reports for `fixture` linted as `asFile`. */
async function lintAs(fixture: string, asFile: string): Promise<{ ruleId: string | null; message: string }[]> {
  const text = readFileSync(new URL(`./fixtures/${fixture}`, import.meta.url), 'utf8');
  const [result] = await eslint.lintText(text, { filePath: `${root}${asFile}` });
  return result!.messages.map(({ ruleId, message }) => ({ ruleId, message }));
}

describe('eslint rules that keep the structure', () => {
  it('reports format/ importing live/ or lit', async () => {
    const messages = await lintAs('format-imports-live.txt', 'src/format/fixture.ts');
    expect(messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message)).toEqual([
      expect.stringContaining("'../live/hub'"),
      expect.stringContaining("'lit'"),
    ]);
  });

  it('lets chart/ import the shared types and the formatters', async () => {
    expect(await lintAs('chart-imports-shared.txt', 'src/chart/fixture.ts')).toEqual([]);
  });

  it('reports a run-time import in the loader', async () => {
    const messages = await lintAs('loader-imports-value.txt', 'src/embed/loader.ts');
    expect(messages.map((m) => m.ruleId)).toContain('@typescript-eslint/no-restricted-imports');
  });

  it('reports a TypeScript private member (src/ uses #private)', async () => {
    const messages = await lintAs('private-keyword.txt', 'src/model/fixture.ts');
    expect(messages.map((m) => m.ruleId)).toEqual(['no-restricted-syntax']);
  });

  it('reports two import statements of one module', async () => {
    const messages = await lintAs('duplicate-imports.txt', 'src/model/fixture.ts');
    expect(messages.map((m) => m.ruleId)).toEqual(['no-duplicate-imports']);
  });
});
