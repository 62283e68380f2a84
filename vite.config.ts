import { defineConfig, type Plugin } from 'vite';
import { createSandbox } from './sandbox/server';

/**
 * Serves the sandbox price service (`/v1/...` and its `/__sandbox/...` test controls) from the
 * same origin as the demo, so `npm start` needs nothing else.
 */
function sandboxPlugin(): Plugin {
  let sandbox: ReturnType<typeof createSandbox> | undefined;
  const mount = (middlewares: { use(fn: (req: never, res: never, next: () => void) => void): void }) => {
    sandbox ??= createSandbox({ market: process.env.SANDBOX_MARKET as never });
    const s = sandbox;
    middlewares.use((req, res, next) => s.handle(req, res, next));
  };
  return {
    name: 'price-board-sandbox',
    configureServer(server) {
      mount(server.middlewares as never);
      server.httpServer?.once('close', () => sandbox?.close());
    },
    configurePreviewServer(server) {
      mount(server.middlewares as never);
    },
  };
}

export default defineConfig({
  // Every URL inside dist/ is relative, so it works under any path prefix (a CDN folder).
  base: './',
  plugins: [sandboxPlugin()],
  server: { host: '127.0.0.1', port: Number(process.env.PORT ?? 5173) },
  preview: { host: '127.0.0.1', port: Number(process.env.PORT ?? 4173) },
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    // No inline polyfill script: the pages must run under script-src 'self'.
    modulePreload: { polyfill: false },
    // Fonts and images stay files (no data: URLs), so a strict CSP needs no data: for them.
    assetsInlineLimit: 0,
    // The licences of everything bundled (lit, lightweight-charts, Vazirmatn, ...) ship with
    // dist/: the minified chunks lose their banners.
    license: { fileName: 'THIRD-PARTY-LICENSES.md' },
    rolldownOptions: {
      input: {
        index: 'index.html',
        'embed-page': 'embed.html',
        'price-board': 'src/price-board.ts',
        embed: 'src/embed/loader.ts',
      },
      // dist/price-board.js keeps exactly the entry's exports. The element's code lives in a
      // hashed chunk shared with the chart chunk and the pages, so price-board.js is a tiny
      // re-exporting module: its name is stable (short cache), the chunk's is content-hashed.
      preserveEntrySignatures: 'exports-only',
      output: {
        // The two public scripts keep stable names; everything else is content-hashed.
        entryFileNames: (chunk) =>
          chunk.name === 'price-board' || chunk.name === 'embed' ? '[name].js' : 'assets/[name]-[hash].js',
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
        codeSplitting: {
          // The pages' self-hosted font gets a file of its own name.
          groups: [{ name: 'vazirmatn', test: /[\\/]node_modules[\\/]vazirmatn[\\/]/ }],
        },
      },
    },
  },
});
