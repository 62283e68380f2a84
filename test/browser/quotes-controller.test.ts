// The widgets' quotes controller compares connections as the hub does (`connectionOf`): a setting
// that names the connection already in use (here the stream address the hub derives by default)
// keeps the subscription: no new request, no passing `loading` status, the rows stay.
import { fixture, html } from '@open-wc/testing-helpers/pure';
import { describe, expect, it } from 'vitest';
import { flushSubscriptions } from '../../src/live/hub';
import '../../src/price-board';
import type { PriceBoard } from '../../src/price-board';
import { base, cell, collect, sandbox, until, untilLoaded, useSandbox, watchFetch } from './helpers/board';

const KEY = 'pro-key:quotes-controller';

useSandbox();

describe('QuotesController', () => {
  it('keeps its subscription when a setting names the connection it already has', async () => {
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${KEY} chart="none" stream="sse" symbols="usd,eur"></price-board>`,
    );
    await untilLoaded(el);
    await until(() => el.status === 'live', 'the stream did not go live');
    const price = cell(el, 'usd', 'price');
    const statuses = collect<{ status: string }>(el, 'price-board-status');
    const sent = watchFetch();
    el.setAttribute('stream-url', `${base()}/v1/stream`);
    await el.updateComplete;
    flushSubscriptions();
    expect(statuses.map((e) => e.detail.status)).toEqual([]);
    expect(sent).toEqual([]);
    expect(el.status).toBe('live');
    expect(cell(el, 'usd', 'price')).toBe(price);
    expect(await sandbox.requests(KEY, '/v1/stream')).toHaveLength(1);
  });
});
