// The unused-API plugin on lightweight-charts' installed production file, with src/chart/ as it
// is, and on variants: each method and class it empties must be found as expected, or the build fails.
import { parseAst } from 'vite';
import { describe, expect, it } from 'vitest';
import {
  chartSources,
  emptyUnusedChartCode,
  UNREACHED_CHART_CLASSES,
  UNUSED_CHART_API,
} from '../../../build/drop-unused-chart-api';
import { walk, type SyntaxNode } from '../../../build/syntax-tree';
import { CHART_CODE, CHART_ID } from './build-with';

const ours = chartSources();

/** For each method name in `code`, the number of statements in the body of each method of that name. */
function methodBodies(code: string): Map<string, number[]> {
  const found = new Map<string, number[]>();
  walk(code, (node) => {
    const name = (node.key as { name?: string } | undefined)?.name;
    if (node.type !== 'MethodDefinition' || !name) return;
    const statements = ((node.value as SyntaxNode).body as { body: unknown[] }).body.length;
    found.set(name, [...(found.get(name) ?? []), statements]);
  });
  return found;
}

/** `marker` changed as an update might change it: a digit or the first letter. */
const changed = (marker: string): string =>
  /\d/.test(marker)
    ? marker.replace(/\d/, (d) => String((Number(d) + 1) % 10))
    : marker[0]!.toUpperCase() + marker.slice(1);

describe('emptyUnusedChartCode', () => {
  const out = emptyUnusedChartCode(CHART_CODE, CHART_ID, ours);
  const before = methodBodies(CHART_CODE);
  const after = methodBodies(out);

  it('reads the TypeScript of src/chart/', () => {
    expect(ours).toContain('lightweight-charts');
  });

  it.each(UNUSED_CHART_API)('empties the one method %s of the installed lightweight-charts', (method) => {
    expect(before.get(method)).toEqual([expect.any(Number)]);
    expect(before.get(method)![0]).toBeGreaterThan(0);
    expect(after.get(method)).toEqual([0]);
  });

  it.each(UNREACHED_CHART_CLASSES.map((c) => [c.name, c.marker]))('empties the class %s (%s)', (_name, marker) => {
    expect(CHART_CODE).toContain(marker);
    expect(out).not.toContain(marker);
  });

  it('leaves code that parses, shorter', () => {
    expect(() => parseAst(out)).not.toThrow();
    expect(out.length).toBeLessThan(CHART_CODE.length - 5_000);
  });

  it('fails when an update renames a method', () => {
    const variant = CHART_CODE.replace(/\btakeScreenshot\(/, 'takeScreenImage(');
    expect(() => emptyUnusedChartCode(variant, CHART_ID, ours)).toThrow(/expected one method takeScreenshot/);
  });

  it("fails when lightweight-charts' own code names a method", () => {
    const variant = `${CHART_CODE}\nexport const pane = (chart) => chart.addPane();`;
    expect(() => emptyUnusedChartCode(variant, CHART_ID, ours)).toThrow(/expected one method addPane/);
  });

  it('fails when src/chart/ calls a method', () => {
    expect(() => emptyUnusedChartCode(CHART_CODE, CHART_ID, `${ours}\nchart.takeScreenshot();`)).toThrow(
      /src\/chart\/ uses takeScreenshot/,
    );
  });

  it.each(UNREACHED_CHART_CLASSES.map((c) => [c.name, c.marker]))(
    'fails when the marker of %s changes',
    (name, marker) => {
      const variant = CHART_CODE.replaceAll(marker, changed(marker));
      expect(() => emptyUnusedChartCode(variant, CHART_ID, ours)).toThrow(`in one class (${name})`);
    },
  );

  it('fails when conflation is no longer off by default', () => {
    const variant = CHART_CODE.replace('enableConflation:!1', 'enableConflation:!0');
    expect(() => emptyUnusedChartCode(variant, CHART_ID, ours)).toThrow(/DataConflater may be reached/);
  });

  it('fails when src/chart/ adds a built-in series', () => {
    expect(() => emptyUnusedChartCode(CHART_CODE, CHART_ID, `${ours}\nchart.addSeries(LineSeries);`)).toThrow(
      /may be reached: src\/chart\/ adds/,
    );
  });
});
