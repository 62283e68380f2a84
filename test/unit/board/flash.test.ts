// The flash of a changed price (src/board/flash.ts): how long a cell shows it, and the one timer
// that ends it when no other render does. Fake timers: time is the subject.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { FLASH_MS, GRID_MS, PriceFlash } from '../../../src/board/flash';

/** A host that renders the way Lit does: hostUpdate, the render's `on()` per row, hostUpdated. */
class Host implements ReactiveControllerHost {
  readonly controllers: ReactiveController[] = [];
  renders = 0;
  requested = 0;
  readonly updateComplete = Promise.resolve(true);
  addController(c: ReactiveController): void {
    this.controllers.push(c);
  }
  removeController(): void {}
  requestUpdate(): void {
    this.requested++;
  }
  /** One render of `symbols`: which of them flash now (the controllers' hooks around it). */
  render(flash: PriceFlash, symbols: string[]): string[] {
    this.renders++;
    for (const c of this.controllers) c.hostUpdate?.();
    const on = symbols.filter((s) => flash.on(s));
    for (const c of this.controllers) c.hostUpdated?.();
    return on;
  }
}

describe('PriceFlash', () => {
  let host: Host;
  let changedAt: Map<string, number>;
  let flash: PriceFlash;
  beforeEach(() => {
    vi.useFakeTimers({ now: 0, toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    host = new Host();
    changedAt = new Map();
    flash = new PriceFlash(host, { changedAt: (s) => changedAt.get(s) });
  });
  afterEach(() => vi.useRealTimers());

  const change = (symbol: string) => changedAt.set(symbol, performance.now());

  it('shows only changed prices, for FLASH_MS after their change', () => {
    vi.advanceTimersByTime(1000);
    expect(host.render(flash, ['usd', 'eur'])).toEqual([]);
    change('usd');
    expect(host.render(flash, ['usd', 'eur'])).toEqual(['usd']);
    vi.advanceTimersByTime(FLASH_MS - 1);
    expect(host.render(flash, ['usd', 'eur'])).toEqual(['usd']);
    vi.advanceTimersByTime(1);
    expect(host.render(flash, ['usd', 'eur'])).toEqual([]);
  });

  it('asks for the render that ends a flash once, on the grid after its end, when nothing else renders', () => {
    vi.advanceTimersByTime(1030);
    change('usd'); // ends at 1830: the render comes at 2000 (+1 ms)
    host.render(flash, ['usd']);
    vi.advanceTimersByTime(2000 - 1030);
    expect(host.requested).toBe(0);
    vi.advanceTimersByTime(1);
    expect(host.requested).toBe(1);
    expect(host.render(flash, ['usd'])).toEqual([]);
    vi.advanceTimersByTime(10 * FLASH_MS);
    expect(host.requested).toBe(1); // nothing flashes: no timer
  });

  it('keeps a flash on while its price keeps changing, and ends each flash in turn', () => {
    change('usd');
    host.render(flash, ['usd', 'eur']);
    vi.advanceTimersByTime(500);
    change('eur');
    expect(host.render(flash, ['usd', 'eur'])).toEqual(['usd', 'eur']);
    vi.runOnlyPendingTimers(); // usd's end (800) → the render at 1000
    expect(host.requested).toBe(1);
    expect(host.render(flash, ['usd', 'eur'])).toEqual(['eur']);
    vi.runOnlyPendingTimers(); // eur's end (1300) → the render at 1400
    expect(host.requested).toBe(2);
    expect(performance.now()).toBe(1400 + 1);
    expect(host.render(flash, ['usd', 'eur'])).toEqual([]);
  });

  it('needs no timer of its own while live quotes render the board anyway', () => {
    // A render every 50 ms, each with a change: the flashes end at those renders.
    const symbols = ['a', 'b', 'c', 'd'];
    for (let i = 0; i < 80; i++) {
      change(symbols[i % 4]!);
      host.render(flash, symbols);
      vi.advanceTimersByTime(50);
    }
    // Each render re-arms the timer for the earliest end it shows: none came while they followed.
    expect(host.requested).toBe(0);
    vi.advanceTimersByTime(FLASH_MS + GRID_MS + 1);
    const before = host.requested;
    expect(host.render(flash, symbols)).toEqual([]);
    vi.advanceTimersByTime(10 * GRID_MS);
    expect(host.requested).toBe(before);
  });

  it('stops its timer when the board leaves the page', () => {
    change('usd');
    host.render(flash, ['usd']);
    for (const c of host.controllers) c.hostDisconnected?.();
    vi.advanceTimersByTime(10 * FLASH_MS);
    expect(host.requested).toBe(0);
  });
});
