import { describe, expect, it } from 'vitest';
import { loadHistory, sourceFor } from '../../../src/board/history-source';
import type { PriceClient } from '../../../src/api/client';

// The history sources and their caches are the only data of the board's that a page keeps once
// every board is gone (bench memory section: about 30 KB with 10 keys rotated). They must stay
// bounded however many keys and symbols the page's boards used.

/** A source whose client answers every history request with one point an hour ago. */
function stubbed(key: string) {
  const source = sourceFor('https://svc.test', key);
  let calls = 0;
  source.client = {
    history: async () => {
      calls++;
      return [{ t: Math.floor(Date.now() / 1000) - 3600, price: 100 }];
    },
  } as unknown as PriceClient;
  return { source, calls: () => calls };
}

describe('history sources: bounded', () => {
  it('keeps at most 8 sources, letting the least recently used go', () => {
    const first = sourceFor('https://svc.test', 'lru-0');
    for (let i = 1; i <= 7; i++) sourceFor('https://svc.test', `lru-${i}`);
    expect(sourceFor('https://svc.test', 'lru-0')).toBe(first); // 8 sources: all kept (lru-0 now the newest)
    for (let i = 1; i <= 8; i++) sourceFor('https://svc.test', `lru-new-${i}`);
    expect(sourceFor('https://svc.test', 'lru-0')).not.toBe(first); // 8 others used since: let go
  });

  it('caches at most 12 spans per source, and a cached span is not asked for again', async () => {
    const { source, calls } = stubbed('cache-bound');
    const signal = new AbortController().signal;
    for (let i = 0; i < 50; i++) await loadHistory(source, `sym_${i}`, 7, signal);
    expect(calls()).toBe(50);
    expect(source.cache.size).toBe(12);
    await loadHistory(source, 'sym_49', 7, signal);
    expect(calls()).toBe(50);
    await loadHistory(source, 'sym_0', 7, signal);
    expect(calls()).toBe(51);
    expect(source.cache.size).toBe(12);
  });
});
