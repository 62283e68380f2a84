/**
 * Downstream streams: every event from the Broker is written to the clients subscribed to its
 * symbol, in rounds: the events that arrived since the last round go out together, one write per
 * client. Frames are the sandbox's (`sseFrame`) and one shared heartbeat timer serves every client.
 * Backpressure: once a client has `softBufferBytes` unsent, its further changes are conflated
 * (the latest frame per symbol, so at most one per subscribed symbol is held) until the socket
 * drains; a client still not draining after `stallMs`, or past `maxBufferedBytes`, is
 * disconnected. A burst is thus absorbed, and a client that never reads costs bounded memory.
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { openEventStream, sseFrame, SSE_PING } from '../sandbox/http';
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

/** Frames are encoded once per event and the same bytes written to every client. */
type Chunk = string | Buffer;
const PING = Buffer.from(SSE_PING);

/** What a stream starts with. */
export type FirstEvents = { snapshot: { id: number; at: string; quotes: Quote[] } } | { missed: RelayEvent[] };

export class FanOut {
  private readonly bySymbol = new Map<string, Set<Client>>();
  private readonly clients = new Set<Client>();
  private readonly heartbeat: NodeJS.Timeout;
  /** Heartbeat half-periods since start. */
  private period = 0;
  private readonly unsubscribe: () => void;
  /** Events of the next round, and the round's immediate. */
  private queued: RelayEvent[] = [];
  private round: NodeJS.Immediate | undefined;
  private readonly softBuffer: number;
  private readonly maxBuffered: number;
  private readonly stallMs: number;
  private readonly now: () => number;

  constructor(private readonly options: FanOutOptions) {
    this.softBuffer = options.softBufferBytes ?? 16 * 1024;
    this.maxBuffered = options.maxBufferedBytes ?? 256 * 1024;
    this.stallMs = options.stallMs ?? 30_000;
    this.now = options.now ?? Date.now;
    this.unsubscribe = options.broker.subscribe((events) => this.deliver(events));
    this.heartbeat = setInterval(() => this.ping(), (options.heartbeatMs ?? 15_000) / 2);
    this.heartbeat.unref();
    options.metrics.gauge('relay_stream_clients', 'Open downstream streams.', () => this.clients.size);
  }

  get size(): number {
    return this.clients.size;
  }

  /**
   * Registers a stream and returns the function that starts it with its first events: the missed
   * ones (resume) or a `quotes` snapshot. Registering first means no change can fall between the
   * snapshot and the stream: changes meanwhile are held (latest per symbol) and sent after the
   * first events when newer. `release` runs once when the client goes.
   */
  open(res: ServerResponse, symbols: readonly string[], release: () => void): (first: FirstEvents) => void {
    const client: Client = { res, symbols: new Set(symbols), release, holding: new Map(), lastId: -1, wroteIn: this.period };
    this.clients.add(client);
    for (const s of client.symbols) {
      let set = this.bySymbol.get(s);
      if (!set) this.bySymbol.set(s, (set = new Set()));
      set.add(client);
    }
    res.on('close', () => this.forget(client));
    return (first) => {
      if (!this.clients.has(client)) return;
      openEventStream(res, this.options.retryMs ?? 3_000, true);
      // Headers and `retry:` went through `res`; from here on the socket carries the bytes, once
      // `res` holds none of its own. (Those bytes are already the socket's: http corks it until
      // the next tick, so `res.writableLength` is not 0 here, and later socket writes queue behind them.)
      const socket = res.socket;
      if (socket?.writable && res.writableLength === socket.writableLength) client.socket = socket;
      const held = client.holding!;
      client.holding = undefined;
      if ('snapshot' in first) {
        const { id, at, quotes } = first.snapshot;
        this.write(client, sseFrame('quotes', id, JSON.stringify({ at, quotes })), undefined, id);
      } else {
        for (const e of first.missed) this.write(client, sseFrame('quote', e.id, JSON.stringify(e.quote)), e.quote.symbol, e.id);
      }
      for (const [symbol, e] of held) if (e.id > client.lastId) this.write(client, e.frame, symbol, e.id);
    };
  }

  /** Shutdown: every client is told to come back soon (elsewhere) and closed. */
  closeAll(retryMs = 1_000): void {
    clearInterval(this.heartbeat);
    if (this.round) clearImmediate(this.round);
    this.unsubscribe();
    for (const client of [...this.clients]) {
      client.res.end(`retry: ${retryMs}\n\n`);
      this.forget(client);
    }
  }

  /**
   * Queues the events for this loop iteration's round: events that arrive while a round is being
   * written (the loop is blocked, so they wait in the upstream socket and are read together) go
   * out in one round, one write per client, instead of one round each.
   */
  private deliver(events: readonly RelayEvent[]): void {
    for (const e of events) this.queued.push(e);
    this.round ??= setImmediate(() => this.writeRound());
  }

