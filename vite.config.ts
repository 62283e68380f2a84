import { defineConfig, type Plugin } from 'vite';
import { createSandbox } from './sandbox/server.ts';

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
    rolldownOptions: {
      input: {
        index: 'index.html',
        'embed-page': 'embed.html',
        'price-board': 'src/price-board.ts',
        embed: 'src/embed/loader.ts',
      },
      preserveEntrySignatures: 'exports-only',
      output: {
        // The two public scripts keep stable names; everything else is content-hashed.
        entryFileNames: (chunk) =>
          chunk.name === 'price-board' || chunk.name === 'embed' ? '[name].js' : 'assets/[name]-[hash].js',
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
      },
    },
  },
});
