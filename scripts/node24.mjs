// `node scripts/node24.mjs <args>` runs `node <args>` on Node 24 (`npm run test:node24`): Node 20 is
// past its end of life, and the README supports 20.19+, 22 and 24.
//
// Node 24 comes from the npm registry (the `node` package) on first use, into a cache folder under
// node_modules. It is not a dev dependency: npm would link that package's `node` bin into
// node_modules/.bin, first on the PATH of every npm script, so `npm test`, `npm start` and the relay
// would all run on Node 24 whatever Node the user has; removing the link took an install script,
// which then ran in every user's install of the package too.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAJOR = '24';
const prefix = fileURLToPath(new URL('../node_modules/.cache/node24/', import.meta.url));
const pkg = join(prefix, 'node_modules', 'node');

/** The installed binary if it is a Node `MAJOR`, else undefined. */
function installed() {
  try {
    // The package names its binary in its own bin (bin/node, or bin/node.exe on Windows).
    const binary = join(pkg, JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).bin.node);
    const version = execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();
    return version.startsWith(`v${MAJOR}.`) ? binary : undefined;
  } catch {
    return undefined; // not there yet, or broken: install again
  }
}

let binary = installed();
if (!binary) {
  console.error(`Fetching Node ${MAJOR} from the npm registry into ${prefix}`);
  mkdirSync(prefix, { recursive: true });
  // The package's preinstall fetches the binary for this platform: npm 11 asks that a project
  // allow a dependency's install scripts by name (and will block unlisted ones).
  writeFileSync(join(prefix, 'package.json'), JSON.stringify({ private: true, allowScripts: { node: true } }));
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  execFileSync(
    npm,
    ['install', '--prefix', prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `node@${MAJOR}`],
    { stdio: ['ignore', 'ignore', 'inherit'], shell: process.platform === 'win32' },
  );
  binary = installed();
  if (!binary) throw new Error(`node@${MAJOR} installed into ${prefix} but gave no Node ${MAJOR}`);
}

const run = spawnSync(binary, process.argv.slice(2), { stdio: 'inherit' });
if (run.error) throw run.error;
process.exit(run.status ?? 1);
