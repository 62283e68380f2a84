// Terser's pass after oxc keeps its output only where it gzips smaller, and keeps the compile hint first.
import { describe, expect, it } from 'vitest';
import { terserIfSmaller } from '../../../build/terser-after-oxc';

describe('terserIfSmaller', () => {
  it("takes terser's output when it gzips smaller, the compile hint comment first", async () => {
    const code =
      '//# allFunctionsCalledOnLoad\n/* a licence */\nexport function f(a) { if (a) { return 1; } else { return 2; } }\nexport const g = () => { const x = 1; const y = 2; return x + y; };\n';
    const out = await terserIfSmaller(code);
    expect(out).not.toBe(code);
    expect(out.startsWith('//# allFunctionsCalledOnLoad\n')).toBe(true);
    expect(out).not.toContain('licence');
    expect(out).toContain('function f(a)'); // names kept
  });

  it('keeps the code when terser does not make it smaller', async () => {
    const code = 'export const a=1;';
    expect(await terserIfSmaller(code)).toBe(code);
  });
});
