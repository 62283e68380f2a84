// A private nginx for a test (Debian's, installed by scripts/ensure-nginx.mjs): a documented
// server block wrapped in a configuration whose pid, logs and temporary folders are all under the
// test's own folder, listening where the block says. No test framework here: the relay's tests
// (vitest) and the include specs (Playwright) start it alike.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p)) ?? 'nginx';

export interface Nginx {
  /** The test's folder: the configuration's files, and whatever the test puts there. */
  dir: string;
  /** What nginx wrote to stderr so far. */
  log(): string;
  /** Stops nginx (by its PID) and removes its folder. */
  close(): Promise<void>;
}

/** A new folder for an nginx's files, writable by its workers (nobody, when run as root). */
export async function nginxFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'test-nginx-'));
  await chmod(dir, 0o777);
  return dir;
}

/** Whether something accepts connections on 127.0.0.1:`port`. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Starts nginx in `dir` (from {@link nginxFolder}) with `site` (server blocks and what goes beside
 * them in the `http` block) listening on 127.0.0.1:`port`; resolves once that port accepts.
 */
export async function startNginx(dir: string, site: string, port: number, timeoutMs = 20_000): Promise<Nginx> {
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((t) => `    ${t}_temp_path ${join(dir, t)};`)
    .join('\n');
  const conf = `daemon off;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} info;
events { worker_connections 256; }
http {
    access_log ${join(dir, 'access.log')};
${temp}
${site}
}
`;
  await writeFile(join(dir, 'nginx.conf'), conf);
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr!.on('data', (c: Buffer) => (log += c.toString()));
  child.on('exit', (code) => (log += `\nnginx exited ${code}`));
  const nginx: Nginx = {
    dir,
    log: () => log,
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
  const deadline = Date.now() + timeoutMs;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await nginx.close();
      throw new Error(`nginx did not start: ${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return nginx;
}
