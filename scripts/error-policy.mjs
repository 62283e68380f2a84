// Reads the error policy (src/shared/errors.ts, ERROR_POLICY) as source, its comments included,
// for the error table of docs/elements/board.md: when each code happens stays a comment, so it
// never reaches the bundle.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const FILE = fileURLToPath(new URL('../src/shared/errors.ts', import.meta.url));

/** The codes in order: `{ code, policy, of, for, when }`. */
export function readErrorPolicy(file = FILE) {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  let table;
  source.forEachChild((node) => {
    if (!ts.isVariableStatement(node)) return;
    for (const d of node.declarationList.declarations)
      if (d.name.getText(source) === 'ERROR_POLICY') table = d.initializer;
  });
  while (table && (ts.isAsExpression(table) || ts.isSatisfiesExpression(table))) table = table.expression;
  if (!table || !ts.isObjectLiteralExpression(table)) throw new Error('ERROR_POLICY not found in src/shared/errors.ts');
  return table.properties.map((p) => {
    const field = (name) => {
      const f = p.initializer.properties.find((q) => q.name.getText(source) === name);
      return f ? JSON.parse(f.initializer.getText(source).replace(/^'|'$/g, '"')) : undefined;
    };
    const comment = (ts.getLeadingCommentRanges(text, p.getFullStart()) ?? [])
      .map((r) => text.slice(r.pos, r.end))
      .join(' ');
    const when = comment.replace(/^\/\*\*\s*|\s*\*\/$/g, '').trim();
    return { code: p.name.getText(source), policy: field('policy'), of: field('of'), for: field('for'), when };
  });
}
