import type { Plugin } from 'vite';
import { minifyCssText, minifyHtmlText } from './literal-text.ts';
import { applyEdits, nameOf, walk, type Edit, type SyntaxNode } from './syntax-tree.ts';

const NAME = 'price-board-minify-lit-literals';

const MINIFY: Record<string, (text: string) => string> = { css: minifyCssText, html: minifyHtmlText };

/**
 * `code` (a module of src/ as JavaScript) with the static text of its css`` and html`` literals
 * minified, or null when it has none. Throws when the module imports `css` or `html` from lit
 * but has no literal tagged with it: the literals then have another shape, which would ship as
 * written.
 */
export function minifyLitLiteralsIn(code: string, id: string): { code: string; map: null } | null {
  const edits: Edit[] = [];
  const imported = new Set<string>();
  const tagged = new Set<string>();
  walk(code, (node: SyntaxNode) => {
    if (node.type === 'ImportDeclaration' && (node.source as { value?: unknown }).value === 'lit') {
      for (const s of node.specifiers as SyntaxNode[]) {
        const name = nameOf(s.imported);
        if (s.type === 'ImportSpecifier' && name && name in MINIFY) imported.add(name);
      }
    }
    const tag = nameOf(node.tag);
    if (node.type !== 'TaggedTemplateExpression' || !tag || !(tag in MINIFY)) return;
    tagged.add(tag);
    const quasis = (node.quasi as { quasis: { start: number; end: number; value: { raw: string } }[] }).quasis;
    quasis.forEach((q, i) => {
      let text = MINIFY[tag]!(q.value.raw);
      // A sheet's (or a rule's) own edges: the literal that takes it in keeps its separators.
      if (tag === 'css' && i === 0) text = text.trimStart();
      if (tag === 'css' && i === quasis.length - 1) text = text.trimEnd();
      edits.push({ start: q.start, end: q.end, text });
    });
  });
  const missed = [...imported].filter((tag) => !tagged.has(tag));
  if (missed.length)
    throw new Error(`${NAME}: ${id} imports ${missed.join(' and ')} from lit but has no ${missed[0]}\`\` literal`);
  return applyEdits(code, edits);
}

/**
 * Build only: minifies the static text of lit's css`` and html`` literals in src/ (the JS
 * minifier keeps template text as written), about 0.4 KB gzip off the initial module. Only
 * whitespace that renders the same goes: CSS comments and insignificant spaces (quoted strings
 * kept), and in HTML each indentation run becomes one space (no `white-space: pre` content here).
 * The e2e tests run on this output. A build that bundles lit (the script-tag one) but minified
 * no literal fails: the plugin no longer sees src/'s modules.
 */
export function minifyLitLiterals(): Plugin {
  let minified = 0;
  return {
    name: NAME,
    apply: 'build',
    enforce: 'post', // after TypeScript is stripped, so the code parses as JS
    buildStart() {
      minified = 0;
    },
    transform(code, id) {
      if (!/[\\/]src[\\/].*\.ts$/.test(id) || id.includes('node_modules') || !/\b(css|html)`/.test(code)) return null;
      const out = minifyLitLiteralsIn(code, id);
      if (out) minified++;
      return out;
    },
    buildEnd(error) {
      const bundlesLit = [...this.getModuleIds()].some((id) => /[\\/]node_modules[\\/]lit-html[\\/]/.test(id));
      if (!error && bundlesLit && minified === 0)
        throw new Error(`${NAME}: this build bundles lit but no css\`\` or html\`\` literal of src/ was minified`);
    },
  };
}
