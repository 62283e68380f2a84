// Reads the attribute table (src/shared/attribute-table.ts) as source, JSDoc included, for the
// manifest and the element pages (docs/elements/): the docs stay comments, so they never reach the bundle.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const FILE = fileURLToPath(new URL('../src/shared/attribute-table.ts', import.meta.url));

/** `{ ... } as const satisfies X` → `{ ... }`. */
function unwrap(node) {
  while (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isParenthesizedExpression(node))
    node = node.expression;
  return node;
}

/** The value type of a spec, as the element's property has it. */
function typeText(spec) {
  if (spec.values) return spec.values;
  if (spec.kind === 'seconds' || spec.kind === 'positive') return 'number';
  if (spec.kind === 'flag') return 'boolean';
  return spec.default !== undefined || spec.kind === 'base-url' ? 'string' : 'string | undefined';
}

/**
 * The entries of the table `name` (`BOARD_ATTRIBUTES`, `CONNECTION_ATTRIBUTES`) in order:
 * `{ property, attribute, kind, default, reflects, description, type }`; `default` as source
 * text (`'auto'`, `30`), as the analyzer writes it.
 */
export function readAttributeTable(name = 'BOARD_ATTRIBUTES', file = FILE) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const tables = new Map();
  const constTypes = new Map();
  source.forEachChild((node) => {
    if (!ts.isVariableStatement(node)) return;
    for (const decl of node.declarationList.declarations) {
      if (!decl.initializer) continue;
      const init = unwrap(decl.initializer);
      if (ts.isObjectLiteralExpression(init)) tables.set(decl.name.getText(source), init);
      if (decl.type)
        constTypes.set(decl.name.getText(source), decl.type.getText(source).replace(/^readonly (.*)\[\]$/, '$1'));
    }
  });
  const entries = (tableName) => {
    const table = tables.get(tableName);
    if (!table) throw new Error(`no ${tableName} in ${file}`);
    return table.properties.flatMap((prop) => {
      if (ts.isSpreadAssignment(prop)) return entries(prop.expression.getText(source));
      const spec = {};
      for (const field of unwrap(prop.initializer).properties) {
        const value = field.initializer;
        const key = field.name.getText(source);
        spec[key] = ts.isStringLiteral(value)
          ? value.text
          : ts.isNumericLiteral(value)
            ? Number(value.text)
            : value.getText(source);
        if (key === 'default') spec.defaultText = value.getText(source);
        if (key === 'values') spec.values = constTypes.get(value.getText(source)) ?? value.getText(source);
      }
      const doc = ts.getJSDocCommentsAndTags(prop).find(ts.isJSDoc);
      return [
        {
          property: prop.name.getText(source),
          attribute: spec.attribute,
          kind: spec.kind,
          default: spec.defaultText,
          reflects: spec.reflect !== 'false',
          description: ts.getTextOfJSDocComment(doc?.comment) ?? '',
          type: typeText(spec),
        },
      ];
    });
  };
  return entries(name);
}
