// Helpers of the <price-board> tests: the sandbox's test controls and lookups in the shadow DOM.
import { fixtureCleanup } from '@open-wc/testing-helpers/pure';
import { afterEach, beforeEach, inject, vi } from 'vitest';
import { commands } from 'vitest/browser';
import type { FaultRule } from '../../../sandbox/faults';
import type { PriceSetting } from '../../../sandbox/market';
import type { RequestEntry, SandboxStats } from '../../../sandbox/stats';
import type { PriceBoard } from '../../../src/price-board';

export const base = (): string => inject('sandboxUrl');
/** A relay in front of a sandbox of its own, whose market moves only when told (`global-setup.ts`). */
export const relay = {
  url: (): string => inject('relayUrl'),
  /** Sets prices in the relay's upstream (`PriceSetting`s, as `sandbox.market`'s `set`). */
  async set(set: PriceSetting[]): Promise<void> {
    const url = `${inject('relayUpstreamUrl')}/__sandbox/market`;
    const { status, text } = await commands.sandboxControl(url, 'POST', JSON.stringify({ set }));
    if (status !== 200) throw new Error(`relay upstream market: HTTP ${status} ${text}`);
  },
  /** The /v1 requests the relay made upstream. */
  async upstreamRequests(pathPrefix = '/v1/'): Promise<RequestEntry[]> {
    const { text } = await commands.sandboxControl(`${inject('relayUpstreamUrl')}/__sandbox/stats`, 'GET');
    return (JSON.parse(text) as SandboxStats).requests.filter((r) => r.path.startsWith(pathPrefix));
  },
};

declare module 'vitest/browser' {
  interface BrowserCommands {
    /** `vitest.config.ts`: calls a sandbox control from Node (it refuses cross-origin pages). */
    sandboxControl(url: string, method: string, body?: string): Promise<{ status: number; text: string }>;
  }
}

