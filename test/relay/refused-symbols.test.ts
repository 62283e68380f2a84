// The isolation of refused symbols by halves (relay/refused-symbols.ts): which symbols a 403 was
// for, in a bounded number of requests. The upstream's answers are a rule on the symbols named.
import { describe, expect, it } from 'vitest';
import { isolateRefused, isolationCap, type Verdict } from '../../relay/refused-symbols';

const ids = (n: number): string[] => Array.from({ length: n }, (_, i) => `s${i}`);
const upstreamRefusing =
  (refused: string[], seen: string[][]) =>
  (symbols: string[]): Promise<Verdict> => {
    seen.push(symbols);
    return Promise.resolve(symbols.some((s) => refused.includes(s)) ? 'refused' : 'ok');
  };

describe('isolateRefused', () => {
  it.each([1, 2, 3, 5, 8, 13, 40, 100])(
    'finds the one refused symbol among %i, wherever it is, within 2⌈log2 n⌉ requests',
    async (n) => {
      for (const one of ids(n)) {
        const seen: string[][] = [];
        const found = await isolateRefused(ids(n), upstreamRefusing([one], seen));
        expect(found.refused).toEqual([one]);
        expect(found.proven.sort()).toEqual(
          ids(n)
            .filter((s) => s !== one)
            .sort(),
        );
        expect(seen.length).toBe(found.asked);
        expect(found.asked).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(Math.max(2, n))));
      }
    },
  );

  it('never takes a symbol for refused that it could not tell (the cap, an unknown answer)', async () => {
    const all = ids(16);
    const refused = ['s1', 's6', 's9', 's14'];
    const found = await isolateRefused(all, upstreamRefusing(refused, []));
    expect(found.asked).toBe(isolationCap(16));
    expect(found.refused.length).toBeGreaterThan(0);
    for (const s of found.refused) expect(refused).toContain(s);
    for (const s of found.proven) expect(refused).not.toContain(s);
    const paused = await isolateRefused(all, () => Promise.resolve('unknown'));
    expect(paused).toEqual({ refused: [], proven: [], asked: 1 });
  });
});
