// The chart plugins in a real Vite build of a page that draws a chart: they rewrite the file Vite
// resolves lightweight-charts to, and the build fails when that is another file than theirs.
import type { Plugin } from 'vite';
import { describe, expect, it } from 'vitest';
import { dropChartAttributionLogo, LOGO_MARKER } from '../../../build/drop-chart-attribution-logo';
import { dropUnusedChartApi, UNREACHED_CHART_CLASSES } from '../../../build/drop-unused-chart-api';
import { buildWith, CHART_ID } from './build-with';

const markers = [LOGO_MARKER, ...UNREACHED_CHART_CLASSES.map((c) => c.marker)];
/** The code of a build with `plugins`, without whitespace (the bundler prints the file anew). */
const bundled = async (plugins: Plugin[]) => (await buildWith('chart-entry.js', plugins)).join('').replace(/\s+/g, '');
const development = { resolve: { alias: { 'lightweight-charts': CHART_ID.replace('production', 'development') } } };

describe('the chart plugins in a Vite build', () => {
  it("leave out the logo's and the unreached classes' code", async () => {
    const code = await bundled([dropChartAttributionLogo(), dropUnusedChartApi()]);
    expect(code.length).toBeGreaterThan(100_000); // the chart is in it
    for (const marker of markers) expect(code, marker).not.toContain(marker);
  });

  it('which a build without them keeps', async () => {
    const code = await bundled([]);
    for (const marker of markers) expect(code, marker).toContain(marker);
  });

  it.each([
    ['dropChartAttributionLogo', dropChartAttributionLogo],
    ['dropUnusedChartApi', dropUnusedChartApi],
  ])('%s fails the build when lightweight-charts comes from its development file', async (_name, plugin) => {
    await expect(buildWith('chart-entry.js', [plugin()], development)).rejects.toThrow(
      /lightweight-charts came from .*lightweight-charts\.development\.mjs, which it does not handle/,
    );
  });
});
