// The attribution-logo plugin on lightweight-charts' installed production file and on variants of
// it: an update that moves or reshapes the logo's class must fail the build, not ship the logo.
import { parseAst } from 'vite';
import { describe, expect, it } from 'vitest';
import { emptyAttributionLogo, LOGO_MARKER } from '../../../build/drop-chart-attribution-logo';
import { CHART_CODE, CHART_ID } from './build-with';

describe('emptyAttributionLogo', () => {
  it('empties the one class of the installed lightweight-charts that holds the logo', () => {
    expect(CHART_CODE.split(LOGO_MARKER).length - 1).toBeGreaterThan(0);
    const out = emptyAttributionLogo(CHART_CODE, CHART_ID);
    expect(out).not.toContain(LOGO_MARKER);
    expect(() => parseAst(out)).not.toThrow();
    // About 0.9 KB gzip: the SVG and the style text go.
    expect(CHART_CODE.length - out.length).toBeGreaterThan(1_000);
  });

  it('keeps, empty, the methods the rest of the file calls, and drops the others and the constructor', () => {
    const code = `class Logo{constructor(a){this.a=a}update(){draw("${LOGO_MARKER}")}secret(){}}logo.update();`;
    expect(emptyAttributionLogo(code, 'small.js')).toBe('class Logo{update(){}}logo.update();');
  });

  it('fails when no class holds the logo (an update renamed its class name)', () => {
    const variant = CHART_CODE.replaceAll(LOGO_MARKER, 'tv-attribution-logo');
    expect(() => emptyAttributionLogo(variant, CHART_ID)).toThrow(/expected one class holding "tv-attr-logo".*found 0/);
  });

  it('fails when two classes hold the logo', () => {
    const variant = `${CHART_CODE}\nexport class Extra { m() { return "${LOGO_MARKER}"; } }`;
    expect(() => emptyAttributionLogo(variant, CHART_ID)).toThrow(/found 2/);
  });

  it('fails when the logo is also outside its class', () => {
    const variant = `${CHART_CODE}\nexport const logoClass = "${LOGO_MARKER}";`;
    expect(() => emptyAttributionLogo(variant, CHART_ID)).toThrow(/still in/);
  });

  it('fails when the class holds more than plain methods', () => {
    const code = `class Logo{static x=1;update(){draw("${LOGO_MARKER}")}}logo.update();`;
    expect(() => emptyAttributionLogo(code, 'small.js')).toThrow(/members other than plain methods/);
  });
});
