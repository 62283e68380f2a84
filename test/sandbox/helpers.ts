// Shared helpers of the sandbox tests: a started sandbox, requests over real HTTP, an SSE reader.
import { afterAll, beforeAll, vi } from 'vitest';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import {
  startSandbox,
  type Quote,
  type SandboxOptions,
  type SandboxStats,
  type StartedSandbox,
} from '../../sandbox/server';

export type { Quote, SandboxStats, StartedSandbox };

export interface PricesBody {
  data: { at: string; delay_seconds: number; quotes: Quote[] };
}
export interface SymbolsBody {
  data: { symbols: { symbol: string; title: string; category: string; unit: string }[] };
}
export interface HistoryBody {
  data: { symbol: string; days: number; points: { at: string; price: string }[] };
}
export interface ErrorBody {
  error: { code: string; message: string; symbols?: string[]; max_days?: number };
}

/** A sandbox on a free port; a frozen market with no timer unless the test says otherwise. */
export function start(options: SandboxOptions = {}): Promise<StartedSandbox> {
  return startSandbox({ port: 0, market: 'open', tickMs: 0, ...options });
}

/** One sandbox (see start) for the tests of this file: started before them, closed after; its url once started. */
export function useSandbox(options: SandboxOptions = {}): { readonly url: string } {
  let started: StartedSandbox | undefined;
  beforeAll(async () => {
    started = await start(options);
  });
  afterAll(() => started?.close());
  return {
    get url() {
      if (!started) throw new Error('the sandbox starts in beforeAll');
      return started.url;
    },
  };
}

export interface CallOptions {
  key?: string;
  origin?: string;
  headers?: Record<string, string>;
  method?: string;
  signal?: AbortSignal;
}

/** A request to the service; the key goes in X-API-Key. */
export function call(base: string, path: string, options: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers['X-API-Key'] = options.key;
  if (options.origin) headers.Origin = options.origin;
  return fetch(base + path, { method: options.method ?? 'GET', headers, signal: options.signal });
}

/** JSON of a successful GET (fails the test on another status). */
export async function getJson<T>(base: string, path: string, key = 'enterprise-key'): Promise<T> {
  const res = await call(base, path, { key });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A test control request. */
export async function control<T = Record<string, unknown>>(
  base: string,
  path: string,
  body?: unknown,
  method = 'POST',
): Promise<T> {
  const init: RequestInit = { method, headers: { 'Content-Type': 'application/json' } };
  if (body !== undefined) init.body = JSON.stringify(body);
  const res = await fetch(`${base}/__sandbox/${path}`, init);
  if (res.status !== 200) throw new Error(`control ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Polls until `check` returns a value other than undefined/false. */
export function until<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 5000,
): Promise<T> {
  return vi.waitUntil(check, { timeout: timeoutMs, interval: 10 }) as Promise<T>;
}

/**
 * What one SSE connection got, read with eventsource-parser: every event, comment and `retry:`,
 * and the raw text, in order. The sandbox's fetch reader and the relay tests' node:http reader
 * both record through it.
 */
export class SseRecord {
  readonly events: EventSourceMessage[] = [];
  readonly comments: string[] = [];
  retry: number | undefined;
  /** The raw text received, in order. */
  text = '';
  ended = false;
  readonly #parser = createParser({
    onEvent: (e) => this.events.push(e),
    onRetry: (ms) => (this.retry = ms),
    onComment: (c) => this.comments.push(c),
  });
  readonly #timeoutMs: number;

  /** `timeoutMs`: how long {@link event} waits by default. */
  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /** Records a chunk of the stream's text. */
  protected take(chunk: string): void {
    this.text += chunk;
    this.#parser.feed(chunk);
  }

  /** The first event at or after index `from` that satisfies `match`. */
  async event(
    match: (e: EventSourceMessage) => boolean = () => true,
    from = 0,
    timeoutMs = this.#timeoutMs,
  ): Promise<EventSourceMessage> {
    return until(() => this.events.slice(from).find(match), timeoutMs);
  }
}

/** An SSE connection read with fetch, recording everything it gets. */
export class SseClient extends SseRecord {
  error: unknown;

  private constructor(
    readonly response: Response,
    private readonly controller: AbortController,
  ) {
    super(3000);
    void this.pump();
  }

  static async open(
    base: string,
    symbols: string,
    options: CallOptions & { lastEventId?: string } = {},
  ): Promise<SseClient> {
    const controller = new AbortController();
    const headers: Record<string, string> = { Accept: 'text/event-stream', ...options.headers };
    if (options.lastEventId !== undefined) headers['Last-Event-ID'] = options.lastEventId;
    const res = await call(base, `/v1/stream?symbols=${symbols}`, {
      key: 'enterprise-key',
      ...options,
      headers,
      signal: controller.signal,
    });
    return new SseClient(res, controller);
  }

  close(): void {
    this.controller.abort();
  }

  private async pump(): Promise<void> {
    if (!this.response.body) return;
    const reader = this.response.body.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        this.take(decoder.decode(value, { stream: true }));
      }
    } catch (error) {
      this.error = error;
    }
    this.ended = true;
  }
}

/** The spec's currency list (SERVICE-SPEC 2.3), verbatim. */
export const SPEC_CURRENCIES =
  'usd, eur, aed, gbp, try, cny, iqd, afn, cad, aud, chf, jpy, rub, sar, kwd, qar, omr, bhd, inr, pkr, amd, azn, gel, tjs, tmt, uzs, kzt, kgs, sek, nok, dkk, hkd, sgd, myr, thb, krw, nzd, syp, jod, lbp, egp, all, mga, cve, mro, pab, etb, bdt, gmd, vnd, mad, bbd, bsd, bzd, twd, ttd, jmd, kyd, fjd, lrd, nad, xcd, gyd, std, dzd, tnd, rsd, lyd, mkd, brl, zar, byn, mvr, idr, lkr, scr, mur, npr, yer, khr, pln, ghs, pen, ugx, tzs, sos, kes, xof, xaf, xpf, bif, djf, rwf, cdf, kmf, gnf, awg, huf, ron, mdl, sll, hnl, bgn, lsl, szl, bam, mzn, ngn, btn, vuv, mop, ars, uyu, dop, clp, php, mxn, cop, cup, bwp, shp, sdg, gtq, isk, czk, zmw, mwk, nio, svc, crc, mmk, pgk, lak, uah, pyg, htg, ang'.split(
    ', ',
  );

/** The spec's other symbols with their category and unit. */
export const SPEC_OTHERS: [symbol: string, category: string, unit: string][] = [
  ['gold_18', 'gold', 'gram'],
  ['gold_24', 'gold', 'gram'],
  ['broken_gold_18', 'gold', 'gram'],
  ['broken_gold_21', 'gold', 'gram'],
  ['gold_melted', 'gold', 'mesghal'],
  ['coin_emami', 'coin', 'count'],
  ['coin_bahar', 'coin', 'count'],
  ['coin_half', 'coin', 'count'],
  ['coin_quarter', 'coin', 'count'],
  ['coin_gerami', 'coin', 'count'],
  ['silver_999', 'silver', 'gram'],
  ['silver_925', 'silver', 'gram'],
  ['broken_silver_925', 'silver', 'gram'],
  ['ons', 'global', 'usd_ounce'],
  ['silver_ounce', 'global', 'usd_ounce'],
];

/** `a` as an exact decimal scaled to `scale` places (BigInt), for exactness checks. */
export function scaled(a: string, scale: number): bigint {
  const [int = '', frac = ''] = a.split('.');
  return BigInt(int + frac.padEnd(scale, '0'));
}
