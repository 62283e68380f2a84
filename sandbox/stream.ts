// The live stream (SSE): a snapshot (`quotes`) first, then one `quote` event per change of a
// subscribed symbol; `id:` on every event from one global sequence, a ring buffer of recent
// changes for `Last-Event-ID` resume, and comment heartbeats.
import type { ServerResponse } from 'node:http';
import { openEventStream, sseFrame, SSE_PING } from './http';
import type { Quote } from './types';

interface Connection {
  res: ServerResponse;
  key: string;
  symbols: string[];
  omit: Set<string>;
  events: number;
  dropAfter?: number;
  heartbeat: NodeJS.Timeout;
}

export interface StreamRequest {
  /** The `X-API-Key` as sent: streams are capped per key. */
  key: string;
  symbols: string[];
  lastEventId?: string;
  /** Symbols left out (fault `omit_symbol`). */
  omit: Set<string>;
  /** Destroy the connection after this many events (fault `drop_stream`). */
  dropAfter?: number;
  /** Raw bytes right after the snapshot (fault `poison_stream`). */
  poison?: string;
}

export interface StreamOptions {
  heartbeatMs: number;
  retryMs: number;
  bufferSize: number;
  now: () => number;
  quote: (symbol: string) => Quote | undefined;
}

/** Fault drop_stream: time between the last event's bytes and the cut. */
const DROP_DELAY_MS = 50;

export class StreamHub {
  /** Streams opened since start or reset. */
  opened = 0;
  #seq = 0;
  /** Ids below this were issued before a reset and cannot be resumed. */
  #floor = 0;
  #ring: { id: number; quote: Quote }[] = [];
  readonly #connections = new Set<Connection>();

  readonly #options: StreamOptions;

  constructor(options: StreamOptions) {
    this.#options = options;
  }

  get openCount(): number {
    return this.#connections.size;
  }

  /** Streams open with this key. */
  openFor(key: string): number {
    let n = 0;
    for (const conn of this.#connections) if (conn.key === key) n += 1;
    return n;
  }

  open(res: ServerResponse, request: StreamRequest): void {
    openEventStream(res, this.#options.retryMs);
    const heartbeat = setInterval(() => res.write(SSE_PING), this.#options.heartbeatMs);
    heartbeat.unref();
    const conn: Connection = {
      res,
      key: request.key,
      symbols: request.symbols,
      omit: request.omit,
      events: 0,
      heartbeat,
    };
    if (request.dropAfter !== undefined) conn.dropAfter = request.dropAfter;
    this.#connections.add(conn);
    this.opened += 1;
    res.on('close', () => this.#forget(conn));
    res.on('error', () => this.#forget(conn));
    const missed = this.#missedSince(request.lastEventId);
    if (!missed) this.#sendSnapshot(conn);
    else
      for (const e of missed) if (this.#wants(conn, e.quote)) this.#send(conn, 'quote', e.id, JSON.stringify(e.quote));
    if (request.poison !== undefined) res.write(request.poison);
  }

  /** A changed quote: buffered for resume and sent to the streams subscribed to it. */
  publish(quote: Quote): void {
    const id = ++this.#seq;
    this.#ring.push({ id, quote });
    if (this.#ring.length > this.#options.bufferSize) this.#ring.shift();
    const data = JSON.stringify(quote);
    for (const conn of this.#connections) if (this.#wants(conn, quote)) this.#send(conn, 'quote', id, data);
  }

  /**
   * A test event to every stream (not buffered): `data` is sent as is when a string, else as JSON;
   * `id` replaces the next sequence number (hostile ids: Persian digits, a megabyte).
   */
  push(event: string, data: unknown, id?: string): number {
    const eventId = id ?? String(++this.#seq);
    const text = typeof data === 'string' ? data : (JSON.stringify(data) ?? '');
    for (const conn of this.#connections) this.#send(conn, event, eventId, text);
    return this.#connections.size;
  }

  /** Raw bytes to every stream. */
  pushRaw(raw: string): number {
    for (const conn of this.#connections) conn.res.write(raw);
    return this.#connections.size;
  }

  /** After a market reset: older ids can no longer be resumed; open streams get a new snapshot. */
  reset(): void {
    this.#ring = [];
    this.#floor = ++this.#seq;
    this.opened = 0;
    for (const conn of this.#connections) this.#sendSnapshot(conn);
  }

  closeAll(): void {
    for (const conn of this.#connections) {
      this.#forget(conn);
      conn.res.end();
    }
  }

  /** The buffered changes after `lastEventId`, or undefined when they are not all known. */
  #missedSince(lastEventId: string | undefined): { id: number; quote: Quote }[] | undefined {
    if (lastEventId === undefined || !/^\d+$/.test(lastEventId)) return undefined;
    const last = Number(lastEventId);
    const oldest = this.#ring[0]?.id ?? this.#seq + 1;
    if (last < this.#floor || last > this.#seq || last < oldest - 1) return undefined;
    return this.#ring.filter((e) => e.id > last);
  }

  #wants(conn: Connection, quote: Quote): boolean {
    return conn.symbols.includes(quote.symbol) && !conn.omit.has(quote.symbol);
  }

  #sendSnapshot(conn: Connection): void {
    const quotes = conn.symbols.filter((s) => !conn.omit.has(s)).map((s) => this.#options.quote(s));
    const data = { at: new Date(this.#options.now()).toISOString(), quotes: quotes.filter((q) => q !== undefined) };
    this.#send(conn, 'quotes', this.#seq, JSON.stringify(data));
  }

  #send(conn: Connection, event: string, id: number | string, data: string): void {
    if (!this.#connections.has(conn)) return;
    const frame = sseFrame(event, id, data);
    conn.events += 1;
    if (conn.dropAfter === undefined || conn.events < conn.dropAfter) {
      conn.res.write(frame);
      return;
    }
    // Fault drop_stream: the event goes out, then the connection is cut without an end. Cut a
    // moment after the bytes left, with a FIN (half-close, no final chunk) rather than a reset: a
    // browser whose connection breaks right behind the data drops data it already received, and
    // the event would never arrive.
    this.#forget(conn);
    const socket = conn.res.socket;
    conn.res.write(frame, () => {
      const cut = setTimeout(() => {
        if (!socket) return void conn.res.destroy();
        socket.end();
        // The client closes its side on the FIN; if it does not, the socket goes anyway.
        setTimeout(() => socket.destroy(), 2_000).unref();
      }, DROP_DELAY_MS);
      cut.unref();
    });
  }

  #forget(conn: Connection): void {
    clearInterval(conn.heartbeat);
    this.#connections.delete(conn);
  }
}
