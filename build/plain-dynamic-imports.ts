import type { Plugin } from 'vite';
import { applyEdits, nameOf, walk, type Edit, type SyntaxNode } from './syntax-tree.ts';

const NAME = 'price-board-plain-dynamic-imports';
/** Where Vite's preload helper comes from; this plugin serves its own there. */
export const PRELOAD_HELPER = '\0vite/preload-helper.js';

/** `key:value` for each property of an object pattern or literal whose key and value are plain names, `?` for another. */
const pairs = (object: SyntaxNode): string[] =>
  (object.properties as SyntaxNode[]).map((p) => {
    const key = nameOf(p.key);
    const value = nameOf(p.value);
    return p.type === 'Property' && !p.computed && key && value ? `${key}:${value}` : '?';
  });

/** The import a wrapper's loader stands for, or undefined for a loader of another form. */
function importOf(loader: SyntaxNode): SyntaxNode | undefined {
  if (loader.type !== 'ArrowFunctionExpression' || (loader.params as SyntaxNode[]).length) return undefined;
  const body = loader.body as SyntaxNode;
  if (!loader.async) return loader.expression ? body : undefined; // `() => import(x)` (or `import(x).then(...)`)
  // `async () => { const { a: b, ... } = await import(x); return { a: b, ... }; }`
  const [declaration, ret, ...rest] = (body.body ?? []) as SyntaxNode[];
  if (rest.length || declaration?.type !== 'VariableDeclaration' || ret?.type !== 'ReturnStatement') return undefined;
  const [declarator, ...more] = declaration.declarations as SyntaxNode[];
  const pattern = declarator?.id as SyntaxNode | undefined;
  const init = declarator?.init as SyntaxNode | undefined;
  const returned = ret.argument as SyntaxNode | undefined;
  if (more.length || pattern?.type !== 'ObjectPattern' || returned?.type !== 'ObjectExpression') return undefined;
  if (init?.type !== 'AwaitExpression' || (init.argument as SyntaxNode).type !== 'ImportExpression') return undefined;
  const from = pairs(pattern);
  if (from.includes('?') || from.join() !== pairs(returned).join()) return undefined;
  return init.argument as SyntaxNode;
}

/**
 * A chunk's code with each `__vitePreload(loader, deps, base)` call replaced by the import its
 * loader stands for, or null when it calls none. Throws at a call of another form: it would
 * keep the helper's wrapper, and with it the helper.
 */
export function unwrapPreloads(code: string, chunk: string): { code: string; map: null } | null {
  if (!code.includes('__vitePreload(')) return null;
  const edits: Edit[] = [];
  walk(code, (node) => {
    const args = (node.args ?? node.arguments) as SyntaxNode[] | undefined;
    if (node.type !== 'CallExpression' || nameOf(node.callee) !== '__vitePreload' || args?.length !== 3) return;
    const target = importOf(args[0]!);
    if (!target) return;
    edits.push({ start: node.start, end: node.end, text: code.slice(target.start, target.end) });
    return false;
  });
  const calls = code.split('__vitePreload(').length - 1;
  if (edits.length !== calls)
    throw new Error(
      `${NAME}: ${chunk} calls __vitePreload ${calls} times, ${edits.length} of them as \`() => import(x)\` or \`async () => { const { a } = await import(x); return { a }; }\`; write its dynamic imports in one of those forms, or check Vite's preload wrapper`,
    );
  return applyEdits(code, edits);
}

/**
 * Build only: Vite wraps each dynamic `import()` in a helper (about 0.7 KB gzip in the initial
 * module) that preloads the imported chunk's own imports and CSS. Our lazy chunks (chart, chart
 * area, live transport) import only the chunk the board has already loaded, and no CSS, so that
 * helper has nothing to do; this one just imports. (It fires no `vite:preloadError`: the board
 * handles a failed import itself.) Each chunk's calls of it then go, the import left in their
 * place: `__vitePreload(() => import(x), ...)` is `import(x)`, and the form Vite gives a
 * destructured import, `__vitePreload(async () => { const { a: b } = await import(x); return
 * { a: b }; }, ...)`, is `import(x)` too (its namespace holds `a`): 71 B gzip off the chunks a
 * board loads at start. The build fails at a call of another form, or when Vite's helper no
 * longer comes from `PRELOAD_HELPER` (it would ship instead of this one).
 */
export function plainDynamicImports(): Plugin {
  let served = false;
  return {
    name: NAME,
    apply: 'build',
    enforce: 'pre',
    buildStart() {
      served = false;
    },
    resolveId: (source) => (source === PRELOAD_HELPER ? PRELOAD_HELPER : null),
    load(source) {
      if (source !== PRELOAD_HELPER) return null;
      served = true;
      return 'export const __vitePreload = (load) => load();';
    },
    renderChunk(code, chunk) {
      const out = unwrapPreloads(code, chunk.fileName);
      if (out && !served)
        throw new Error(`${NAME}: ${chunk.fileName} calls __vitePreload, which no longer comes from ${PRELOAD_HELPER}`);
      return out;
    },
  };
}
