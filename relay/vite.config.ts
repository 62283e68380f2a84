import { cpSync, existsSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));
/** The widgets' script-tag build, which the relay serves from its own origin (the npm build and types stay out). */
const WIDGETS = here('../dist/');

/** The Redis engine's Lua scripts, read at run time (relay/engine/redis-scripts.ts). */
const LUA = here('engine/lua/');

/** Copies the widgets' build and the Lua scripts beside the relay's, after the relay's bundle is written. */
function copyBeside(): Plugin {
  return {
    name: 'price-board-relay-copies',
    apply: 'build',
    closeBundle() {
      if (!existsSync(`${WIDGETS}price-board.js`))
        throw new Error('build the widgets first (vite build at the repository root)');
      cpSync(WIDGETS, here('dist/widgets/'), {
        recursive: true,
        filter: (source) => !/[\\/]dist[\\/](lib|types)([\\/]|$)/.test(source),
      });
      cpSync(LUA, here('dist/lua/'), { recursive: true });
    },
  };
}

/**
 * The relay as plain JavaScript for Node (no TypeScript at run time): its own code, what it shares
 * with the widgets (relay/from-src.ts) and the in-process sandbox of the no-configuration mode, in
 * one bundle, with the Lua scripts beside it; its npm dependencies stay imports, installed beside it.
 */
export default defineConfig({
  root: here('.'),
  logLevel: 'warn',
  plugins: [copyBeside()],
  define: {
    'import.meta.env.RELAY_WIDGETS_DIR': JSON.stringify('./widgets/'),
    'import.meta.env.RELAY_LUA_DIR': JSON.stringify('./lua/'),
  },
  build: {
    ssr: true,
    target: 'node20',
    outDir: 'dist',
    emptyOutDir: true,
    minify: false,
    rollupOptions: {
      input: { cli: here('cli.ts') },
      external: [/^node:/, ...builtinModules, /^@redis\//, /^rate-limiter-flexible(\/|$)/, /^prom-client(\/|$)/],
      output: {
        entryFileNames: '[name].js',
        chunkFileNames: '[name]-[hash].js',
        banner: (chunk) => (chunk.isEntry ? '#!/usr/bin/env node' : ''),
      },
    },
  },
});
