/**
 * `npm run build:wordpress`: the WordPress plugin's installable zip, `wordpress/dist/price-board.zip`,
 * from `wordpress/` and `npm run build`'s dist/ (the widgets ship inside the plugin: no outside
 * CDN). The plugin's attribute list (`attributes.json`) is written here from the project's
 * attribute table, so the shortcodes and blocks take exactly the elements' attributes.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WIDGET_ATTRIBUTES, type AttributeSpec } from '../src/shared/attribute-table';
import { zipSync, type Zippable } from 'fflate';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PLUGIN_DIR = join(ROOT, 'wordpress');
const DIST_DIR = join(ROOT, 'dist');
const OUT_DIR = join(PLUGIN_DIR, 'dist');
/** The plugin's folder name once installed (its slug). */
const SLUG = 'price-board';
/** The widgets' entry modules; their chunks are in dist/assets/. */
const WIDGET_FILES = ['price-board.js', 'price-ticker.js', 'price-converter.js'];
/** Licences of what the built files contain. */
const LICENCE_FILES = ['THIRD-PARTY-LICENSES.md', 'Vazirmatn-OFL.txt'];
/** The elements, by the embed page's widget name. */
const TAGS: Record<keyof typeof WIDGET_ATTRIBUTES, string> = {
  board: 'price-board',
  ticker: 'price-ticker',
  converter: 'price-converter',
};

/** Every file under `dir`, as paths relative to it with `/`. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path).map((inner) => `${name}/${inner}`);
    return [name];
  });
}

/** The attribute table as the plugin reads it: by tag, each attribute's name, kind, values and default. */
export function pluginAttributeTable(): Record<
  string,
  Array<Pick<AttributeSpec, 'attribute' | 'kind' | 'values' | 'default'>>
> {
  return Object.fromEntries(
    Object.entries(WIDGET_ATTRIBUTES).map(([widget, table]) => [
      TAGS[widget as keyof typeof TAGS],
      Object.values(table as Record<string, AttributeSpec>).map(({ attribute, kind, values, default: fallback }) => ({
        attribute,
        kind,
        ...(values && { values }),
        ...(fallback !== undefined && { default: fallback }),
      })),
    ]),
  );
}

/**
 * The plugin's version, as its header, its constant and its readme's stable tag say it: each must
 * be the package's (the widgets it ships are that version).
 */
function checkVersions(): void {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const plugin = readFileSync(join(PLUGIN_DIR, 'price-board.php'), 'utf8');
  const readme = readFileSync(join(PLUGIN_DIR, 'readme.txt'), 'utf8');
  const said = {
    'price-board.php Version': /^ \* Version:\s*(\S+)$/m.exec(plugin)?.[1],
    PRICE_BOARD_VERSION: /define\( 'PRICE_BOARD_VERSION', '([^']+)' \)/.exec(plugin)?.[1],
    'readme.txt Stable tag': /^Stable tag:\s*(\S+)$/m.exec(readme)?.[1],
  };
  for (const [where, value] of Object.entries(said)) {
    if (value !== version) throw new Error(`wordpress/ ${where} is ${value}, the package is ${version}`);
  }
}

function main(): void {
  checkVersions();
  for (const name of WIDGET_FILES) {
    if (!existsSync(join(DIST_DIR, name))) throw new Error(`dist/${name} is missing: run \`npm run build\` first`);
  }
  const entries: Zippable = {};
  const add = (name: string, data: Buffer) => (entries[`${SLUG}/${name}`] = data);
  for (const name of filesUnder(PLUGIN_DIR)) {
    if (name.startsWith(`dist/`)) continue;
    add(name, readFileSync(join(PLUGIN_DIR, name)));
  }
  add('attributes.json', Buffer.from(`${JSON.stringify(pluginAttributeTable(), null, 1)}\n`));
  for (const name of [...WIDGET_FILES, ...LICENCE_FILES]) add(`widgets/${name}`, readFileSync(join(DIST_DIR, name)));
  for (const name of filesUnder(join(DIST_DIR, 'assets'))) {
    add(`widgets/assets/${name}`, readFileSync(join(DIST_DIR, 'assets', name)));
  }
  mkdirSync(OUT_DIR, { recursive: true });
  const out = join(OUT_DIR, `${SLUG}.zip`);
  // A fixed moment: the same files make the same archive.
  const zip = zipSync(entries, { level: 9, mtime: new Date(2026, 0, 1) });
  writeFileSync(out, zip);
  console.log(`${relative(ROOT, out).split(sep).join('/')}: ${Object.keys(entries).length} files, ${zip.length} bytes`);
}

main();
