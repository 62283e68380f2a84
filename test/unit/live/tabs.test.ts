/**
 * The tabs' shared stream (`tabs.ts`) against the real sandbox, with real BroadcastChannels (Node
 * has them) and a small in-process Web Locks manager (Node 20 has none): each TabStream is a tab.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PriceBoardError } from '../../../src/shared/errors';
import type { Quote } from '../../../src/shared/types';
import type { FetchLike } from '../../../src/api/request';
import type { StreamState } from '../../../src/live/stream';
import { TabStream, tabsName, type TabStreamOptions } from '../../../src/live/tabs';
import type { ChannelLike, LockManagerLike, TabsEnv } from '../../../src/live/tab-leadership';
import { Driver, type DriverConfig, type DriverState } from '../../../src/live/driver';
import { browserTabs } from '../../../src/live/shared-stream';
import { startTestSandbox, type TestSandbox } from '../api/sandbox-control';
import { hearStream } from './live-helpers';

/** Web Locks as the spec has them, for one name at a time: a queue, `signal`, `steal`. */
class InProcessLocks implements LockManagerLike {
  readonly #held = new Map<string, { fail(error: unknown): void }>();
  readonly #queues = new Map<string, (() => void)[]>();

  request(
    name: string,
    options: { signal?: AbortSignal; steal?: boolean },
    callback: (lock: unknown) => Promise<void>,
  ): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const abortError = (): DOMException => new DOMException('The lock request was aborted', 'AbortError');
      const grant = (): void => {
        const holder = { fail: reject };
        this.#held.set(name, holder);
        const done = (): void => {
          if (this.#held.get(name) !== holder) return; // stolen meanwhile: already rejected
          this.#held.delete(name);
          this.#next(name);
        };
        void Promise.resolve()
          .then(() => callback({ name }))
          .then(
            (value) => {
              done();
              resolve(value);
            },
            (error: unknown) => {
              done();
              reject(error);
            },
          );
      };
      if (options.steal) {
        this.#held.get(name)?.fail(abortError());
        this.#held.delete(name);
        return grant();
      }
      if (options.signal?.aborted) return reject(abortError());
      const queue = this.#queues.get(name) ?? [];
      this.#queues.set(name, queue);
      queue.push(grant);
      options.signal?.addEventListener('abort', () => {
        const at = queue.indexOf(grant);
        if (at < 0) return;
        queue.splice(at, 1);
        reject(abortError());
      });
      this.#next(name);
    });
  }

  #next(name: string): void {
    if (this.#held.has(name)) return;
    this.#queues.get(name)?.shift()?.();
  }
}

/** A channel that can be silenced: a frozen tab posts nothing and hears nothing. */
class Freezable implements ChannelLike {
  readonly #inner: BroadcastChannel;
  frozen = false;
  onmessage: ((event: MessageEvent) => void) | null = null;

  constructor(name: string) {
    this.#inner = new BroadcastChannel(name);
    this.#inner.onmessage = (event) => {
      if (!this.frozen) this.onmessage?.(event as MessageEvent);
    };
  }

  postMessage(message: unknown): void {
    if (!this.frozen) this.#inner.postMessage(message);
  }

  close(): void {
    this.#inner.close();
  }
}

interface Tab {
  stream: TabStream;
  quotes: Quote[];
  batches: { quotes: Quote[]; at?: string }[];
  states: StreamState[];
  errors: PriceBoardError[];
  stops: PriceBoardError[];
  unknown: string[];
  /** `Last-Event-ID` of each stream this tab opened (undefined: a fresh start). */
  resumedFrom: (string | undefined)[];
  /** Connections it tried, made or not. */
  attempts: number;
  channel?: Freezable;
  price(symbol: string): string | undefined;
}

let sb: TestSandbox;
let locks: InProcessLocks;
let key: string;
let n = 0;
let tabs: Tab[] = [];
/** Drivers a test opened: stopped after it. */
const drivers: Driver[] = [];

beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(() => {
  locks = new InProcessLocks();
  key = `pro-key:tabs-${++n}`;
});
afterEach(() => {
  for (const tab of tabs) tab.stream.close();
  tabs = [];
  for (const driver of drivers.splice(0)) driver.stop();
});

