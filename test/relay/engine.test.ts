// The memory engine's bounds and resume rules (the contract a Redis engine must keep too).
import { describe, expect, it } from 'vitest';
import { MemoryCache } from '../../relay/engine/memory-cache';
import { MemoryQuoteState } from '../../relay/engine/memory-state';
import { quote } from './helpers';

describe('MemoryQuoteState', () => {
  it('numbers only real changes, and resumes only from ids still held', async () => {
    const state = new MemoryQuoteState(3);
    expect((await state.apply([quote('usd', 1), quote('eur', 1)], 0)).map((e) => e.id)).toEqual([1, 2]);
    expect(await state.apply([quote('usd', 0), quote('usd', 1)], 0)).toEqual([]); // older or same: nothing
    await state.apply([quote('usd', 2)], 0);
    await state.apply([quote('usd', 3)], 0);
    // The buffer holds ids 2..4: resuming after 1 misses nothing; after 0 it would.
    expect((await state.since(1, new Set(['usd'])))!.map((e) => e.id)).toEqual([3, 4]);
    expect(await state.since(0, new Set(['usd']))).toBeUndefined();
    expect(await state.since(9, new Set(['usd']))).toBeUndefined();
    expect(await state.snapshot(['eur', 'usd', 'gbp'])).toMatchObject({
      id: 4,
      quotes: [{ symbol: 'eur' }, { symbol: 'usd', price: '1003' }],
    });
  });
});

describe('MemoryCache', () => {
  const entry = (body: string, storedAt = 0) => ({ body, storedAt });
  // Each entry here costs 1 (key) + 100 (body) + 100 (overhead) = 201 bytes: 5 fit in 1,005.
  const body = 'x'.repeat(100);

  it('is bounded by bytes and drops the least recently used first', async () => {
    const cache = new MemoryCache(1_005);
    for (const key of ['a', 'b', 'c', 'd', 'e']) await cache.set(key, entry(body));
    expect(cache.bytes).toBe(1_005);
    await cache.set('f', entry(body));
    expect(cache.bytes).toBeLessThanOrEqual(1_005);
    expect(await cache.peek('a')).toBeUndefined();
    // A hit makes an entry recently used; peek does not.
    await cache.get('b');
    await cache.peek('c');
    await cache.set('g', entry(body));
    expect(await cache.peek('b')).toBeDefined();
    expect(await cache.peek('c')).toBeUndefined();
    // Larger than the whole cache: not held, nothing evicted for it.
    await cache.set('h', entry('y'.repeat(2_000)));
    expect(await cache.peek('h')).toBeUndefined();
    expect(await cache.peek('b')).toBeDefined();
  });

  it('keeps entries hit again over any number of entries asked for once', async () => {
    const cache = new MemoryCache(1_005);
    await cache.set('v', entry(body));
    await cache.get('v');
    for (let i = 0; i < 100; i++) await cache.set(String.fromCharCode(0x4e00 + i), entry(body.slice(2)));
    expect((await cache.get('v'))?.body).toBe(body);
    expect(cache.bytes).toBeLessThanOrEqual(1_005);
    // Re-set (a refresh) keeps it where it was, with the new body.
    await cache.set('v', entry('z'.repeat(100), 1));
    for (let i = 0; i < 100; i++) await cache.set(String.fromCharCode(0x4f00 + i), entry(body.slice(2)));
    expect(await cache.peek('v')).toEqual(entry('z'.repeat(100), 1));
  });
});
