/**
 * A relay process's two Redis connections (commands, and subscriptions) and the names of its keys:
 * what every Redis part of the engine talks through. Each part holds its own state; this holds none.
 */
import { createClient } from '@redis/client';
import { withTimeLimit } from '../time-limit';

/** How long a connection may go without a byte (its handshake included) before it is made anew. */
const SOCKET_IDLE_MS = 5_000;

function connectClient(url: string, onError: (error: unknown) => void) {
  const client = createClient({
    url,
    // A command while Redis is away fails at once: the relay serves from memory instead of waiting.
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 2_000,
      // No byte for this long (the PINGs bring one each second): the socket is dropped and made
      // again by node-redis's own loop. What bounds a handshake on a path that went silent.
      socketTimeout: SOCKET_IDLE_MS,
      reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 1_000),
    },
  });
  client.on('error', onError);
  return client;
}
export type RedisClient = ReturnType<typeof connectClient>;

/**
 * How often each connection is asked for a PING, and how long the answer may take (ms).
 * node-redis bounds a command only until it is written: a Redis that holds a connection but answers
 * nothing (paused, swapping, a half-open connection, a NAT or firewall that forgot it) would hold
 * every command, and every visitor's request waiting on one, for good; the subscription connection
 * would bring no event until TCP keepalive gave up (minutes), or never.
 */
const PING_EVERY_MS = 1_000;
const PING_DEADLINE_MS = 2_000;

export class RedisLink {
  readonly #prefix: string;
  /** Connections whose last PING went unanswered; each leaves at the next one it answers. */
  readonly #stalled = new Set<RedisClient>();
  readonly #pinging = new Set<RedisClient>();
  readonly #timer: NodeJS.Timeout;
  #closed = false;
  /** Called when Redis answers again after a stall. */
  onBack: () => void = () => {};

  private constructor(
    /** Commands and scripts. */
    readonly cmd: RedisClient,
    /** Subscriptions (a subscribed connection takes no other command, but PING). */
    readonly sub: RedisClient,
    prefix: string,
  ) {
    this.#prefix = prefix;
    this.#timer = setInterval(() => {
      for (const client of [cmd, sub]) this.#check(client);
    }, PING_EVERY_MS).unref();
  }

  #check(client: RedisClient): void {
    // A connection not ready is being made again by node-redis (its socket timeout bounds that).
    if (client.isReady && !this.#closed) void this.#ping(client);
  }

  /**
   * A PING with a deadline. Unanswered, the connection is dropped (every command waiting on it
   * fails at once, and the relay serves from what it holds, as with Redis away) and made again
   * (node-redis subscribes a subscription connection again before it is ready); the link counts as
   * away until each connection answers a PING.
   */
  async #ping(client: RedisClient): Promise<void> {
    if (this.#pinging.has(client)) return;
    this.#pinging.add(client);
    try {
      const answered = (await withTimeLimit(client.ping(), PING_DEADLINE_MS)) !== 'late';
      if (this.#closed) return;
      if (!answered) {
        this.#stalled.add(client);
        client.destroy();
        client.connect().catch(() => {}); // retried by its reconnect strategy; failures go to 'error'
      } else if (this.#stalled.delete(client) && this.#stalled.size === 0) {
        this.onBack();
      }
    } catch {
      // closed or reconnecting meanwhile: the next PING tells
    } finally {
      this.#pinging.delete(client);
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
    return this.#stalled.size === 0 && this.cmd.isReady && this.sub.isReady;
  }

  run(script: string, keys: string[], args: (string | number)[]): Promise<unknown> {
    return this.cmd.eval(script, { keys, arguments: args.map(String) });
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    await Promise.all(
      [this.cmd, this.sub].map(async (client) => {
        // A connection not ready, or whose Redis does not answer, is dropped: closing it waits for
        // every reply.
        if (client.isReady) await withTimeLimit(client.close(), PING_DEADLINE_MS).catch(() => {});
        client.destroy(); // idempotent; ends what a late close left open
      }),
    );
  }
}