function openTab(
  symbols: string[],
  options: {
    env?: TabsEnv;
    hold?: () => Promise<void>;
    apiKey?: string;
    silentMs?: number;
    beatMs?: number;
    /** This tab's own connection fails before it is made (its CSP, its network) while this says so. */
    cannotConnect?: () => boolean;
    giveUp?: TabStreamOptions['giveUp'];
  } = {},
): Tab {
  const tab = {
    quotes: [],
    batches: [],
    states: [],
    errors: [],
    stops: [],
    unknown: [],
    resumedFrom: [],
    attempts: 0,
  } as Omit<Tab, 'stream' | 'price'> as Tab;
  const env: TabsEnv = options.env ?? {
    locks,
    channel: (name) => (tab.channel = new Freezable(name)),
  };
  const recording: FetchLike = async (input, init) => {
    tab.resumedFrom.push((init.headers as Record<string, string>)['Last-Event-ID']);
    tab.attempts++;
    await options.hold?.();
    if (options.cannotConnect?.()) throw new TypeError('Failed to fetch');
    return fetch(input, init);
  };
  const url = `${sb.url}/v1/stream`;
  const apiKey = options.apiKey ?? key;
  tab.stream = new TabStream({
    name: tabsName({ streamUrl: url, apiKey, mode: 'sse' }),
    env,
    url,
    symbols,
    apiKey,
    fetch: recording,
    beatMs: options.beatMs ?? 50,
    silentMs: options.silentMs ?? 60_000,
    initialRetryMs: 100,
    giveUp: options.giveUp,
    onEvent: hearStream(tab, (event) => {
      if (event.kind === 'quotes') tab.batches.push({ quotes: event.quotes, at: event.at });
      else if (event.kind === 'unknown') tab.unknown.push(...event.symbols);
    }),
  });
  tab.price = (symbol) => tab.quotes.findLast((q) => q.symbol === symbol)?.price;
  tab.stream.start();
  tabs.push(tab);
  return tab;
}

const streamRequests = async (): Promise<string[]> => (await sb.requests('/v1/stream', key)).map((r) => r.url);

/**
 * A driver of this test's connection, as a hub makes one, following `usd`, and what it heard: its
 * states and the prices its stream brought.
 */
function openDriver(config: Partial<DriverConfig>): { driver: Driver; states: DriverState[]; prices: string[] } {
  const states: DriverState[] = [];
  const prices: string[] = [];
  const driver = new Driver(
    { baseUrl: sb.url, mode: 'sse', streamUrl: `${sb.url}/v1/stream`, apiKey: key, ...config },
    (event) => {
      if (event.kind === 'state') states.push(event.state);
      else if (event.kind === 'stream') prices.push(...event.quotes.map((q) => q.price));
    },
  );
  drivers.push(driver);
  driver.follow(['usd'], 60_000);
  return { driver, states, prices };
}
const symbolsOf = (url: string): string[] =>
  (new URL(url, 'http://x').searchParams.get('symbols') ?? '').split(',').sort();

/** Tab a (usd) leads; b (eur) and c (gbp) follow, all open on the union. */
async function threeTabs(): Promise<[Tab, Tab, Tab]> {
  const a = openTab(['usd']);
  await expect.poll(() => a.states.at(-1)).toBe('open');
  const b = openTab(['eur']);
  const c = openTab(['gbp']);
  await expect.poll(async () => symbolsOf((await streamRequests()).at(-1) ?? '')).toEqual(['eur', 'gbp', 'usd']);
  await expect.poll(() => [b, c].map((t) => t.states.at(-1))).toEqual(['open', 'open']);
  return [a, b, c];
}

