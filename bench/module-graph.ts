/**
 * The module graphs of a built entry: the files a browser downloads for it, followed through static
 * `import`/`export … from` statements (Vite's parser over the minified output); the targets of dynamic
 * `import()` start the lazy graphs, counted without what the initial graph already holds. Each file
 * is gzipped on its own (gzip -9, as it is served) and the figures summed.
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseAst } from 'vite';

export interface FileSize {
  file: string;
  raw: number;
  gzip: number;
}
export interface GraphSize {
  files: FileSize[];
  raw: number;
  gzip: number;
}
export interface EntrySizes {
  entry: string;
  initial: GraphSize;
  /**
   * Dynamic import targets reachable from the initial graph (nested ones included: a lazy chunk's
   * own dynamic imports), each with its own static graph minus the initial one.
   */
  lazy: { target: string; graph: GraphSize }[];
  /** Union of every lazily loaded file (all dynamic graphs, nested ones included) minus the initial graph. */
  lazyAll: GraphSize;
  warnings: string[];
}

export function gzipSize(buf: Buffer | string): number {
  return gzipSync(buf, { level: 9 }).length;
}

interface Imports {
  staticDeps: string[];
  dynamicDeps: string[];
  warnings: string[];
}

/** The value of a string literal or of a template literal without substitutions. */
function literalString(node: unknown): string | undefined {
  const n = node as {
    type?: string;
    value?: unknown;
    expressions?: unknown[];
    quasis?: { value: { cooked?: string } }[];
  };
  if (n?.type === 'Literal' && typeof n.value === 'string') return n.value;
  if (n?.type === 'TemplateLiteral' && n.expressions?.length === 0 && n.quasis?.length === 1)
    return n.quasis[0]!.value.cooked;
  return undefined;
}

/** Static and dynamic import specifiers of one ES module (minified output), via Vite's parser. */
function importsOf(file: string): Imports {
  const code = readFileSync(file, 'utf8');
  const ast = parseAst(code, { sourceType: 'module', lang: 'js' }, file) as unknown;
  const staticDeps: string[] = [];
  const dynamicDeps: string[] = [];
  const warnings: string[] = [];
  const stack: unknown[] = [ast];
  while (stack.length) {
    const node = stack.pop();
    if (!node || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (const n of node) stack.push(n);
      continue;
    }
    const n = node as { type?: string; source?: { type?: string; value?: unknown } | null };
    if (
      (n.type === 'ImportDeclaration' || n.type === 'ExportAllDeclaration' || n.type === 'ExportNamedDeclaration') &&
      n.source &&
      typeof n.source.value === 'string'
    ) {
      staticDeps.push(n.source.value);
    } else if (n.type === 'ImportExpression') {
      const spec = literalString(n.source);
      if (spec !== undefined) dynamicDeps.push(spec);
      else warnings.push(`${file}: dynamic import() with a non-literal specifier (not followed)`);
    }
    for (const key in node) {
      if (key === 'type' || key === 'start' || key === 'end' || key === 'range' || key === 'loc') continue;
      const v = (node as Record<string, unknown>)[key];
      if (v && typeof v === 'object') stack.push(v);
    }
  }
  return { staticDeps, dynamicDeps, warnings };
}

function resolveSpecifier(from: string, spec: string, root: string, warnings: string[]): string | undefined {
  if (spec.startsWith('./') || spec.startsWith('../') || spec.startsWith('/')) {
    const target = spec.startsWith('/') ? resolve(root, '.' + spec) : resolve(dirname(from), spec);
    if (!target.startsWith(root)) {
      warnings.push(`${relative(root, from)} imports ${spec}, outside ${root} (not counted)`);
      return undefined;
    }
    return target;
  }
  warnings.push(`${relative(root, from)} imports bare specifier "${spec}" (external, not counted)`);
  return undefined;
}

/** Static closure of `entries`; dynamic targets met on the way are collected in `dynamicOut`. */
function staticClosure(entries: string[], root: string, dynamicOut: Set<string>, warnings: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const imp = importsOf(file);
    warnings.push(...imp.warnings);
    for (const s of imp.staticDeps) {
      const t = resolveSpecifier(file, s, root, warnings);
      if (t) queue.push(t);
    }
    for (const d of imp.dynamicDeps) {
      const t = resolveSpecifier(file, d, root, warnings);
      if (t) dynamicOut.add(t);
    }
  }
  return seen;
}

export function sizeOf(files: Iterable<string>, root: string): GraphSize {
  const list: FileSize[] = [];
  for (const f of files) {
    const buf = readFileSync(f);
    list.push({ file: relative(root, f), raw: buf.length, gzip: gzipSize(buf) });
  }
  list.sort((a, b) => b.gzip - a.gzip);
  return {
    files: list,
    raw: list.reduce((s, f) => s + f.raw, 0),
    gzip: list.reduce((s, f) => s + f.gzip, 0),
  };
}

/** Measures the initial and lazy graphs of one entry file inside `root` (an output directory). */
export function measureEntry(entry: string, root: string): EntrySizes {
  const warnings: string[] = [];
  const dynamicTargets = new Set<string>();
  const initial = staticClosure([entry], root, dynamicTargets, warnings);
  const lazy: EntrySizes['lazy'] = [];
  // Everything reachable lazily, nested dynamic imports included.
  const all = new Set<string>();
  const pending = [...dynamicTargets];
  const seenTargets = new Set<string>();
  while (pending.length) {
    const t = pending.shift()!;
    if (seenTargets.has(t)) continue;
    seenTargets.add(t);
    const nested = new Set<string>();
    const graph = staticClosure([t], root, nested, warnings);
    for (const f of graph) all.add(f);
    lazy.push({
      target: relative(root, t),
      graph: sizeOf(
        [...graph].filter((f) => !initial.has(f)),
        root,
      ),
    });
    pending.push(...nested);
  }
  return {
    entry: relative(root, entry),
    initial: sizeOf(initial, root),
    lazy,
    lazyAll: sizeOf(
      [...all].filter((f) => !initial.has(f)),
      root,
    ),
    warnings: [...new Set(warnings)],
  };
}
