import type { Plugin } from 'vite';

/** lightweight-charts' production build: the file the chart plugins rewrite. */
export const CHART_FILE = /[\\/]node_modules[\\/]lightweight-charts[\\/]dist[\\/]lightweight-charts\.production\.mjs$/;

/**
 * A build-only plugin `name` that rewrites lightweight-charts' production file with `rewrite`
 * (which throws when it does not find what it rewrites). The build fails when lightweight-charts
 * came from another file (its development build, say), which would ship unrewritten. The npm
 * build (dist/lib) imports lightweight-charts by name: nothing to rewrite there.
 */
export function chartFilePlugin(name: string, rewrite: (code: string, id: string) => string): Plugin {
  const done = new Set<string>();
  return {
    name,
    apply: 'build',
    transform(code, id) {
      if (!CHART_FILE.test(id)) return null;
      const out = rewrite(code, id);
      done.add(id);
      return { code: out, map: null };
    },
    buildEnd() {
      const missed = [...this.getModuleIds()].filter(
        (id) => /[\\/]node_modules[\\/]lightweight-charts[\\/]/.test(id) && !done.has(id),
      );
      if (missed.length)
        throw new Error(`${name}: lightweight-charts came from ${missed.join(', ')}, which it does not handle`);
    },
  };
}