  private writeRound(): void {
    const events = this.queued;
    this.queued = [];
    this.round = undefined;
    // At most 31 events per pass: a client's share of a pass is a bit mask.
    for (let i = 0; i < events.length; i += 31) this.writeEvents(events.slice(i, i + 31));
    const now = this.now();
    for (const e of events) this.options.metrics.observeLag((now - e.receivedAt) / 1000);
  }

  private writeEvents(events: readonly RelayEvent[]): void {
    // Encoded once: 10,000 writes of one Buffer, not 10,000 UTF-8 encodings of one string.
    const frames = events.map((e) => Buffer.from(sseFrame('quote', e.id, JSON.stringify(e.quote))));
    const receivers = new Set<Client>();
    for (const e of events) {
      const set = this.bySymbol.get(e.quote.symbol);
      if (!set) continue;
      this.options.metrics.inc('relay_events_fanned_out_total', 'Event writes to downstream streams.', {}, set.size);
      if (events.length > 1) for (const client of set) receivers.add(client);
      // One event: its frame to each of its symbol's clients.
      // A resumed client may already have it: the buffer it resumed from can be ahead of the
      // broker (in a cluster the leader stores an event before its publish arrives here).
      else for (const client of set) if (e.id > client.lastId) this.write(client, frames[0]!, e.quote.symbol, e.id);
    }
    if (events.length === 1) return;
    // Several: each client's events in one write, the bytes made once per distinct share (the
    // clients of the same symbols get the same Buffer).
    const shares = new Map<number, Buffer>();
    for (const client of receivers) {
      let share = 0;
      let lastId = -1;
      for (const [j, e] of events.entries()) {
        if (e.id > client.lastId && client.symbols.has(e.quote.symbol)) {
          share |= 1 << j;
          lastId = e.id;
        }
      }
      if (share === 0) continue;
      if (client.holding || client.pending) {
        // Kept per symbol until the stream starts or drains.
        for (const [j, e] of events.entries()) if (share & (1 << j)) this.write(client, frames[j]!, e.quote.symbol, e.id);
        continue;
      }
      let chunk = shares.get(share);
      if (!chunk) shares.set(share, (chunk = Buffer.concat(frames.filter((_, j) => share & (1 << j)))));
      this.write(client, chunk, undefined, lastId);
    }
  }

  /**
   * Every half heartbeat, a ping to each client that got nothing in this half and the last: no
   * stream is silent longer than a heartbeat, and while the market moves (any bytes keep a stream
   * alive) the relay spends no burst of 10,000 writes on pings that would delay a change.
   */
  private ping(): void {
    this.period += 1;
    for (const client of this.clients) if (this.period - client.wroteIn >= 2) this.write(client, PING);
  }

  /**
   * Writes now, or keeps the latest frame of `symbol` until the stream starts or (backed up)
   * drains; heartbeats are skipped meanwhile.
   */
  private write(client: Client, chunk: Chunk, symbol?: string, id?: number): void {
    if (!this.clients.has(client)) return;
    if (client.holding) {
      if (symbol !== undefined && id !== undefined) client.holding.set(symbol, { id, frame: chunk });
      return;
    }
    if (id !== undefined) client.lastId = Math.max(client.lastId, id);
    if (client.pending) {
      if (this.now() - client.stalledSince! > this.stallMs) return this.drop(client);
      if (symbol !== undefined) {
        client.pending.delete(symbol);
        client.pending.set(symbol, chunk);
      }
      return;
    }
    const out = client.socket ?? client.res;
    out.write(chunk);
    client.wroteIn = this.period;
    const buffered = out.writableLength;
    if (buffered > this.maxBuffered) return this.drop(client);
    if (buffered > this.softBuffer) {
      client.pending = new Map();
      client.stalledSince = this.now();
      out.once('drain', () => this.flush(client));
    }
  }

  private flush(client: Client): void {
    const frames = client.pending;
    client.pending = undefined;
    client.stalledSince = undefined;
    if (frames && frames.size > 0) this.write(client, Buffer.concat([...frames.values()].map((f) => (typeof f === 'string' ? Buffer.from(f) : f))));
  }

  private drop(client: Client): void {
    this.options.metrics.inc('relay_slow_clients_dropped_total', 'Streams closed because the client did not read.');
    this.options.log('slow_client_dropped', { buffered: (client.socket ?? client.res).writableLength });
    this.forget(client);
    client.res.destroy();
  }

  private forget(client: Client): void {
    if (!this.clients.delete(client)) return;
    for (const s of client.symbols) {
      const set = this.bySymbol.get(s);
      set?.delete(client);
      if (set?.size === 0) this.bySymbol.delete(s);
    }
    client.release();
  }
}
