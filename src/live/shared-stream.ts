/**
 * The stream a driver opens: shared with the other tabs of its connection when the browser can
 * (`tabs.ts`), else its own ({@link LiveStream}). Either is a {@link Stream}: the driver never
 * knows which.
 */
import type { FetchLike } from '../api/request';
import { afterPaint } from '../shared/idle-task';
import { LiveStream, type ResumePoint, type Stream, type StreamOptions } from './stream';
import type { LockManagerLike, TabsEnv, TabsScope } from './tab-leadership';
import type { TabStream } from './tabs';

/** Where a stream may be shared, and with whom (a driver's settings). */
export interface SharingConfig extends TabsScope {
  /** A `fetch` of its own means a stream of its own. */
  fetch?: FetchLike;
  /**
   * Where the tabs meet to share one stream; default the browser's Web Locks and
   * BroadcastChannel; null: a stream of its own.
   */
  tabs?: TabsEnv | null;
}

/** The stream of `options`: shared with the other tabs of this connection when the browser can, else its own. */
export function openStream(options: StreamOptions, config: SharingConfig): Stream {
  const env = config.fetch ? undefined : config.tabs === undefined ? browserTabs() : (config.tabs ?? undefined);
  return env ? new SharedStream(options, env, config) : new LiveStream(options);
}

/** The browser's Web Locks and BroadcastChannel; undefined when either is missing. */
export function browserTabs(): TabsEnv | undefined {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks as LockManagerLike | undefined;
  const Channel = globalThis.BroadcastChannel;
  if (typeof locks?.request !== 'function' || typeof Channel !== 'function') return undefined;
  return { locks, channel: (name) => new Channel(name) };
}

/**
 * A stream shared with the other tabs (`tabs.ts`). That code is a chunk of its own, asked for once
 * the page has painted after the stream was started (the first rows, on a fast network), so that
 * its fetch, compile and connection do not compete with the first prices answer: the first rows
 * never need it. If it cannot load, the tab streams on its own.
 */
class SharedStream implements Stream {
  readonly #options: StreamOptions;
  readonly #env: TabsEnv;
  readonly #scope: TabsScope;
  #symbols: readonly string[];
  #inner: TabStream | LiveStream | undefined;
  #closed = false;
  #cancelWait: (() => void) | undefined;

  constructor(options: StreamOptions, env: TabsEnv, scope: TabsScope) {
    this.#options = options;
    this.#env = env;
    this.#scope = scope;
    this.#symbols = options.symbols;
  }

  get closed(): boolean {
    return this.#closed || (this.#inner?.closed ?? false);
  }

  get resumePoint(): ResumePoint | undefined {
    return this.#inner?.resumePoint;
  }

  start(): void {
    this.#cancelWait = afterPaint(() =>
      import('./tabs').then(
        ({ TabStream, tabsName }) =>
          this.#begin(
            new TabStream({ ...this.#options, symbols: this.#symbols, env: this.#env, name: tabsName(this.#scope) }),
          ),
        () => this.#begin(new LiveStream({ ...this.#options, symbols: this.#symbols })),
      ),
    );
  }

  setSymbols(symbols: readonly string[]): void {
    this.#symbols = symbols;
    this.#inner?.setSymbols(symbols);
  }

  reconnectNow(): void {
    this.#inner?.reconnectNow();
  }

  close(): void {
    this.#closed = true;
    this.#cancelWait?.();
    this.#inner?.close();
  }

  #begin(inner: TabStream | LiveStream): void {
    if (this.#closed) return;
    this.#inner = inner;
    inner.start();
  }
}
