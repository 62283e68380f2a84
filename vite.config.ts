import { defineConfig, parseAst, type Plugin } from 'vite';
import { createSandbox } from './sandbox/server';
import { EMBED_PARAMETERS } from './src/embed/params';

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

/** CSS text without comments and without the whitespace CSS ignores; quoted strings are kept as they are. */
function minifyCssText(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split(/('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")/)
    .map((part, i) =>
      i % 2 ? part : part.replace(/\s+/g, ' ').replace(/ ?([{};,>]) ?/g, '$1').replace(/: /g, ':').replace(/;}/g, '}'),
    )
    .join('');
}

/** HTML template text with each indentation run (whitespace holding a line break) cut to one space. */
function minifyHtmlText(text: string): string {
  return text.replace(/[ \t]*\n\s*/g, ' ');
}

/**
 * Build only: minifies the static text of lit's css`` and html`` literals in src/ (the JS
 * minifier keeps template text as written), about 0.4 KB gzip off the initial module. Only
 * whitespace that renders the same goes: CSS comments and insignificant spaces (quoted strings
 * kept), and in HTML each indentation run becomes one space (no `white-space: pre` content here).
 * The e2e tests run on this output.
 */
function minifyLitLiterals(): Plugin {
  return {
    name: 'price-board-minify-lit-literals',
    apply: 'build',
    enforce: 'post', // after TypeScript is stripped, so the code parses as JS
    transform(code, id) {
      if (!/[\\/]src[\\/].*\.ts$/.test(id) || id.includes('node_modules') || !/\b(css|html)`/.test(code)) return null;
      const edits: { start: number; end: number; text: string }[] = [];
      const visit = (node: unknown): void => {
        if (!node || typeof node !== 'object') return;
        if (Array.isArray(node)) return node.forEach(visit);
        const n = node as { type?: string; tag?: { type?: string; name?: string }; quasi?: { quasis: { start: number; end: number; value: { raw: string } }[] } };
        if (n.type === 'TaggedTemplateExpression' && n.tag?.type === 'Identifier' && (n.tag.name === 'css' || n.tag.name === 'html')) {
          const minify = n.tag.name === 'css' ? minifyCssText : minifyHtmlText;
          for (const q of n.quasi!.quasis) edits.push({ start: q.start, end: q.end, text: minify(q.value.raw) });
        }
        for (const key in node) if (key !== 'type') visit((node as Record<string, unknown>)[key]);
      };
      visit(parseAst(code));
      if (edits.length === 0) return null;
      edits.sort((a, b) => b.start - a.start);
      let out = code;
      for (const e of edits) out = out.slice(0, e.start) + e.text + out.slice(e.end);
      return { code: out, map: null };
    },
  };
}

/**
 * Build only: Vite wraps each dynamic `import()` in a helper (about 0.7 KB gzip in the initial
 * module) that preloads the imported chunk's own imports and CSS. Our lazy chunks (chart, chart
 * area, live transport) import only the chunk the board has already loaded, and no CSS, so that
 * helper has nothing to do; this one just imports. (It fires no `vite:preloadError`: the board
 * handles a failed import itself.)
 */
function plainDynamicImports(): Plugin {
  const id = '\0vite/preload-helper.js';
  return {
    name: 'price-board-plain-dynamic-imports',
    apply: 'build',
    enforce: 'pre',
    resolveId: (source) => (source === id ? id : null),
    load: (source) => (source === id ? 'export const __vitePreload = (load) => load();' : null),
  };
}

export default defineConfig({
  // Every URL inside dist/ is relative, so it works under any path prefix (a CDN folder).
  base: './',
  plugins: [sandboxPlugin(), minifyLitLiterals(), plainDynamicImports()],
  // The loader's parameter lists, from the attribute table, without a shared chunk (loader.ts).
  define: { __EMBED_PARAMETERS__: JSON.stringify(EMBED_PARAMETERS) },
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
      // dist/price-board.js holds the element's code itself, so a script-tag embed loads one
      // file before the element upgrades (not a re-export of a hashed chunk: one more round trip).
      // The pages (demo, embed.html) and the lazy chunks import what they share with it from
      // price-board.js, which therefore exports a few minified internals beside `PriceBoard`.
      // Pages and script tags thus run one module instance: the element is defined once.
      preserveEntrySignatures: 'allow-extension',
      output: {
        // The two public scripts keep stable names; everything else is content-hashed.
        entryFileNames: (chunk) =>
          chunk.name === 'price-board' || chunk.name === 'embed' ? '[name].js' : 'assets/[name]-[hash].js',
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
        codeSplitting: {
          // The pages' self-hosted font gets a file of its own name. Everything the element loads
          // up front (src/ but the embed scripts, and lit) is one file, the price-board entry:
          // left alone, rolldown put api/errors.ts in a file of its own, which every page then
          // had to load as well.
          groups: [
            { name: 'vazirmatn', test: /[\\/]node_modules[\\/]vazirmatn[\\/]/ },
            {
              name: 'price-board',
              tags: ['$initial'],
              test: /[\\/]src[\\/](?!embed[\\/])|[\\/]node_modules[\\/](lit|lit-html|lit-element|@lit[\\/]reactive-element)[\\/]/,
            },
          ],
        },
      },
    },
  },
});
