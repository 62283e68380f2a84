/**
 * PHP's built-in server (`php -S`, Debian's php-cli, installed by scripts/ensure-php.mjs) serving a
 * folder of the test's on a port of its own; stopped by its PID.
 */
import { spawn } from 'node:child_process';
import { freePort } from '../../helpers/cluster-processes';

export interface PhpServer {
  url: string;
  close(): Promise<void>;
}

/** Serves `root` on 127.0.0.1; resolves once PHP says it listens. */
export async function startPhpServer(root: string, timeoutMs = 20_000): Promise<PhpServer> {
  const port = await freePort();
  const child = spawn('php', ['-S', `127.0.0.1:${port}`, '-t', root], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const close = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`php -S did not start: ${out}`)), timeoutMs);
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      if (/Development Server \(http:\/\/127\.0\.0\.1:\d+\) started/.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`php -S exited (${code}): ${out}`));
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`php -S: ${error.message} (\`node scripts/ensure-php.mjs\` installs it)`));
    });
  }).catch(async (error: unknown) => {
    await close();
    throw error;
  });
  return { url: `http://127.0.0.1:${port}`, close };
}
