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

export class RedisLink {
  readonly #prefix: string;

  private constructor(
    /** Commands and scripts. */
    readonly cmd: RedisClient,
    /** Subscriptions (a subscribed connection takes no other command). */
    readonly sub: RedisClient,
    prefix: string,
  ) {
    this.#prefix = prefix;
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
    return this.cmd.isReady && this.sub.isReady;
  }

  run(script: string, keys: string[], args: (string | number)[]): Promise<unknown> {
    return this.cmd.eval(script, { keys, arguments: args.map(String) });
  }

  async close(): Promise<void> {
    await Promise.all([this.cmd.close(), this.sub.close()].map((p) => p.catch(() => {})));
  }
}
