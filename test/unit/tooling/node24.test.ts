// `npm run test:node24` runs on a Node 24 that scripts/node24.mjs fetches from the npm registry on
// first use; every other npm script runs on the Node the user has (20.19+, 22 or 24), which is what
// the README promises.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const run = (file: string, args: string[]): string => execFileSync(file, args, { cwd: root, encoding: 'utf8' }).trim();

describe('Node versions', () => {
  // The first run in a fresh clone downloads Node 24 (tens of seconds); later runs find it cached.
  it('runs scripts/node24.mjs on a Node 24', { timeout: 180_000 }, () => {
    expect(run('node', ['scripts/node24.mjs', '-p', 'process.version'])).toMatch(/^v24\./);
  });

  it("runs npm scripts on the user's Node, with no `node` of ours on their PATH", () => {
    expect(existsSync(`${root}node_modules/.bin/node`)).toBe(false);
    const execPath = run('npm', ['exec', '--', 'node', '-p', 'process.execPath']);
    expect(execPath.startsWith(`${root}node_modules/`)).toBe(false);
  });
});
