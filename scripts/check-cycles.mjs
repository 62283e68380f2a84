// No import cycle anywhere, type-only imports included (they tie modules together for a reader
// as much as value imports do). dpdm follows each file's imports; this exits 1 naming each cycle.
//   node scripts/check-cycles.mjs [folder ...]   default: every folder of the repository's code
import { parseCircular, parseDependencyTree, prettyCircular } from 'dpdm';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const FOLDERS = ['src', 'relay', 'sandbox', 'bench', 'scripts', 'demo', 'build', 'test'];

/** The cycles among the TypeScript files under `folders` (relative to `cwd`), each as a list of files. */
export async function findCycles(folders = FOLDERS, cwd = root) {
  const entries = folders.map((f) => `${f}/**/*.ts`);
  const tree = await parseDependencyTree(entries, {
    cwd,
    context: cwd,
    transform: false, // keep type-only imports
    skipDynamicImports: false,
    exclude: /node_modules|[\\/]dist[\\/]/,
    tsconfig: undefined,
  });
  return parseCircular(tree);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const cycles = await findCycles(args.length ? args : FOLDERS);
  if (cycles.length > 0) {
    console.error(
      `Import cycles (docs/ARCHITECTURE.md: no cycle, type-only imports included):\n${prettyCircular(cycles)}`,
    );
    process.exit(1);
  }
}
