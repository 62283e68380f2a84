// The layer rules of eslint.config.js catch a forbidden import: fixture files are linted as if
// they sat in src/ (they are .txt so that neither tsc nor `eslint .` reads them as code).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { findCycles } from '../../../scripts/check-cycles.mjs';

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
    expect(
      messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message),
    ).toEqual([expect.stringContaining("'../live/hub'"), expect.stringContaining("'lit'")]);
  });

  it('lets chart/ import the shared types and the formatters', async () => {
    expect(await lintAs('chart-imports-shared.txt', 'src/chart/fixture.ts')).toEqual([]);
  });

  it('reports a run-time import in the loader', async () => {
    const messages = await lintAs('loader-imports-value.txt', 'src/embed/loader.ts');
    expect(messages.map((m) => m.ruleId)).toContain('@typescript-eslint/no-restricted-imports');
  });

  it('reports a TypeScript private member in src/', async () => {
    const messages = await lintAs('private-keyword.txt', 'src/model/fixture.ts');
    expect(messages.map((m) => m.ruleId)).toEqual(['no-restricted-syntax']);
  });

  it.each(['relay', 'sandbox', 'bench'])(
    'reports TypeScript private members in %s/ but a private constructor',
    async (dir) => {
      const messages = await lintAs('private-parameter.txt', `${dir}/fixture.ts`);
      expect(messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message)).toEqual([
        'Use a #private member (one private-member style).',
        'Use a #private member (one private-member style).',
      ]);
    },
  );

  it('reports two import statements of one module', async () => {
    const messages = await lintAs('duplicate-imports.txt', 'src/model/fixture.ts');
    expect(messages.map((m) => m.ruleId)).toEqual(['no-duplicate-imports']);
  });

  /** The imports of `fixture`, linted as `asFile`, that the layer rules report. */
  async function refused(fixture: string, asFile: string): Promise<string[]> {
    const messages = await lintAs(fixture, asFile);
    return messages
      .filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports')
      .map((m) => /'([^']+)'/.exec(m.message)![1]!);
  }

  const board = ['../board/templates', '../board/price-board'];
  // Each layer's refusals: the fixture, the file it is linted as, and the imports reported (in order).
  const REFUSALS: { name: string; cases: [fixture: string, asFile: string, reported: string[]][] }[] = [
    {
      name: 'reports the relay reaching into src/ past relay/from-src.ts, or into the sandbox but for types',
      cases: [['relay-imports-src.txt', 'relay/fixture.ts', ['../src/model/quote-store', '../sandbox/server']]],
    },
    {
      name: 'reports the sandbox importing the relay beyond its HTTP writing, or src/ beyond shared/',
      cases: [['sandbox-imports-relay.txt', 'sandbox/fixture.ts', ['../relay/server', '../src/api/client']]],
    },
    {
      name: 'reports a widget importing another widget or the chart (the ticker, the converter)',
      cases: [
        [
          'widget-imports-widget.txt',
          'src/ticker/fixture.ts',
          ['../converter/price-converter', '../chart/price-chart'],
        ],
        ['widget-imports-widget.txt', 'src/converter/fixture.ts', ['../chart/price-chart']],
      ],
    },
    {
      name: 'lets widget/ draw the sparkline but not import the chart (its chunk holds lightweight-charts)',
      cases: [['widget-imports-sparkline.txt', 'src/widget/fixture.ts', ['../chart/price-chart']]],
    },
    ...['ticker', 'converter', 'widget'].map((dir) => ({
      name: `reports ${dir}/ importing board/ (what the widgets share is in widget/)`,
      cases: [['imports-board.txt', `src/${dir}/fixture.ts`, board] as [string, string, string[]]],
    })),
    {
      name: 'reports chart/ importing widget/, board/ or lit (a leaf: the chart UI of the board lives in board/)',
      cases: [
        ['chart-imports-widget.txt', 'src/chart/fixture.ts', ['../widget/emit', '../board/board-chart', 'lit']],
        ['imports-board.txt', 'src/chart/fixture.ts', [...board, '../widget/error-view']],
      ],
    },
    {
      name: 'reports board/ importing chart/ code but by import() or for its types, bar its lazy chunks',
      cases: [
        ['board-imports-chart.txt', 'src/board/price-board.ts', ['../chart/history-source', '../ticker/price-ticker']],
        ['board-imports-chart.txt', 'src/board/board-controllers.ts', ['../ticker/price-ticker']],
        ['board-imports-chart.txt', 'src/board/chart-area.ts', ['../ticker/price-ticker']],
      ],
    },
    {
      name: 'reports the demo page importing the Node side',
      cases: [['demo-imports-sandbox.txt', 'demo/fixture.ts', ['../sandbox/limits']]],
    },
    {
      name: 'reports the bench importing tests other than their helpers',
      cases: [['bench-imports-tests.txt', 'bench/fixture.ts', ['../test/unit/lint/layers.test']]],
    },
  ];

  for (const { name, cases } of REFUSALS) {
    it(name, async () => {
      for (const [fixture, asFile, reported] of cases) expect(await refused(fixture, asFile)).toEqual(reported);
    });
  }
});

describe('no import cycle (scripts/check-cycles.mjs, run by npm run lint)', () => {
  it('finds a cycle made of type-only imports', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cycles-'));
    try {
      mkdirSync(join(dir, 'src'));
      writeFileSync(join(dir, 'src', 'a.ts'), "import type { B } from './b';\nexport interface A { b: B }\n");
      writeFileSync(join(dir, 'src', 'b.ts'), "import type { A } from './a';\nexport interface B { a: A }\n");
      writeFileSync(join(dir, 'src', 'c.ts'), "import type { A } from './a';\nexport type C = A;\n");
      // Each cycle once, whichever file dpdm happens to start it from.
      const cycles = await findCycles(['src'], dir);
      expect(cycles.map((c) => [...c].sort())).toEqual([['src/a.ts', 'src/b.ts']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
