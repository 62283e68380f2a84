/**
 * A relay process's two Redis connections (commands, and subscriptions) and the names of its keys:
 * what every Redis part of the engine talks through. Each part holds its own state; this holds none.
 */
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
 * How often the command connection is asked for a PING, and how long the answer may take (ms).
 * node-redis bounds a command only until it is written: a Redis that holds the connection but
 * answers nothing (paused, swapping, a half-open connection) would hold every command, and every
 * visitor's request waiting on one, for good.
 */
const PING_EVERY_MS = 1_000;
const PING_DEADLINE_MS = 2_000;

export class RedisLink {
  readonly #prefix: string;
  /** The last PING went unanswered within its deadline; cleared by the next one answered. */
  #stalled = false;
  #pinging = false;
  readonly #timer: NodeJS.Timeout;
  /** Called when Redis answers again after a stall. */
  onBack: () => void = () => {};

  private constructor(
    /** Commands and scripts. */
    readonly cmd: RedisClient,
    /** Subscriptions (a subscribed connection takes no other command). */
    readonly sub: RedisClient,
    prefix: string,
  ) {
    this.#prefix = prefix;
    this.#timer = setInterval(() => void this.#ping(), PING_EVERY_MS).unref();
  }

  /**
   * A PING with a deadline. Unanswered, the command connection is dropped (every command waiting
   * on it fails at once, and the relay serves from what it holds, as with Redis away) and made
   * again; the link counts as away until a PING is answered.
   */
  async #ping(): Promise<void> {
    if (this.#pinging || !this.cmd.isReady) return;
    this.#pinging = true;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), PING_DEADLINE_MS)));
    try {
      if ((await Promise.race([this.cmd.ping(), late])) === 'late') {
        this.#stalled = true;
        this.cmd.destroy();
        this.cmd.connect().catch(() => {}); // retried by its reconnect strategy; failures go to 'error'
      } else if (this.#stalled) {
        this.#stalled = false;
        this.onBack();
      }
    } catch {
      // closed or reconnecting meanwhile: the next PING tells
    } finally {
      clearTimeout(timer);
      this.#pinging = false;
    }
  }

  static async connect(url: string, prefix: string, onError: (error: unknown) => void): Promise<RedisLink> {
    const cmd = connectClient(url, onError);
    const sub = connectClient(url, onError);
    await Promise.all([cmd.connect(), sub.connect()]);
    return new RedisLink(cmd, sub, prefix);
  }

  /** The full name of one of the relay's keys (several relays, sites, may share one Redis). */
  readonly keys = (name: string): string => this.#prefix + name;

  get connected(): boolean {
    return !this.#stalled && this.cmd.isReady && this.sub.isReady;
  }

  run(script: string, keys: string[], args: (string | number)[]): Promise<unknown> {
    return this.cmd.eval(script, { keys, arguments: args.map(String) });
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await Promise.all([this.cmd.close(), this.sub.close()].map((p) => p.catch(() => {})));
  }
}
