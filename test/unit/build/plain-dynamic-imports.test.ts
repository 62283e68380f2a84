// The preload unwrapping on small chunks and in a real Vite build: each form of dynamic import Vite
// wraps must be unwrapped, and a wrapper of another form must fail the build, not ship the helper.
import { describe, expect, it } from 'vitest';
import { plainDynamicImports, unwrapPreloads } from '../../../build/plain-dynamic-imports';
import { buildWith } from './build-with';

describe('unwrapPreloads', () => {
  it('unwraps `() => import(x)`', () => {
    const code = 'const load = () => __vitePreload(() => import("./chart.js"), [], import.meta.url);';
    expect(unwrapPreloads(code, 'a.js')?.code).toBe('const load = () => import("./chart.js");');
  });

  it('unwraps the form of a destructured import when it returns what it took', () => {
    const code =
      'const { a } = await __vitePreload(async () => { const { a: b, c } = await import("./x.js"); return { a: b, c }; }, [], import.meta.url);';
    expect(unwrapPreloads(code, 'a.js')?.code).toBe('const { a } = await import("./x.js");');
  });

  it('leaves a chunk that calls no wrapper', () => {
    expect(unwrapPreloads('import("./x.js");', 'a.js')).toBeNull();
  });

  it.each([
    ['a loader with a parameter', '__vitePreload((m) => import("./x.js"), [], import.meta.url);'],
    [
      'a destructured import that returns another name',
      '__vitePreload(async () => { const { a } = await import("./x.js"); return { b: a }; }, [], import.meta.url);',
    ],
    ['a wrapper without the importer URL (an absolute base)', '__vitePreload(() => import("./x.js"), []);'],
  ])('fails at %s', (_form, code) => {
    expect(() => unwrapPreloads(code, 'a.js')).toThrow(/a\.js calls __vitePreload 1 times, 0 of them/);
  });
});

describe('plainDynamicImports in a Vite build', () => {
  it("serves its helper in Vite's place and leaves each dynamic import alone", async () => {
    const chunks = await buildWith('lazy-entry.js', [plainDynamicImports()]);
    expect(chunks.length).toBe(3);
    const entry = chunks.find((c) => c.includes('loadAll'))!;
    expect(entry).toMatch(/import\("\.\/lazy-all-[\w-]+\.js"\)/);
    expect(entry).toMatch(/await import\("\.\/lazy-one-[\w-]+\.js"\)/);
    expect(chunks.join('\n')).not.toContain('__vitePreload(');
  });

  it('that Vite wraps them without it', async () => {
    const chunks = await buildWith('lazy-entry.js', []);
    expect(chunks.join('\n').split('__vitePreload(').length - 1).toBe(2);
  });
});