/** Calls one of the sandbox's test controls (`/__sandbox/...`) from Node; the parsed JSON answer, if any. */
export async function control(path: string, method: string, body?: unknown): Promise<unknown> {
  const json = body === undefined ? undefined : JSON.stringify(body);
  const { status, text } = await commands.sandboxControl(`${base()}/__sandbox/${path}`, method, json);
  if (status < 200 || status > 299) throw new Error(`sandbox ${method} ${path}: HTTP ${status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

export const sandbox = {
  reset: () => control('reset', 'POST'),
  faults: (rules: FaultRule[]) => control('faults', 'POST', { rules }),
  clearFaults: () => control('faults', 'DELETE'),
  /** Pushes an event (or raw bytes) to every open stream. */
  push: (body: { event?: string; data?: unknown; raw?: string; id?: string; times?: number }) =>
    control('push', 'POST', body),
  market: (body: { open?: boolean; tick?: true; set?: PriceSetting[] }) => control('market', 'POST', body),
  /** Sets the price of each symbol (`{ usd: '1000000' }`). */
  prices: (prices: Record<string, string>) =>
    control('market', 'POST', { set: Object.entries(prices).map(([symbol, price]) => ({ symbol, price })) }),
  stats: async () => (await control('stats', 'GET')) as SandboxStats,
  /** The /v1 requests made with `key`, optionally under a path prefix. */
  async requests(key: string, pathPrefix = '/v1/'): Promise<RequestEntry[]> {
    const { requests } = await this.stats();
    return requests.filter((r) => r.key === key && r.path.startsWith(pathPrefix));
  },
};

export const shadow = (el: PriceBoard): ShadowRoot => el.shadowRoot!;
export const part = (el: PriceBoard, name: string): HTMLElement | null =>
  shadow(el).querySelector<HTMLElement>(`[part~="${name}"]`);
export const rows = (el: PriceBoard): HTMLElement[] => [...shadow(el).querySelectorAll<HTMLElement>('[part~="row"]')];
export const row = (el: PriceBoard, symbol: string): HTMLElement | null =>
  shadow(el).querySelector<HTMLElement>(`[part~="row"][data-symbol="${symbol}"]`);
export const cell = (el: PriceBoard, symbol: string, name: string): string =>
  row(el, symbol)?.querySelector(`[part~="${name}"]`)?.textContent?.trim() ?? '';
export const symbolsShown = (el: PriceBoard): string[] => rows(el).map((r) => r.dataset.symbol ?? '');

/**
 * Polls `predicate` (sync or async) until it holds, failing with `message` after `timeout` ms.
 * (@open-wc/testing-helpers' `waitUntil` takes no async predicate.)
 */
export async function until(
  predicate: () => boolean | Promise<boolean>,
  message: string,
  timeout = 8000,
): Promise<void> {
  try {
    await vi.waitUntil(predicate, { timeout, interval: 30 });
  } catch (error) {
    throw new Error(`Timed out after ${timeout} ms: ${message}`, { cause: error });
  }
}

/** Waits until every row shows a price or is marked missing (the first answer arrived). */
export function untilLoaded(el: PriceBoard, timeout = 8000): Promise<void> {
  return until(
    () =>
      rows(el).length > 0 &&
      // Prices first, then the times (their formatters are built after the first rows are painted).
      rows(el).every(
        (r) =>
          r.hasAttribute('data-missing') ||
          ['price', 'time'].every((name) => /[۰-۹]/.test(r.querySelector(`[part~="${name}"]`)?.textContent ?? '')),
      ),
    'the board did not load',
    timeout,
  );
}

let listening = new AbortController();

/** Collects the events of `name` reaching `target` (e.g. `document`: they bubble and are composed). */
export function collect<T = unknown>(target: EventTarget, name: string): CustomEvent<T>[] {
  const seen: CustomEvent<T>[] = [];
  target.addEventListener(name, (e) => seen.push(e as CustomEvent<T>), { signal: listening.signal });
  return seen;
}

/** Removes every listener added by {@link collect} (call in `afterEach`). */
export function stopCollecting(): void {
  unwatch?.();
  listening.abort();
  listening = new AbortController();
}

/**
 * A fixed pause. Only where time itself is the subject (the chaos test paces its market and its
 * fault phases); a check that something did NOT happen waits for the event or state that would
 * precede it instead (see {@link watchFetch}, `flushSubscriptions`, `pendingWork`).
 */
export const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

let unwatch: (() => void) | undefined;

/**
 * Records the path and query of every `/v1/` request the page hands to `fetch` from now on, at the
 * moment it is sent (the data layer looks `fetch` up per call). Requests leave synchronously in the
 * update or flush that causes them, so right after `elementUpdated` and `flushSubscriptions()` a
 * request that was going to be made is already in the list; `onSent` is called with each as it
 * is sent, with the request's headers. Undone by {@link stopCollecting}.
 */
export function watchFetch(onSent?: (path: string, headers: Headers) => void): string[] {
  unwatch?.();
  const sent: string[] = [];
  const real = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname.startsWith('/v1/')) {
      sent.push(url.pathname + url.search);
      onSent?.(url.pathname + url.search, new Headers(input instanceof Request ? input.headers : init?.headers));
    }
    return real(input, init);
  };
  unwatch = () => {
    globalThis.fetch = real;
    unwatch = undefined;
  };
  return sent;
}

/** Calls `fn` as each `/v1/prices` request is sent (see {@link watchFetch}). */
export function onPricesRequest(fn: () => void): void {
  watchFetch((path) => {
    if (path.split('?')[0] === '/v1/prices') fn();
  });
}

/** Resolves after the next two animation frames: whatever was due for the next paint has happened. */
export const nextPaint = (): Promise<void> =>
  new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));

/** Counts animation frames from now until `stop()` (`count`: how many ran), calling `onFrame` in each. */
export function frameCounter(onFrame?: () => void): { readonly count: number; stop(): void } {
  let count = 0;
  let counting = true;
  const tick = () => {
    count++;
    onFrame?.();
    if (counting) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  return {
    get count() {
      return count;
    },
    stop: () => (counting = false),
  };
}

export const LATIN_DIGIT = /[0-9]/;

/** Boards made by `newBoard`, removed after each test (`useSandbox`). */
const made: HTMLElement[] = [];

/**
 * A `<price-board>` with `attributes`, not yet in the document (the test appends it when it is
 * ready to watch), removed after the test.
 */
export function newBoard(attributes: Record<string, string>): PriceBoard {
  const el = document.createElement('price-board');
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  made.push(el);
  return el;
}

/**
 * A `<price-board>` on the sandbox with the key `key` and `attributes` (`stream="sse"` unless
 * given), in the document, once `ready` holds (by default its rows are loaded) and its stream is
 * live; removed after the test.
 */
export async function liveBoard(
  key: string,
  attributes: Record<string, string>,
  ready: (el: PriceBoard) => Promise<void> = untilLoaded,
): Promise<PriceBoard> {
  const el = newBoard({ 'base-url': base(), 'api-key': key, stream: 'sse', ...attributes });
  document.body.append(el);
  await ready(el);
  await until(() => el.status === 'live', 'not live');
  return el;
}

/**
 * The hooks every board test file uses: a closed market (no price changes by itself, so every
 * price a test sees is one it set), and afterwards no fixture, board, listener or sandbox fault left.
 */
export function useSandbox(): void {
  beforeEach(() => sandbox.market({ open: false }));
  afterEach(async () => {
    fixtureCleanup();
    for (const el of made.splice(0)) el.remove();
    stopCollecting();
    await sandbox.reset();
  });
}
