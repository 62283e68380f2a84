// A controllable upstream for the relay's failure tests: a real node:http server in front of the
// sandbox. By default it passes every request through (SSE included); a test installs rules that
// answer a path itself (an error, HTML, a huge chunked body, its own event stream). It records
// every request it saw, so a test counts what the relay spent.
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe } from 'vitest';
import { createMemoryEngine } from '../../relay/engine/memory';
import { RedisEngine } from '../../relay/engine/redis';
import type { Engine } from '../../relay/engine/types';
import type { RelayOptions } from '../../relay/server';
import type { SandboxOptions } from '../../sandbox/server';
import { start } from '../sandbox/helpers';
import { startRedis, stopAll, type RedisServer } from './cluster-helpers';
import { get, relayOn, Stream, until, type Pair } from './helpers';

/** Answers the request (returns true), or leaves it to the next rule / the sandbox (false). */
export type Rule = (req: IncomingMessage, res: ServerResponse, url: URL) => boolean;

export interface Seen {
  path: string;
  search: string;
  at: number;
}

export class ControlledUpstream {
  readonly seen: Seen[] = [];
  private readonly rules = new Set<Rule>();
  private readonly ownStreams = new Set<ServerResponse>();
  /** Streams passed through to the sandbox. */
  private readonly passedStreams = new Set<ServerResponse>();
  private server: Server | undefined;
  url = '';

  constructor(readonly target: string) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Adds a rule (checked before the ones added earlier); returns its removal. */
  rule(rule: Rule): () => void {
    this.rules.add(rule);
    return () => this.rules.delete(rule);
  }

  /** Answers `status` with a JSON error body (the service's shape) on paths matching `path`. */
  fail(path: RegExp, status: number, code: string, headers: Record<string, string> = {}): () => void {
    return this.rule((_req, res, url) => {
      if (!path.test(url.pathname + url.search)) return false;
      res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
      res.end(JSON.stringify({ error: { code, message: `${code} (controlled upstream)` } }));
      return true;
    });
  }

  /** Requests whose path (and query) match. */
  count(path: RegExp): number {
    return this.seen.filter((s) => path.test(s.path + s.search)).length;
  }

  /** From now on /v1/stream is answered here: events are sent by {@link send}. */
  ownStream(): void {
    this.rule((req, res, url) => {
      if (url.pathname !== '/v1/stream') return false;
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
      res.write(': open\n\n');
      this.ownStreams.add(res);
      req.on('close', () => this.ownStreams.delete(res));
      return true;
    });
  }

  /** Streams open on {@link ownStream}. */
  get openStreams(): number {
    return this.ownStreams.size;
  }

  /** Raw bytes to every stream open on {@link ownStream}. */
  sendRaw(raw: string): void {
    for (const res of this.ownStreams) res.write(raw);
  }

