// Recovery without the user: DESIGN.md (Standards), a board "recover[s] by itself where recovery
// is possible". A transient error leaves part="error" once the service answers again, even when
// no price changed (the hub's `recovered` signal, src/live/hub.ts → widget/quotes-controller.ts),
// and a chart whose history failed transiently loads by itself (retry with capped backoff in
// src/chart/chart-area.ts). Both began as `it.fails` repros of those bugs.
import { fixture, fixtureCleanup, html } from '@open-wc/testing-helpers/pure';
import { afterEach, describe, expect, it } from 'vitest';
import '../../src/price-board';
import type { PriceBoard } from '../../src/price-board';
import { base, part, sandbox, until, untilLoaded } from './helpers/board';

const RUN = Date.now().toString(36);

afterEach(async () => {
  fixtureCleanup();
  await sandbox.reset();
});

describe('recovery of a board by itself', () => {
  // A transient error (server, rate_limited, bad_response, network, timeout) is cleared when the
  // hub says the service answers again, not only when *changed* quotes arrive: with the market
  // closed (nights, Fridays) nothing changes, and the board would keep saying
  // "سرویس قیمت موقتاً در دسترس نیست؛ دوباره تلاش می‌شود." for ever.
  it(
    'a transient error is cleared once the service answers again, even if no price changed',
    { timeout: 30_000 },
    async () => {
      const key = `pro-key:recovery-stale-error-${RUN}`;
      await sandbox.market({ open: false });
      const el = await fixture<PriceBoard>(
        html`<price-board base-url=${base()} api-key=${key} stream="poll" poll-interval="5" chart="none" symbols="usd,eur"></price-board>`,
      );
      await untilLoaded(el);
      await sandbox.faults([{ path: '/v1/prices', kind: 'status', status: 500, key }]);
      await until(() => part(el, 'error')?.dataset.code === 'server', 'no server error shown', 20_000);
      await sandbox.faults([]);
      const cleared = Date.now();
      const ok = async () =>
        (await sandbox.requests(key, '/v1/prices')).some((r) => r.status === 200 && Date.parse(r.at) > cleared);
      await until(ok, 'no successful poll after the faults were cleared', 15_000);
      // The answer of that poll clears the error, though no price changed.
      await until(() => part(el, 'error') === null, `the ${part(el, 'error')?.dataset.code} error stayed`, 5_000);
      expect(el.status).toBe('polling');
    },
  );

  // The client retries a 5xx twice within a second; after that the chart area shows the error
  // and tries again later (first after 1.25–2.5 s, doubling up to a minute), so a brief outage at
  // page load does not leave a live board with a dead chart.
  it('a chart whose history failed with a transient 5xx loads by itself later', { timeout: 40_000 }, async () => {
    const key = `pro-key:recovery-chart-${RUN}`;
    await sandbox.faults([{ path: '/v1/history', kind: 'status', status: 503, key, count: 3 }]);
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${key} symbols="usd,eur"></price-board>`,
    );
    await untilLoaded(el);
    await until(() => part(el, 'chart')?.dataset.status === 'error', 'no chart error', 20_000);
    const tried = (await sandbox.stats()).requests.filter((r) => r.key === key && r.path === '/v1/history/usd');
    expect(tried).toHaveLength(3);
    // The service answers again (the rule is used up); the board itself is live.
    await until(() => part(el, 'chart')?.dataset.status === 'ready', 'the chart stayed in error', 10_000);
  });
});
