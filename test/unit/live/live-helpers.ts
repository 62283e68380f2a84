/**
 * What the live tests share (one place): a sandbox of its own per test file with a fresh key per
 * test, and a hub listener that records what it hears.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { HubEvent, QuotesMeta } from '../../../src/live/hub';
import type { StreamEvent, StreamState } from '../../../src/live/stream';
import type { PriceBoardError } from '../../../src/shared/errors';
import type { ConnectionStatus, Quote } from '../../../src/shared/types';
import { startTestSandbox, type TestSandbox } from '../api/sandbox-control';

/**
 * Starts a sandbox for this file (quick heartbeats and `retry:` unless `options` say otherwise),
 * resets it before each test and hands `use` the sandbox and a key of that test's own
 * (`pro-key:<name><n>`).
 */
export function useLiveSandbox(
  name: string,
  use: (sb: TestSandbox, key: string) => void,
  options: { heartbeatMs?: number; retryMs?: number; reset?: boolean } = {},
): void {
  let sb: TestSandbox;
  let n = 0;
  beforeAll(async () => {
    sb = await startTestSandbox({ heartbeatMs: 200, retryMs: 50, ...options });
  });
  afterAll(() => sb.close());
  beforeEach(async () => {
    if (options.reset !== false) await sb.reset();
    use(sb, `pro-key:${name}${++n}`);
  });
}

/** A hub subscriber's listener (`listen`) and everything it heard. */
export class HubRecorder {
  batches: Quote[][] = [];
  metas: QuotesMeta[] = [];
  statuses: ConnectionStatus[] = [];
  /** Per status event, whether the quotes were still only a snapshot's (`held`). */
  held: boolean[] = [];
  errors: PriceBoardError[] = [];
  missings: string[][] = [];
  recoveries = 0;
  /** Errors and recoveries in the order they came. */
  log: string[] = [];

  readonly listen = (event: HubEvent): void => {
    switch (event.kind) {
      case 'quotes':
        this.batches.push(event.quotes);
        this.metas.push(event.meta);
        return;
      case 'status':
        this.statuses.push(event.status);
        this.held.push(event.held);
        return;
      case 'error':
        this.errors.push(event.error);
        this.log.push(`error:${event.error.code}`);
        return;
      case 'missing':
        this.missings.push(event.symbols);
        return;
      case 'recovered':
        this.recoveries++;
        this.log.push('recovered');
    }
  };

  /** Every quote heard, in order. */
  get quotes(): Quote[] {
    return this.batches.flat();
  }
  get symbols(): string[] {
    return this.quotes.map((q) => q.symbol);
  }
  get last(): ConnectionStatus | undefined {
    return this.statuses.at(-1);
  }
  price(symbol: string): string | undefined {
    return this.quotes.filter((q) => q.symbol === symbol).at(-1)?.price;
  }
}

/** What a test records of a stream's events, a list per kind. */
export interface StreamHeard {
  quotes: Quote[];
  states: StreamState[];
  errors: PriceBoardError[];
  stops: PriceBoardError[];
}

/** A stream's `onEvent` that files each event in `heard`, after handing it to `also` (a test's own records). */
export function hearStream(heard: StreamHeard, also?: (event: StreamEvent) => void): (event: StreamEvent) => void {
  return (event) => {
    also?.(event);
    if (event.kind === 'quotes') heard.quotes.push(...event.quotes);
    else if (event.kind === 'state') heard.states.push(event.state);
    else if (event.kind === 'failure') heard.errors.push(event.error);
    else if (event.kind === 'stopped') heard.stops.push(event.error);
  };
}