  /** One event to every stream open on {@link ownStream}. */
  send(name: string, data: unknown): void {
    const frame = `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const res of this.ownStreams) res.write(frame);
  }

  /** Cuts every stream passed through to the sandbox (the relay sees its stream break). */
  dropStreams(): void {
    for (const res of this.passedStreams) res.destroy();
  }

  async close(): Promise<void> {
    for (const res of this.ownStreams) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://upstream.invalid');
    if (url.pathname.startsWith('/v1')) this.seen.push({ path: url.pathname, search: url.search, at: Date.now() });
    for (const rule of [...this.rules].reverse()) if (rule(req, res, url)) return;
    const upstream = request(this.target + (req.url ?? '/'), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    if (url.pathname === '/v1/stream') this.passedStreams.add(res);
    res.on('close', () => {
      this.passedStreams.delete(res);
      upstream.destroy();
    });
    upstream.end();
  }
}

/** The relay's `/healthz`: its status and what it says of the upstream. */
export async function health(relayUrl: string): Promise<{ status: number; upstream: string }> {
  const answer = await get(relayUrl, '/healthz');
  return { status: answer.status, upstream: (JSON.parse(answer.body) as { upstream: string }).upstream };
}

/** The symbols of each upstream stream request, in order. */
export function streamRequests(upstream: ControlledUpstream): string[][] {
  return upstream.seen
    .filter((s) => s.path === '/v1/stream')
    .map((s) => new URLSearchParams(s.search).get('symbols')!.split(','));
}

export interface Setup extends Pair {
  upstream: ControlledUpstream;
}

/** A frozen sandbox, the controlled upstream in front of it, and a relay on that. */
export async function startBehind(
  env: Record<string, string> = {},
  options: RelayOptions = {},
  prepare?: (upstream: ControlledUpstream) => void,
  sandboxOptions: SandboxOptions = {},
): Promise<Setup> {
  const sandbox = await start(sandboxOptions);
  const upstream = await new ControlledUpstream(sandbox.url).start();
  prepare?.(upstream);
  return { ...(await relayOn(sandbox, upstream.url, env, options, upstream)), upstream };
}

/**
 * For a test file that starts relays behind the controlled upstream: `start` is
 * {@link startBehind}, `open` a visitor's stream; both are closed after each test.
 */
export function relaysBehind() {
  let started: Setup[] = [];
  let streams: Stream[] = [];
  afterEach(async () => {
    for (const s of streams) s.close();
    streams = [];
    for (const s of started) await s.close();
    started = [];
  });
  return {
    async start(...args: Parameters<typeof startBehind>): Promise<Setup> {
      const setup = await startBehind(...args);
      started.push(setup);
      return setup;
    },
    /** A visitor's stream of `symbols` (comma-separated) from `base`. */
    open(base: string, symbols: string, visit?: ConstructorParameters<typeof Stream>[2]): Stream {
      const stream = new Stream(base, symbols, visit);
      streams.push(stream);
      return stream;
    },
  };
}

/** Where a relay keeps its state: in memory (one process) or in a real Redis (a cluster of one). */
export type EngineName = 'memory' | 'redis';
const ENGINES: EngineName[] = ['memory', 'redis'];

/**
 * The setup of the tests that send the relay quotes themselves: relays on the controlled
 * upstream's own event stream (`ownStream`) with their state in memory or in the file's Redis
 * (started at first use, a fresh key prefix per engine), and visitors' streams. Call once at the
 * top of a test file: the relay and the streams of a test are closed after it, the Redis and any
 * relay process after the file.
 */
export function ownStreamRelays(prefix: string) {
  let redis: RedisServer | undefined;
  let engines = 0;
  const behind = relaysBehind();
  afterAll(async () => {
    if (redis) await stopAll();
  });
  const relays = {
    /** `describe.each` of the engines (`%s` in `title` names one); the Redis starts before its tests. */
    eachEngine(title: string, body: (name: EngineName) => void): void {
      describe.each(ENGINES)(title, (name) => {
        beforeAll(async () => {
          if (name === 'redis') await relays.redis();
        }, 60_000);
        body(name);
      });
    },
    /** The file's Redis. */
    redis: async (): Promise<RedisServer> => (redis ??= await startRedis()),
    /** A new engine: memory, or the file's Redis ({@link redisEngine}). */
    engine: (name: EngineName): Promise<Engine> =>
      name === 'memory' ? Promise.resolve(createMemoryEngine()) : relays.redisEngine(),
    /** The file's Redis under a key prefix of its own (`label`, then a number). */
    async redisEngine(label = prefix): Promise<RedisEngine> {
      return RedisEngine.connect({ url: (await relays.redis()).url, prefix: `${label}${++engines}:` });
    },
    /** A relay on `engine`, once the upstream's stream it is fed by is open. */
    async start(engine: Engine): Promise<Setup> {
      const setup = await behind.start({}, { engine }, (up) => up.ownStream());
      await until(() => setup.upstream.openStreams >= 1, 15_000);
      return setup;
    },
    open: behind.open,
  };
  return relays;
}
