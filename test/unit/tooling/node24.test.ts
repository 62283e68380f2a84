// The Node 24 of `npm run test:node24` is a dev dependency; every other npm script runs on the Node
// the user has (20.19+, 22 or 24), which is what the README promises.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const run = (file: string, args: string[]): string => execFileSync(file, args, { cwd: root, encoding: 'utf8' }).trim();

describe('Node versions', () => {
  it('has a Node 24 at node_modules/node/bin/node', () => {
    expect(run(`${root}node_modules/node/bin/node`, ['--version'])).toMatch(/^v24\./);
  });

  it("runs npm scripts on the user's Node, not on the dev dependency's", () => {
    const execPath = run('npm', ['exec', '--', 'node', '-p', 'process.execPath']);
    expect(execPath.startsWith(`${root}node_modules/`)).toBe(false);
  });
});
