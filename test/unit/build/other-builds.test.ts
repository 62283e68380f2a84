// The npm and loader builds replace the top-level build, with what they all share.
import type { BuildEnvironmentOptions, EnvironmentOptions } from 'vite';
import { describe, expect, it } from 'vitest';
import { otherBuilds } from '../../../build/other-builds';

/** The `build` an environment named `name` ends with, from `build` as Vite merged it. */
function configured(name: string, build: BuildEnvironmentOptions): BuildEnvironmentOptions | undefined {
  const plugin = otherBuilds({ lib: { outDir: 'dist/lib', minify: false } });
  const config: EnvironmentOptions = { build };
  (plugin.configEnvironment as (name: string, config: EnvironmentOptions) => void)(name, config);
  return config.build;
}

describe('otherBuilds', () => {
  it('replaces the inherited build of a named environment with its own', () => {
    expect(configured('lib', { outDir: 'dist', emptyOutDir: true, rolldownOptions: { input: 'index.html' } })).toEqual({
      target: 'es2022',
      emptyOutDir: false,
      copyPublicDir: false,
      outDir: 'dist/lib',
      minify: false,
    });
  });

  it('leaves the other environments', () => {
    const build = { outDir: 'dist', emptyOutDir: true };
    expect(configured('client', build)).toBe(build);
  });
});
