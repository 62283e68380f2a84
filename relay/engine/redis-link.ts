/**
 * A relay process's two Redis connections (commands, and subscriptions) and the names of its keys:
 * what every Redis part of the engine talks through. Each part holds its own state; this holds none
 * but the subscriptions, so that a subscription connection made anew takes them all again.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { createClient } from '@redis/client';

function connectClient(url: string, onError: (error: unknown) => void) {
  const client = createClient({
    url,
    // A command while Redis is away fails at once: the relay serves from memory instead of waiting.
    disableOfflineQueue: true,
    socket: { connectTimeout: 2_000, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 1_000) },
  });
  client.on('error', onError);
  return client;
}
export type RedisClient = ReturnType<typeof connectClient>;

/**
 * How often each connection is asked for a PING, and how long the answer may take (ms).
 * node-redis bounds a command only until it is written: a Redis that holds the connection but
 * answers nothing (paused, swapping, a half-open connection) would hold every command, and every
 * visitor's request waiting on one, for good; a subscription connection in that state would bring
 * no event again, with nothing failing.
 */
const PING_EVERY_MS = 1_000;
const PING_DEADLINE_MS = 2_000;

/** Whether `client` answers a PING within the deadline (a subscribed connection answers one too). */
async function answers(client: RedisClient): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), PING_DEADLINE_MS)));
  try {
    return (await Promise.race([client.ping(), late])) !== 'late';
  } finally {
    clearTimeout(timer);
  }
}

export class RedisLink {
  readonly #url: string;
  readonly #prefix: string;
  readonly #onError: (error: unknown) => void;
  /** Subscriptions (a subscribed connection takes no other command). */
  #sub: RedisClient;
  /** Every channel subscribed to, with its listener: what a new subscription connection takes again. */
  readonly #channels = new Map<string, (message: string) => void>();
  /** The last PING of the command connection went unanswered; cleared by the next one answered. */
  #stalled = false;
  /** The subscription connection went unanswered and is being made anew. */
  #subStalled = false;
  readonly #pinging = new Set<RedisClient>();
  readonly #timer: NodeJS.Timeout;
  #closed = false;
  /** Called when a connection is lost or stops answering. */
  onDown: () => void = () => {};
  /** Called when a connection is ready again, or Redis answers again after a stall. */
  onBack: () => void = () => {};

  private constructor(
    /** Commands and scripts. */
    readonly cmd: RedisClient,
    sub: RedisClient,
    url: string,
    prefix: string,
    onError: (error: unknown) => void,
  ) {
    this.#sub = sub;
    this.#url = url;
    this.#prefix = prefix;
    this.#onError = onError;
    for (const client of [cmd, sub]) this.#watch(client);
    this.#timer = setInterval(() => {
      void this.#pingCmd();
      void this.#pingSub();
    }, PING_EVERY_MS).unref();
  }

  #watch(client: RedisClient): void {
    client.on('end', () => this.onDown());
    client.on('reconnecting', () => this.onDown());
    client.on('ready', () => this.onBack());
  }

  /** `check(client)`, unless a PING of it is already out or it is not ready. */
  async #once(client: RedisClient, check: () => Promise<void>): Promise<void> {
    if (this.#pinging.has(client) || !client.isReady || this.#closed) return;
    this.#pinging.add(client);
    try {
      await check();
    } catch {
      // closed or reconnecting meanwhile: the next PING tells
    } finally {
      this.#pinging.delete(client);
    }
  }

  /**
   * Unanswered, the command connection is dropped (every command waiting on it fails at once, and
   * the relay serves from what it holds, as with Redis away) and made again; the link counts as
   * away until a PING is answered.
   */
  #pingCmd(): Promise<void> {
    const cmd = this.cmd;
    return this.#once(cmd, async () => {
      if (!(await answers(cmd))) {
        this.#stalled = true;
        this.onDown();
        cmd.destroy();
        cmd.connect().catch(() => {}); // retried by its reconnect strategy; failures go to 'error'
      } else if (this.#stalled) {
        this.#stalled = false;
        this.onBack();
      }
    });
  }

  /**
   * Unanswered, the subscription connection is replaced by a new one that subscribes to every
   * channel again (node-redis forgets the subscriptions of a connection it destroys); the link
   * counts as away until then, and `onBack` lets the engine catch up on what was published meanwhile.
   */
  #pingSub(): Promise<void> {
    const sub = this.#sub;
    if (this.#subStalled) return Promise.resolve(); // being made anew
    return this.#once(sub, async () => {
      if (await answers(sub)) return;
      this.#subStalled = true;
      this.onDown();
      sub.destroy();
      await this.#remakeSub();
    });
  }

  async #remakeSub(): Promise<void> {
    while (!this.#closed) {
      const next = connectClient(this.#url, this.#onError);
      this.#sub = next;
      try {
        await next.connect(); // retried by its reconnect strategy until Redis answers
        for (const [channel, listener] of this.#channels) await next.subscribe(channel, listener);
        this.#watch(next);
        this.#subStalled = false;
        this.onBack();
        return;
      } catch {
        // gone again before it subscribed (or closed): a new one, after a pause
        next.destroy();
        await delay(PING_EVERY_MS);
      }
    }
  }

  static async connect(url: string, prefix: string, onError: (error: unknown) => void): Promise<RedisLink> {
    const cmd = connectClient(url, onError);
    const sub = connectClient(url, onError);
    await Promise.all([cmd.connect(), sub.connect()]);
    return new RedisLink(cmd, sub, url, prefix, onError);
  }

  /** The full name of one of the relay's keys (several relays, sites, may share one Redis). */
  readonly keys = (name: string): string => this.#prefix + name;

  get connected(): boolean {
    return !this.#stalled && !this.#subStalled && this.cmd.isReady && this.#sub.isReady;
  }

  /** Subscribes `listener` to `channel`, now and on every subscription connection made later. */
  async subscribe(channel: string, listener: (message: string) => void): Promise<void> {
    this.#channels.set(channel, listener);
    await this.#sub.subscribe(channel, listener);
  }

  run(script: string, keys: string[], args: (string | number)[]): Promise<unknown> {
    return this.cmd.eval(script, { keys, arguments: args.map(String) });
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    // A subscription connection still being made anew is dropped (closing it would wait for Redis).
    if (this.#subStalled) this.#sub.destroy();
    await Promise.all(
      [this.cmd.close(), this.#subStalled ? undefined : this.#sub.close()].map((p) => p?.catch(() => {})),
    );
  }
}
