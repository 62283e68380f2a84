// Any `days` through the relay as from the service (DESIGN.md §7.1): an API client asking
// `days=14` gets what the sandbox answers for `days=14` (the same shape, the same points), cut from
// the relay's cached 30 days; each enclosing span is asked upstream once per symbol.
import { afterEach, describe, expect, it } from 'vitest';
import { get, startPair, upstreamRequests, type Pair } from './helpers';

let pair: Pair | undefined;
afterEach(async () => {
  await pair?.close();
  pair = undefined;
});

/** The test's own key: its requests are told apart from the relay's in the sandbox's log. */
const DIRECT_KEY = 'enterprise-key:direct';

async function direct(path: string): Promise<unknown> {
  return (await fetch(`${pair!.sandbox.url}${path}`, { headers: { 'X-API-Key': DIRECT_KEY } })).json();
}

describe('history of any days through the relay', () => {
  it('answers days=14 (and 2, 3, 45, 200) as the service does, from one upstream request per symbol and span', async () => {
    pair = await startPair();
    for (const symbol of ['usd', 'gold_18'])
      for (const days of [14, 2, 3, 45, 200, 14]) {
        const path = `/v1/history/${symbol}?days=${days}`;
        // The service's answer just before and just after: a history ends at the current 15-minute
        // slot, so the relay's copy may rightly hold the other side of a slot's turn.
        const before = await direct(path);
        const answer = await get(pair.relay.url, path);
        const after = await direct(path);
        expect(answer.status).toBe(200);
        expect([before, after]).toContainEqual(JSON.parse(answer.body));
      }
    const spent = (await upstreamRequests(pair.sandbox))
      .filter((r) => r.path.startsWith('/v1/history/') && r.key !== DIRECT_KEY)
      .map((r) => r.url);
    expect(spent.sort()).toEqual(
      ['gold_18', 'usd'].flatMap((s) => [7, 30, 365].map((d) => `/v1/history/${s}?days=${d}`)).sort(),
    );
  });
});
