// A relay that starts on a small budget or in an outage (DESIGN.md §7.1 "A small day budget still
// starts", "A failure stays where it happened"): it takes its first snapshot at once and serves
// what it holds, and it serves again as soon as the upstream is back.
import { describe, expect, it } from 'vitest';
import { get, until } from './helpers';
import { relaysBehind, type Setup } from './upstream-helpers';

const behind = relaysBehind();
let setup: Setup | undefined;

describe('a small day budget', () => {
  it.each([
    ['basic with 200 a day (a day share of 160)', { PLAN: 'basic', UPSTREAM_RPD: '200' }],
    ['demo (1,000 a day)', { PLAN: 'demo' }],
  ])(
    '%s, the stream failing: the first snapshot at once, then the prices held (stale, marked) rather than a 429',
    async (_name, env) => {
      // Visitors ask as often as the test looks: no per-visitor limit in the way.
      setup = await behind.start({ ...env, CLIENT_RPM: '100000' }, { upstream: { staleAfterMs: 1_500 } }, (up) =>
        up.fail(/^\/v1\/stream/, 503, 'unavailable'),
      );
      const first = await until(async () => {
        const answer = await get(setup!.relay.url, '/v1/prices?symbols=usd');
        return answer.status === 200 && answer;
      }, 20_000);
      expect(first.body).toContain('"symbol":"usd"');
      // The relay paces its polls (minutes apart on this budget): meanwhile what it holds, marked stale.
      const stale = await until(async () => {
        const answer = await get(setup!.relay.url, '/v1/prices?symbols=usd');
        expect(answer.status).toBe(200);
        return answer.headers.warning !== undefined && answer;
      }, 10_000);
      expect(stale.headers.warning).toMatch(/^110/);
      expect(Number(stale.headers.age)).toBeGreaterThanOrEqual(1);
      expect((await get(setup.relay.url, '/v1/symbols')).status).toBe(200);
      // A handful of upstream requests, not a request per visitor.
      expect(setup.upstream.count(/^\/v1\/prices/)).toBeLessThanOrEqual(3);
    },
    40_000,
  );
});

describe('an upstream outage at start', () => {
  it('the catalog is served as soon as the upstream is back, however long the outage and however often visitors asked', async () => {
    let offset = 0;
    let down = true;
    setup = await behind.start({}, { now: () => Date.now() + offset }, (up) =>
      up.rule((_req, res, url) => {
        if (!down || !url.pathname.startsWith('/v1/')) return false;
        res.writeHead(503, { 'Content-Type': 'application/json' });
        res.end('{"error":{"code":"unavailable","message":"down"}}');
        return true;
      }),
    );
    // Visitors keep asking through a long outage (each a minute later, past every pause).
    for (let i = 0; i < 8; i++) {
      offset += 61_000;
      expect((await get(setup.relay.url, '/v1/symbols')).status).not.toBe(200);
    }
    // Visitors asking while the relay's own pause holds cost nothing upstream and count as no failure.
    const asked = setup.upstream.count(/^\/v1\/symbols/);
    for (let i = 0; i < 20; i++) await get(setup.relay.url, '/v1/symbols');
    expect(setup.upstream.count(/^\/v1\/symbols/) - asked).toBeLessThanOrEqual(1);
    down = false;
    offset += 61_000;
    await until(async () => (await get(setup!.relay.url, '/v1/symbols')).status === 200, 10_000);
  });
});
