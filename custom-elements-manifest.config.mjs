import { readAttributeTable } from './scripts/attribute-table.mjs';

/**
 * The element's attributes come from the attribute table (src/shared/attribute-table.ts), which the
 * analyzer cannot see through `litProperties(...)`: they are written into the manifest here.
 */
function attributeTablePlugin() {
  return {
    name: 'price-board-attribute-table',
    packageLinkPhase({ customElementsManifest }) {
      // Each element takes its whole table (the connection attributes first, then its own).
      const tables = {
        'price-board': 'BOARD_ATTRIBUTES',
        'price-ticker': 'TICKER_ATTRIBUTES',
        'price-converter': 'CONVERTER_ATTRIBUTES',
      };
      for (const mod of customElementsManifest.modules) {
        for (const d of mod.declarations ?? []) {
          if (!Object.hasOwn(tables, d.tagName)) continue;
          const table = readAttributeTable(tables[d.tagName]);
          const common = (a) => ({
            type: { text: a.type },
            description: a.description,
            ...(a.default === undefined ? {} : { default: a.default }),
          });
          const own = (d.attributes ?? []).filter((a) => !table.some((t) => t.attribute === a.name));
          d.attributes = [...table.map((a) => ({ name: a.attribute, ...common(a), fieldName: a.property })), ...own];
          const fields = table.map((a) => ({
            kind: 'field',
            name: a.property,
            privacy: 'public',
            ...common(a),
            attribute: a.attribute,
            ...(a.reflects ? { reflects: true } : {}),
          }));
          d.members = [...fields, ...(d.members ?? []).filter((m) => !table.some((a) => a.property === m.name))];
        }
      }
    },
  };
}

export default {
  globs: ['src/board/**/*.ts', 'src/widget/**/*.ts', 'src/ticker/**/*.ts', 'src/converter/**/*.ts', 'src/price-*.ts'],
  outdir: 'dist',
  litelement: true,
  dependencies: false,
  // package.json already points at dist/custom-elements.json; do not let the analyzer rewrite it.
  packagejson: false,
  plugins: [attributeTablePlugin()],
};
