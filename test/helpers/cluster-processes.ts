// Real processes for the relay cluster's tests and bench (no test framework here, so `npm run bench`
// uses it too): a private redis-server on a free port, and relay processes started with the real
// command. Waits are on the processes' own output. `stopAllProcesses()` kills whatever is left.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The relay command from source (tsx, a dev dependency): the built package's command is tested in test/e2e/packages.spec.ts. */
export const RELAY_COMMAND: readonly string[] = [
  '--import',
  'tsx',
  fileURLToPath(new URL('../../relay/cli.ts', import.meta.url)),
];
const started = new Set<ChildProcess>();

/** A port nothing listens on now (for servers that take a port, not 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface Launched {
  child: ChildProcess;
  out: () => string;
  /** Resolves with the first match of `pattern` in the output; rejects if the process exits first or after `timeoutMs`. */
  waitFor: (pattern: RegExp, timeoutMs: number) => Promise<RegExpExecArray>;
}

function launch(command: string, args: string[], env: Record<string, string> = {}): Launched {
  const child = spawn(command, args, { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  child.on('exit', () => started.delete(child));
  let out = '';
  const append = (c: Buffer): void => void (out += c.toString());
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const waitFor = (pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const match = pattern.exec(out);
        if (match) done(() => resolve(match));
      };
      const failed = (): void =>
        done(() => reject(new Error(`${command} exited before ${pattern}: ${out.slice(-500)}`)));
      const timer = setTimeout(
        () => done(() => reject(new Error(`${command}: no ${pattern} in ${timeoutMs} ms: ${out.slice(-500)}`))),
        timeoutMs,
      );
      const done = (then: () => void): void => {
        clearTimeout(timer);
        child.stdout!.off('data', check);
        child.off('exit', failed);
        then();
      };
      child.stdout!.on('data', check);
      child.once('exit', failed);
      check();
    });
  return { child, out: () => out, waitFor };
}

/** Resolves once `child` has exited. */
export function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

export interface RedisServer {
  url: string;
  port: number;
  /** Kills it (its data is gone: no persistence). */
  stop(): Promise<void>;
  /** Starts it again, empty, on the same port. */
  restart(): Promise<void>;
  /** Freezes the process (SIGSTOP): its connections stay open, nothing is answered; `thaw` (SIGCONT) lets it go on. */
  freeze(): void;
  thaw(): void;
}

/** A private redis-server (TOOLCHAIN.md): loopback only, no persistence, stopped by its PID. */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  let current: ChildProcess;
  const boot = async (): Promise<void> => {
    const redis = launch('redis-server', [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
    ]);
    current = redis.child;
    await redis.waitFor(/Ready to accept connections/, 15_000);
  };
  await boot();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      current.kill('SIGKILL');
      await exited(current);
    },
    restart: boot,
    freeze: () => current.kill('SIGSTOP'),
    thaw: () => current.kill('SIGCONT'),
  };
}

export interface RelayChild {
  url: string;
  child: ChildProcess;
  /** Everything it printed (JSON log lines). */
  out(): string;
}

/** The relay command (`relay/cli.ts`) on a free port, configured by `env`. */
export async function startRelayChild(env: Record<string, string>): Promise<RelayChild> {
  const relay = launch(process.execPath, [...RELAY_COMMAND], { PORT: '0', ...env });
  // Three of them starting at once on a busy 2-core machine: generous, it only bounds a failure.
  const match = await relay.waitFor(/Price relay: (http:\/\/\S+)/, 60_000);
  return { url: match[1]!, child: relay.child, out: relay.out };
}

/** Kills every process started here (relays, redis-servers) and waits for them. */
export async function stopAllProcesses(): Promise<void> {
  const children = [...started];
  for (const child of children) {
    child.kill('SIGCONT');
    child.kill('SIGKILL');
  }
  await Promise.all(children.map(exited));
}
