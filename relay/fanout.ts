/**
 * Downstream streams: every event from the Broker is written to the clients subscribed to its
 * symbol, in passes over the clients, a slice at a time with upstream read in between: each client
 * gets all the events it lacks in one write, so events that arrive during a pass cost no extra
 * write to the clients not yet reached, and no client waits more than about one pass.
 * Frames are the sandbox's (`sseFrame`) and one shared heartbeat timer serves every client.
 * Backpressure: once a client has `softBufferBytes` unsent, its further changes are conflated
 * (the latest frame per symbol, so at most one per subscribed symbol is held) until the socket
 * drains; a client still not draining after `stallMs`, or past `maxBufferedBytes`, is
 * disconnected. A burst is thus absorbed, and a client that never reads costs bounded memory.
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { openEventStream, sseFrame, SSE_PING } from './http';
import type { Quote } from './from-src';
import type { Broker, RelayEvent } from './engine/types';
import type { Logger } from './log';
import type { Metrics } from './metrics';

export interface FanOutOptions {
  broker: Broker;
  metrics: Metrics;
  log: Logger;
  heartbeatMs?: number;
  retryMs?: number;
  softBufferBytes?: number;
  maxBufferedBytes?: number;
  stallMs?: number;
  now?: () => number;
}

interface Client {
  res: ServerResponse;
  /**
   * Where its events go once the stream has started. The response is close-delimited (no chunked
   * framing), so its bytes are the socket's: writing there skips http's per-write work (a cork
   * and a tick per write; about 10 % of a change's CPU at 5,000 clients, measured) and the bytes
   * leave within the fan-out loop, so its lag metric counts them.
   */
  socket?: Socket;
  symbols: ReadonlySet<string>;
  /** Its symbols sorted, as a key: clients of the same symbols get the same bytes. */
  symbolsKey: string;
  release: () => void;
  /** Before its first events: changes held, latest per symbol. */
  holding?: Map<string, { id: number; frame: Chunk }>;
  /** The id of the last event written (resume and held changes are sent only when newer). */
  lastId: number;
  /** The heartbeat half-period of its last write. */
  wroteIn: number;
  /** While the socket is backed up: the latest unsent frame per symbol, and since when. */
  pending?: Map<string, Chunk>;
  stalledSince?: number;
}

/** Clients brought up to date between two reads of upstream (about 15 ms of writes here). */
const PASS_SLICE = 1_000;

/** Frames are encoded once per event and the same bytes written to every client. */
type Chunk = string | Buffer;
const PING = Buffer.from(SSE_PING);

/** What a stream starts with. */
export type FirstEvents = { snapshot: { id: number; at: string; quotes: Quote[] } } | { missed: RelayEvent[] };

export class FanOut {
  readonly #bySymbol = new Map<string, Set<Client>>();
  readonly #clients = new Set<Client>();
  readonly #heartbeat: NodeJS.Timeout;
  /** Heartbeat half-periods since start. */
  #period = 0;
  readonly #unsubscribe: () => void;
  /** Events not yet written to every client, in id order, each with its frame. */
  #recent: { event: RelayEvent; frame: Buffer }[] = [];
  /** The pass under way: the clients it visits, the next one, the newest event id when it began. */
  #pass: { clients: Client[]; next: number; upTo: number; timer: NodeJS.Immediate } | undefined;
  /** The bytes of the events a client lacks, by its place in `recent` and its symbols (valid until `recent` changes). */
  readonly #shares = new Map<string, { chunk: Buffer; count: number }>();
  /** Observes the events once written to every client (the bench times the fan-out with it). */
  onDelivered?: (events: readonly RelayEvent[]) => void;
  readonly #softBuffer: number;
  readonly #maxBuffered: number;
  readonly #stallMs: number;
  readonly #now: () => number;

  readonly #options: FanOutOptions;

