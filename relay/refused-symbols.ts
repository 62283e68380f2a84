/**
 * Which symbols of a request the upstream refuses, when a 403 named symbols not yet proven
 * (SERVICE-SPEC §8: a plan may be restricted to some symbols). The set is split in halves and each
 * half asked on its own: a half that works is proven, a half refused again is split further. One
 * refused symbol among n costs ⌈log2 n⌉ requests; the requests are capped (see
 * {@link isolationCap}), and what the cap or a failure left open stays undecided (asked again
 * later, never taken for refused).
 */

/** What one request for some symbols told: they work, at least one is refused, or nothing (a pause, the budget, 5xx). */
export type Verdict = 'ok' | 'refused' | 'unknown';

export interface Isolation {
  refused: string[];
  proven: string[];
  /** Requests sent. */
  asked: number;
}

/** At most this many requests isolate the refused ones among `n` symbols (two per halving level). */
export function isolationCap(n: number): number {
  return 2 * Math.ceil(Math.log2(Math.max(2, n)));
}

/**
 * `symbols` are known to hold at least one refused symbol (a 403 named them all); `ask` sends one
 * request naming some of them.
 */
export async function isolateRefused(
  symbols: readonly string[],
  ask: (symbols: string[]) => Promise<Verdict>,
): Promise<Isolation> {
  const result: Isolation = { refused: [], proven: [], asked: 0 };
  const cap = isolationCap(symbols.length);
  const check = async (set: string[]): Promise<Verdict> => {
    if (result.asked >= cap) return 'unknown';
    result.asked += 1;
    const verdict = await ask(set);
    if (verdict === 'ok') result.proven.push(...set);
    return verdict;
  };
  // `set` holds at least one refused symbol.
  const within = async (set: string[]): Promise<void> => {
    if (set.length === 1) return void result.refused.push(set[0]!);
    const half = Math.ceil(set.length / 2);
    const [first, second] = [set.slice(0, half), set.slice(half)];
    const verdict = await check(first);
    // The first half works: the refused one is in the second, no request needed to know it.
    if (verdict === 'ok') return within(second);
    if (verdict === 'unknown') return;
    await within(first);
    if ((await check(second)) === 'refused') await within(second);
  };
  await within([...symbols]);
  return result;
}
