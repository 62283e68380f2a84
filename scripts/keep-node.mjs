// The dev dependency `node@24` (npm run test:node24) declares a `node` bin, so npm links it as
// node_modules/.bin/node, which npm puts first on the PATH of every script: `npm test`, `npm start`
// and the relay would all run on Node 24 whatever Node the user has. Removing that one link keeps
// scripts on the user's Node; test:node24 calls node_modules/node/bin/node by its path.
import { lstatSync, readlinkSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../node_modules/.bin/', import.meta.url));
const node24 = fileURLToPath(new URL('../node_modules/node/', import.meta.url));

for (const name of ['node', 'node.cmd', 'node.ps1']) {
  const link = bin + name;
  let target;
  try {
    const stat = lstatSync(link);
    // npm's Windows shims are files that name the target in their text.
    target = stat.isSymbolicLink() ? resolve(bin, readlinkSync(link)) : node24;
  } catch {
    continue; // no such link
  }
  if (target.startsWith(node24)) rmSync(link);
}