  constructor(options: FanOutOptions) {
    this.#options = options;
    this.#softBuffer = options.softBufferBytes ?? 16 * 1024;
    this.#maxBuffered = options.maxBufferedBytes ?? 256 * 1024;
    this.#stallMs = options.stallMs ?? 30_000;
    this.#now = options.now ?? Date.now;
    this.#unsubscribe = options.broker.subscribe((events) => this.#deliver(events));
    this.#heartbeat = setInterval(() => this.#ping(), (options.heartbeatMs ?? 15_000) / 2);
    this.#heartbeat.unref();
    options.metrics.gauge('relay_stream_clients', 'Open downstream streams.', () => this.#clients.size);
  }

  get size(): number {
    return this.#clients.size;
  }

  /**
   * Registers a stream and returns the function that starts it with its first events: the missed
   * ones (resume) or a `quotes` snapshot. Registering first means no change can fall between the
   * snapshot and the stream: changes meanwhile are held (latest per symbol) and sent after the
   * first events when newer. `release` runs once when the client goes.
   */
  open(res: ServerResponse, symbols: readonly string[], release: () => void): (first: FirstEvents) => void {
    // HEAD: the stream's headers and nothing else (its events bypass `res`, which would drop a
    // HEAD body): not a client, and the connection stays open for the next request.
    if (res.req.method === 'HEAD') {
      res.once('close', release);
      return () => {
        openEventStream(res, this.#options.retryMs ?? 3_000);
        res.end();
      };
    }
    const client: Client = {
      res,
      symbols: new Set(symbols),
      symbolsKey: [...new Set(symbols)].sort().join(','),
      release,
      holding: new Map(),
      lastId: -1,
      wroteIn: this.#period,
    };
    this.#clients.add(client);
    for (const s of client.symbols) {
      let set = this.#bySymbol.get(s);
      if (!set) this.#bySymbol.set(s, (set = new Set()));
      set.add(client);
    }
    res.on('close', () => this.#forget(client));
    return (first) => {
      if (!this.#clients.has(client)) return;
      openEventStream(res, this.#options.retryMs ?? 3_000, true);
      // Headers and `retry:` went through `res`; from here on the socket carries the bytes, once
      // `res` holds none of its own. (Those bytes are already the socket's: http corks it until
      // the next tick, so `res.writableLength` is not 0 here, and later socket writes queue behind them.)
      const socket = res.socket;
      if (socket?.writable && res.writableLength === socket.writableLength) client.socket = socket;
      const held = client.holding!;
      client.holding = undefined;
      if ('snapshot' in first) {
        const { id, at, quotes } = first.snapshot;
        this.#write(client, sseFrame('quotes', id, JSON.stringify({ at, quotes })), undefined, id);
      } else {
        for (const e of first.missed)
          this.#write(client, sseFrame('quote', e.id, JSON.stringify(e.quote)), e.quote.symbol, e.id);
      }
      for (const [symbol, e] of held) if (e.id > client.lastId) this.#write(client, e.frame, symbol, e.id);
    };
  }

  /** Shutdown: every client is told to come back soon (elsewhere) and closed. */
  closeAll(retryMs = 1_000): void {
    clearInterval(this.#heartbeat);
    if (this.#pass) clearImmediate(this.#pass.timer);
    this.#unsubscribe();
    for (const client of [...this.#clients]) {
      client.res.end(`retry: ${retryMs}\n\n`);
      this.#forget(client);
    }
  }

  /**
   * Appends the events to those not yet written to every client, and starts a pass over the
   * clients unless one is under way: that one brings them to the clients it has not reached yet.
   */
  #deliver(events: readonly RelayEvent[]): void {
    // Encoded once: 10,000 writes of one Buffer, not 10,000 UTF-8 encodings of one string.
    for (const event of events)
      this.#recent.push({ event, frame: Buffer.from(sseFrame('quote', event.id, JSON.stringify(event.quote))) });
    this.#shares.clear();
    if (!this.#pass && this.#recent.length > 0) this.#startPass();
  }

  #startPass(): void {
    this.#pass = {
      clients: [...this.#clients],
      next: 0,
      upTo: this.#recent.at(-1)!.event.id,
      timer: setImmediate(() => this.#continuePass()),
    };
  }

  /**
   * Brings the next slice of the pass's clients up to date, one write each, then lets the loop read
   * upstream before the next slice: events that arrive meanwhile reach the rest of this pass's
   * clients in the same write as the others, and the clients already passed in the next pass.
   */
  #continuePass(): void {
    const pass = this.#pass!;
    const end = Math.min(pass.clients.length, pass.next + PASS_SLICE);
    let writes = 0;
    for (; pass.next < end; pass.next++) writes += this.#catchUp(pass.clients[pass.next]!);
    this.#options.metrics.inc('relay_events_fanned_out_total', 'Event writes to downstream streams.', {}, writes);
    if (pass.next < pass.clients.length) {
      pass.timer = setImmediate(() => this.#continuePass());
      return;
    }
    // Every client has the events up to where the pass began; later ones need another pass.
    const done = this.#recent.filter((r) => r.event.id <= pass.upTo).map((r) => r.event);
    this.#recent = this.#recent.filter((r) => r.event.id > pass.upTo);
    this.#shares.clear();
    this.#pass = undefined;
    const now = this.#now();
    for (const e of done) this.#options.metrics.observeLag((now - e.receivedAt) / 1000);
    this.onDelivered?.(done);
    if (this.#recent.length > 0) this.#startPass();
  }

  /**
   * Writes to `client` the events it lacks (after its last id, of its symbols) in one write: the
   * bytes are made once per pass state and set of symbols, and shared. Returns the events written.
   */
  #catchUp(client: Client): number {
    if (!this.#clients.has(client)) return 0;
    const recent = this.#recent;
    let first = recent.length;
    // A resumed client may already have some: the buffer it resumed from can be ahead of the
    // broker (in a cluster the leader stores an event before its publish arrives here).
    while (first > 0 && recent[first - 1]!.event.id > client.lastId) first--;
    if (first === recent.length) return 0;
    if (client.holding || client.pending) {
      // Kept per symbol until the stream starts or drains.
      let n = 0;
      for (const { event, frame } of recent.slice(first)) {
        if (client.symbols.has(event.quote.symbol)) {
          this.#write(client, frame, event.quote.symbol, event.id);
          n += 1;
        }
      }
      return n;
    }
    const key = `${first}|${client.symbolsKey}`;
    let share = this.#shares.get(key);
    if (!share) {
      const mine = recent.slice(first).filter((r) => client.symbols.has(r.event.quote.symbol));
      share = {
        chunk: mine.length === 1 ? mine[0]!.frame : Buffer.concat(mine.map((r) => r.frame)),
        count: mine.length,
      };
      this.#shares.set(key, share);
    }
    const newest = recent.at(-1)!.event.id;
    if (share.count === 0) client.lastId = newest;
    else this.#write(client, share.chunk, undefined, newest);
    return share.count;
  }

  /**
   * Every half heartbeat, a ping to each client that got nothing in this half and the last: no
   * stream is silent longer than a heartbeat, and while the market moves (any bytes keep a stream
   * alive) the relay spends no burst of 10,000 writes on pings that would delay a change.
   */
  #ping(): void {
    this.#period += 1;
    for (const client of this.#clients) if (this.#period - client.wroteIn >= 2) this.#write(client, PING);
  }

  /**
   * Writes now, or keeps the latest frame of `symbol` until the stream starts or (backed up)
   * drains; heartbeats are skipped meanwhile.
   */
  #write(client: Client, chunk: Chunk, symbol?: string, id?: number): void {
    if (!this.#clients.has(client)) return;
    if (client.holding) {
      if (symbol !== undefined && id !== undefined) client.holding.set(symbol, { id, frame: chunk });
      return;
    }
    if (id !== undefined) client.lastId = Math.max(client.lastId, id);
    if (client.pending) {
      if (this.#now() - client.stalledSince! > this.#stallMs) return this.#drop(client);
      if (symbol !== undefined) {
        client.pending.delete(symbol);
        client.pending.set(symbol, chunk);
      }
      return;
    }
    const out = client.socket ?? client.res;
    out.write(chunk);
    client.wroteIn = this.#period;
    const buffered = out.writableLength;
    if (buffered > this.#maxBuffered) return this.#drop(client);
    if (buffered > this.#softBuffer) {
      client.pending = new Map();
      client.stalledSince = this.#now();
      out.once('drain', () => this.#flush(client));
    }
  }

  #flush(client: Client): void {
    const frames = client.pending;
    client.pending = undefined;
    client.stalledSince = undefined;
    if (frames && frames.size > 0)
      this.#write(client, Buffer.concat([...frames.values()].map((f) => (typeof f === 'string' ? Buffer.from(f) : f))));
  }

  #drop(client: Client): void {
    this.#options.metrics.inc('relay_slow_clients_dropped_total', 'Streams closed because the client did not read.');
    this.#options.log('slow_client_dropped', { buffered: (client.socket ?? client.res).writableLength });
    this.#forget(client);
    client.res.destroy();
  }

  #forget(client: Client): void {
    if (!this.#clients.delete(client)) return;
    for (const s of client.symbols) {
      const set = this.#bySymbol.get(s);
      set?.delete(client);
      if (set?.size === 0) this.#bySymbol.delete(s);
    }
    client.release();
  }
}