describe('tabs share one stream', () => {
  it('three tabs open one stream, for the union of their symbols, and each gets its own quotes', async () => {
    const a = openTab(['usd']);
    const b = openTab(['eur']);
    const c = openTab(['usd', 'gbp']);
    await expect.poll(() => [a, b, c].map((t) => t.states.at(-1))).toEqual(['open', 'open', 'open']);
    // The leader widened its stream to the union as the others announced their symbols.
    await expect.poll(async () => symbolsOf((await streamRequests()).at(-1) ?? '')).toEqual(['eur', 'gbp', 'usd']);
    await expect.poll(async () => (await sb.stats()).openStreams).toBe(1);

    await sb.market({ set: [{ symbol: 'eur', price: '1234567' }] });
    await sb.market({ set: [{ symbol: 'gbp', price: '7654321' }] });
    await expect.poll(() => b.price('eur')).toBe('1234567');
    await expect.poll(() => c.price('gbp')).toBe('7654321');
    // Each tab hears only the symbols it follows.
    expect(new Set(a.quotes.map((q) => q.symbol))).toEqual(new Set(['usd']));
    expect(new Set(b.quotes.map((q) => q.symbol))).toEqual(new Set(['eur']));
    expect([a, b, c].filter((t) => t.stream.leading)).toHaveLength(1);
    // One stream per symbol set it grew through, never one per tab at once.
    expect((await sb.stats()).openStreams).toBe(1);
  });

  it('a tab that joins with symbols already streamed gets their latest quotes from the leader', async () => {
    await sb.market({ set: [{ symbol: 'usd', price: '1010101' }] });
    const a = openTab(['usd', 'eur']);
    await expect.poll(() => a.price('usd')).toBe('1010101');
    const b = openTab(['usd']);
    await expect.poll(() => b.price('usd')).toBe('1010101');
    expect(await streamRequests()).toHaveLength(1);
  });

  it('a tab that joins an open stream hears its state at once, not at the next beat', async () => {
    const slow = { beatMs: 60_000, silentMs: 600_000 };
    const a = openTab(['usd'], slow);
    await expect.poll(() => a.states.at(-1)).toBe('open');
    const b = openTab(['usd'], slow);
    await expect.poll(() => b.states.at(-1)).toBe('open');
  });

  it('when the leader closes, a follower leads, resuming from the last event id: no change is missed', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const a = openTab(['usd', 'eur']);
    await expect.poll(() => a.states.at(-1)).toBe('open');
    // b's stream waits at the gate: changes made meanwhile happen while no tab is connected.
    const b = openTab(['usd', 'eur'], { hold: () => gate });
    await expect.poll(() => b.states.at(-1)).toBe('open');
    await sb.market({ set: [{ symbol: 'usd', price: '2000001' }] });
    await expect.poll(() => b.price('usd')).toBe('2000001');
    const lastSeen = b.stream.resumePoint?.id;
    expect(lastSeen).toMatch(/^\d+$/);

    a.stream.close(); // the leading tab goes
    await expect.poll(() => b.stream.leading).toBe(true);
    await expect.poll(() => b.resumedFrom.length).toBe(1);
    const missed = [
      { symbol: 'usd', price: '2000002' },
      { symbol: 'eur', price: '3000001' },
      { symbol: 'usd', price: '2000003' },
    ];
    for (const change of missed) await sb.market({ set: [change] });
    release();

    await expect.poll(() => b.price('usd')).toBe('2000003');
    expect(b.resumedFrom).toEqual([lastSeen]);
    // Every change arrived as its own event, in order, not folded into a fresh snapshot.
    const after = b.batches.slice(b.batches.findIndex((x) => x.quotes.some((q) => q.price === '2000002')));
    expect(after.map((x) => x.quotes.map((q) => [q.symbol, q.price]))).toEqual(
      missed.map((m) => [[m.symbol, m.price]]),
    );
    expect(after.every((x) => x.at === undefined)).toBe(true);
    await expect.poll(async () => (await sb.stats()).openStreams).toBe(1);
  });

  it('the union shrinks with a tab that leaves, and a new leader takes the remaining tabs with it', async () => {
    const [a, b, c] = await threeTabs();
    a.stream.close();
    await expect.poll(() => [b, c].filter((t) => t.stream.leading)).toHaveLength(1);
    await sb.market({ set: [{ symbol: 'gbp', price: '5555555' }] });
    await sb.market({ set: [{ symbol: 'eur', price: '4444444' }] });
    await expect.poll(() => [b.price('eur'), c.price('gbp')]).toEqual(['4444444', '5555555']);
    await expect.poll(async () => (await sb.stats()).openStreams).toBe(1);
  });

  it('a new leader opens one stream for every remaining tab, the ones that joined before it too', async () => {
    const a = openTab(['usd']);
    await expect.poll(() => a.states.at(-1)).toBe('open');
    // b joins first but queues for the lock after c: c leads next without having heard b join.
    let cQueued!: () => void;
    const queued = new Promise<void>((resolve) => (cQueued = resolve));
    const b = openTab(['eur'], {
      env: {
        locks: { request: (name, options, callback) => queued.then(() => locks.request(name, options, callback)) },
        channel: (name) => new Freezable(name),
      },
    });
    await expect.poll(() => b.states.at(-1)).toBe('open');
    const c = openTab(['gbp'], {
      env: {
        locks: {
          request: (name, options, callback) => {
            const request = locks.request(name, options, callback);
            cQueued();
            return request;
          },
        },
        channel: (name) => new Freezable(name),
      },
    });
    await expect.poll(async () => symbolsOf((await streamRequests()).at(-1) ?? '')).toEqual(['eur', 'gbp', 'usd']);
    await expect.poll(() => c.states.at(-1)).toBe('open');
    const before = (await streamRequests()).length;

    a.stream.close();
    await expect.poll(() => c.stream.leading).toBe(true);
    await sb.market({ set: [{ symbol: 'eur', price: '4343434' }] });
    await expect.poll(() => b.price('eur')).toBe('4343434');
    // One stream for the tabs left, opened once: not widened afterwards as the others spoke up.
    const after = (await streamRequests()).slice(before);
    expect(after.map(symbolsOf)).toEqual([['eur', 'gbp']]);
    expect(b.stream.leading).toBe(false);
  });

  it('a leader that goes takes its symbols with it: the next leader streams only the tabs left', async () => {
    const [a, b, c] = await threeTabs();
    a.stream.close();
    await expect.poll(() => b.stream.leading).toBe(true);
    await expect.poll(async () => symbolsOf((await streamRequests()).at(-1) ?? '')).toEqual(['eur', 'gbp']);
    b.stream.close();
    await expect.poll(() => c.stream.leading).toBe(true);
    await expect.poll(async () => symbolsOf((await streamRequests()).at(-1) ?? '')).toEqual(['gbp']);
    await sb.market({ set: [{ symbol: 'gbp', price: '5151515' }] });
    await expect.poll(() => c.price('gbp')).toBe('5151515');
  });

  it('a silent (frozen) leader is replaced, and leads no more when it wakes', async () => {
    const a = openTab(['usd'], { silentMs: 300 });
    await expect.poll(() => a.states.at(-1)).toBe('open');
    const b = openTab(['usd'], { silentMs: 300 });
    await expect.poll(() => b.states.at(-1)).toBe('open');
    expect(a.stream.leading).toBe(true);

    a.channel!.frozen = true;
    await expect.poll(() => b.stream.leading).toBe(true);
    // The lock was taken from it: it closed its own stream.
    await expect.poll(() => a.stream.leading).toBe(false);
    await expect.poll(async () => (await sb.stats()).openStreams).toBe(1);
    await sb.market({ set: [{ symbol: 'usd', price: '6060606' }] });
    await expect.poll(() => b.price('usd')).toBe('6060606');

    a.channel!.frozen = false; // it wakes up and follows
    await sb.market({ set: [{ symbol: 'usd', price: '6060607' }] });
    await expect.poll(() => a.price('usd')).toBe('6060607');
    expect(b.stream.leading).toBe(true);
  });

  it('a leader whose own connection cannot be made hands the lead to a tab whose can, which resumes', async () => {
    let blocked = true;
    const a = openTab(['usd'], { cannotConnect: () => blocked });
    await expect.poll(() => a.errors.length).toBeGreaterThan(0);
    expect(a.stream.leading).toBe(true);
    const b = openTab(['eur']);
    await expect.poll(() => [a.states.at(-1), b.states.at(-1)]).toEqual(['open', 'open']);
    expect([a.stream.leading, b.stream.leading]).toEqual([false, true]);
    // Every tab said it was reconnecting while the lead passed (b waited a's backoff), then live.
    expect(b.states).toEqual(['reconnecting', 'open']);
    expect(a.states.slice(-2)).toEqual(['reconnecting', 'open']);
    expect((await streamRequests()).map(symbolsOf)).toEqual([['eur', 'usd']]);
    await sb.market({ set: [{ symbol: 'usd', price: '2323231' }] });
    await expect.poll(() => a.price('usd')).toBe('2323231');
    // a's own connection works again, but b leads while it can: a stays off the service.
    blocked = false;
    const tried = a.attempts;
    await sb.market({ set: [{ symbol: 'usd', price: '2323232' }] });
    await expect.poll(() => a.price('usd')).toBe('2323232');
    expect(a.attempts).toBe(tried);
    // b goes: a, last in line, leads again, resuming where b left off.
    b.stream.close();
    await expect.poll(() => a.stream.leading).toBe(true);
    await sb.market({ set: [{ symbol: 'usd', price: '2323233' }] });
    await expect.poll(() => a.price('usd')).toBe('2323233');
    expect(a.resumedFrom.at(-1)).toBeDefined();
  });

  it('tabs opened together, the leader unable to connect: they say reconnecting while the lead passes, then live', async () => {
    // Its connection fails only once it knows the other tab (a DNS lookup, say, that takes that
    // long): a leader beats when it leads and when a tab says hello, and a beats no other time.
    const spy = new BroadcastChannel(tabsName({ streamUrl: `${sb.url}/v1/stream`, apiKey: key, mode: 'sse' }));
    let beats = 0;
    let heard!: () => void;
    const heardB = new Promise<void>((resolve) => (heard = resolve));
    spy.onmessage = (event: MessageEvent<{ t: string }>) => {
      if (event.data.t === 'beat' && ++beats === 2) heard();
    };
    try {
      const a = openTab(['usd'], { cannotConnect: () => true, hold: () => heardB, beatMs: 60_000 });
      const b = openTab(['eur']);
      await expect.poll(() => [a.states.at(-1), b.states.at(-1)]).toEqual(['open', 'open']);
      expect(b.stream.leading).toBe(true);
      expect(a.states).toEqual(['reconnecting', 'open']);
      expect(b.states).toEqual(['reconnecting', 'open']);
    } finally {
      spy.close();
    }
  });

  it('tabs that all cannot connect pass the lead on without starting the count again: auto gives up as one tab would', async () => {
    const giveUp: TabStreamOptions['giveUp'] = (_error, failure) => failure.failures >= 3;
    // a fails alone first; its next connection fails only once it has heard another tab (a leader
    // beats when a tab says hello, and at no other time while it waits or connects).
    const spy = new BroadcastChannel(tabsName({ streamUrl: `${sb.url}/v1/stream`, apiKey: key, mode: 'sse' }));
    let joined = false;
    let heard!: () => void;
    const heardAnother = new Promise<void>((resolve) => (heard = resolve));
    spy.onmessage = (event: MessageEvent<{ t: string }>) => {
      if (joined && event.data.t === 'beat') heard();
    };
    try {
      const hold = (): Promise<void> => (a.attempts === 1 ? Promise.resolve() : heardAnother);
      const a = openTab(['usd'], { cannotConnect: () => true, giveUp, hold, beatMs: 60_000 });
      await expect.poll(() => a.errors.length).toBe(1);
      joined = true;
      const b = openTab(['eur'], { cannotConnect: () => true, giveUp });
      const c = openTab(['gbp'], { cannotConnect: () => true, giveUp });
      await expect.poll(() => [a, b, c].map((t) => t.stops.length)).toEqual([1, 1, 1]);
      // Three connections in all, as a single tab makes before it gives up, whichever tab made them.
      expect(a.attempts + b.attempts + c.attempts).toBe(3);
      expect(a.attempts).toBe(2);
    } finally {
      spy.close();
    }
  });

  it('a tab alone posts no quotes to the channel; one that joins gets the latest, then every change', async () => {
    const spy = new BroadcastChannel(tabsName({ streamUrl: `${sb.url}/v1/stream`, apiKey: key, mode: 'sse' }));
    const posted: string[] = [];
    spy.onmessage = (event: MessageEvent<{ t: string; to?: string; quotes?: Quote[] }>) => {
      if (event.data.t === 'quotes' && event.data.to === undefined)
        posted.push(...event.data.quotes!.map((q) => `${q.symbol}:${q.price}`));
    };
    try {
      const a = openTab(['usd']);
      await expect.poll(() => a.states.at(-1)).toBe('open');
      await sb.market({ set: [{ symbol: 'usd', price: '3131313' }] });
      await expect.poll(() => a.price('usd')).toBe('3131313');
      const b = openTab(['usd']);
      await expect.poll(() => b.price('usd')).toBe('3131313');
      await sb.market({ set: [{ symbol: 'usd', price: '3131314' }] });
      await expect.poll(() => b.price('usd')).toBe('3131314');
      // Only what came after b joined went to the channel for everyone.
      expect(posted).toEqual(['usd:3131314']);
    } finally {
      spy.close();
    }
  });

  it('quotes of symbols no tab asked for are not passed on (a flood of them stays in the leader)', async () => {
    const a = openTab(['usd']);
    const b = openTab(['usd']);
    await expect.poll(() => [a.states.at(-1), b.states.at(-1)]).toEqual(['open', 'open']);
    const spy = new BroadcastChannel(tabsName({ streamUrl: `${sb.url}/v1/stream`, apiKey: key, mode: 'sse' }));
    const passed: string[] = [];
    spy.onmessage = (event: MessageEvent<{ t: string; quotes?: Quote[] }>) => {
      if (event.data.t === 'quotes') passed.push(...event.data.quotes!.map((q) => q.symbol));
    };
    try {
      const usd = a.quotes.at(-1)!;
      await sb.push({ event: 'quote', data: JSON.stringify({ ...usd, symbol: 'x{n}' }), times: 1_000 });
      await sb.market({ set: [{ symbol: 'usd', price: '9191919' }] });
      await expect.poll(() => b.price('usd')).toBe('9191919');
      await expect.poll(() => passed.includes('usd')).toBe(true);
      expect(passed.filter((s) => s !== 'usd')).toEqual([]);
    } finally {
      spy.close();
    }
  });

  it('a final error reaches every tab, and unknown symbols reach the tab that asked for them', async () => {
    const a = openTab(['usd', 'nosuch']);
    const b = openTab(['eur', 'nosuch']);
    await expect.poll(() => [a.unknown, b.unknown]).toEqual([['nosuch'], ['nosuch']]);
    await expect.poll(() => [a.states.at(-1), b.states.at(-1)]).toEqual(['open', 'open']);

    const wrong = 'wrong-key';
    const c = openTab(['usd'], { apiKey: wrong });
    const d = openTab(['usd'], { apiKey: wrong });
    await expect.poll(() => [c.stops.length, d.stops.length]).toEqual([1, 1]);
    expect([c.stops[0]!.code, d.stops[0]!.code]).toEqual(['unauthorized', 'unauthorized']);
    expect([c.stream.closed, d.stream.closed]).toEqual([true, true]);
    expect((await sb.requests('/v1/stream', wrong)).length).toBe(1);
  });
});

