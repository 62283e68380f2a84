// A private nginx for a test (Debian's, installed by scripts/ensure-nginx.mjs): a documented
// server block wrapped in a configuration whose pid, logs and temporary folders are all under the
// test's own folder, listening where the block says. No test framework here: the relay's tests
// (vitest) and the include specs (Playwright) start it alike.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, watch } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
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

/**
 * Starts nginx in `dir` (from {@link nginxFolder}) with `site` (server blocks and what goes beside
 * them in the `http` block, each saying where it listens); resolves once nginx has written its pid
 * file (its sockets are open).
 */
export async function startNginx(dir: string, site: string, timeoutMs = 20_000): Promise<Nginx> {
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
  // nginx writes its pid file once its listening sockets are open: that file is the sign it serves.
  const pidFile = join(dir, 'nginx.pid');
  const watcher = watch(dir);
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`nginx did not start in ${timeoutMs} ms: ${log}`)), timeoutMs);
      const done = (error?: Error) => {
        clearTimeout(timer);
        if (error) reject(error);
        else resolve();
      };
      watcher.on('change', (_event, name) => {
        if (name === 'nginx.pid' && existsSync(pidFile)) done();
      });
      child.once('exit', () => done(new Error(`nginx did not start: ${log}`)));
      if (existsSync(pidFile)) done();
    });
  } catch (error) {
    await nginx.close();
    throw error;
  } finally {
    watcher.close();
  }
  return nginx;
}
