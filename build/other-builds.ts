import type { BuildEnvironmentOptions, Plugin } from 'vite';

/**
 * The builds beside the top-level `build` (the script-tag one), one per environment name (`builds`).
 * Each replaces that `build` rather than inheriting it: environments otherwise merge the
 * top-level options into their own. All target ES2022, write beside dist/'s other files (no
 * emptying) and copy no public/ files.
 */
export function otherBuilds(builds: Record<string, BuildEnvironmentOptions>): Plugin {
  return {
    name: 'price-board-other-builds',
    configEnvironment(name, config) {
      const own = builds[name];
      if (own) config.build = { target: 'es2022', emptyOutDir: false, copyPublicDir: false, ...own };
    },
  };
}