describe('without Web Locks or BroadcastChannel each tab keeps its own stream', () => {
  it('browserTabs() is undefined when either is missing', () => {
    const { BroadcastChannel: channel } = globalThis;
    try {
      // @ts-expect-error: a browser without BroadcastChannel
      delete globalThis.BroadcastChannel;
      expect(browserTabs()).toBeUndefined();
    } finally {
      globalThis.BroadcastChannel = channel;
    }
    // Node 20 has no navigator.locks; Node 24 has: then both are there.
    expect(browserTabs() === undefined).toBe(typeof globalThis.navigator?.locks?.request !== 'function');
  });

  it('a lock manager that refuses, or a channel that throws: the tab streams on its own', async () => {
    const refusing: TabsEnv = {
      locks: { request: () => Promise.reject(new DOMException('opaque origin', 'SecurityError')) },
      channel: (name) => new BroadcastChannel(name),
    };
    const throwing: TabsEnv = {
      locks,
      channel: () => {
        throw new DOMException('no channel here', 'SecurityError');
      },
    };
    const a = openTab(['usd'], { env: refusing });
    const b = openTab(['usd'], { env: throwing });
    await sb.market({ set: [{ symbol: 'usd', price: '7070707' }] });
    await expect.poll(() => [a.price('usd'), b.price('usd')]).toEqual(['7070707', '7070707']);
    expect(await streamRequests()).toHaveLength(2);
  });

  it('a Driver with tabs: null, or a fetch of its own, opens its own stream', async () => {
    const one = openDriver({ tabs: null });
    const two = openDriver({ tabs: { locks, channel: (name) => new BroadcastChannel(name) }, fetch });
    const states = [one.states, two.states];
    await expect.poll(() => states.map((s) => s.at(-1))).toEqual(['live', 'live']);
    expect(await streamRequests()).toHaveLength(2);
  });

  it("a Driver with tabs asks for the tabs' code, and so opens its stream, once the page has painted", async () => {
    // A visible page whose animation frames run when the test says (the first rows' frame).
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('document', { visibilityState: 'visible' });
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
    vi.stubGlobal('cancelAnimationFrame', () => {});
    const { driver, states } = openDriver({
      tabs: { locks, channel: (name) => new BroadcastChannel(name) },
      visibility: { isVisible: () => true, subscribe: () => () => {} },
    });
    try {
      // Started, and waiting for the next frame: nothing asked for yet.
      expect(frames).toHaveLength(1);
      expect(states).not.toContain('live');
      frames.shift()!(0);
      await expect.poll(() => states.at(-1)).toBe('live');
      expect(await streamRequests()).toHaveLength(1);
    } finally {
      driver.stop(); // while the frame functions it waits with are there
      vi.unstubAllGlobals();
    }
  });

  it('two Drivers given the same tabs share one stream', async () => {
    const env: TabsEnv = { locks, channel: (name) => new BroadcastChannel(name) };
    const got = [openDriver({ tabs: env }).prices, openDriver({ tabs: env }).prices];
    await sb.market({ set: [{ symbol: 'usd', price: '8080808' }] });
    await expect.poll(() => got.map((g) => g.at(-1))).toEqual(['8080808', '8080808']);
    expect(await streamRequests()).toHaveLength(1);
  });

  it('a hidden leading tab keeps streaming for the others (only polling pauses while hidden)', async () => {
    const hidden = { isVisible: () => false, subscribe: () => () => {} };
    const tabsEnv = { locks, channel: (name: string) => new BroadcastChannel(name) };
    const got = [openDriver({ mode: 'auto', tabs: tabsEnv, visibility: hidden }).prices];
    await sb.market({ set: [{ symbol: 'usd', price: '2323230' }] });
    await expect.poll(() => got[0]!.at(-1)).toBe('2323230');
    got.push(openDriver({ mode: 'auto', tabs: tabsEnv }).prices);
    await sb.market({ set: [{ symbol: 'usd', price: '2323231' }] });
    await expect.poll(() => got.map((g) => g.at(-1))).toEqual(['2323231', '2323231']);
    expect(await streamRequests()).toHaveLength(1);
  });

  it('names differ by key, address and mode, and never carry the key', () => {
    const name = tabsName({ streamUrl: 'https://api.example/v1/stream', apiKey: 'pro-key:secret', mode: 'auto' });
    expect(name).not.toContain('secret');
    expect(name).not.toContain('pro-key');
    const others = [
      tabsName({ streamUrl: 'https://api.example/v1/stream', apiKey: 'pro-key:secret2', mode: 'auto' }),
      tabsName({ streamUrl: 'https://api2.example/v1/stream', apiKey: 'pro-key:secret', mode: 'auto' }),
      tabsName({ streamUrl: 'https://api.example/v1/stream', apiKey: 'pro-key:secret', mode: 'sse' }),
      tabsName({ streamUrl: 'https://api.example/v1/stream', mode: 'auto' }),
    ];
    expect(new Set([name, ...others]).size).toBe(5);
  });
});
