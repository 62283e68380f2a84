// The hub's one merge rule (QuoteStore: DESIGN.md §7.1, §12) holds for every quote a subscriber
// gets, the very first answer included: a later twin with the same updated_at is its correction,
// an updated_at that is not RFC 3339 is dropped, one far in the future is dated now. The answer is
// a real HTTP body from a node:http server, read through the real client.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hubCount, subscribe, type Subscription } from '../../../src/live/hub';
import { HubRecorder as Recorder } from './live-helpers';
import { makeQuote } from '../../helpers/quote';
import { pendingWork } from '../../helpers/pending-work';

const AT = '2026-03-20T10:00:00+03:30';
let server: Server;
let baseUrl: string;
let body: unknown;

beforeAll(async () => {
  server = createServer((req, res) => {
    res.writeHead(req.url?.startsWith('/v1/prices') ? 200 : 404, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('hub merge', () => {
  it('applies the one merge rule to the first answer: corrections win, unreadable dates never show', async () => {
    body = {
      data: {
        at: AT,
        delay_seconds: 0,
        quotes: [
          makeQuote({ symbol: 'usd', price: '1000000', updated_at: AT }),
          // The same updated_at, other content: the correction of the quote above.
          makeQuote({ symbol: 'usd', price: '1000010', updated_at: AT }),
          // Date.parse reads it, but it is not RFC 3339: dropped.
          makeQuote({ symbol: 'eur', price: '1300000', updated_at: 'Fri, 20 Mar 2026 06:30:00 GMT' }),
          // Far in the future: dated now, so that later quotes still win.
          makeQuote({ symbol: 'gold_18', price: '5000000', updated_at: '2999-01-01T00:00:00Z' }),
          makeQuote({ symbol: 'coin_emami', price: '2000000', updated_at: AT }),
        ],
      },
    };
    const a = new Recorder();
    const s: Subscription = subscribe(
      { baseUrl, stream: 'off', pollInterval: 30 },
      ['usd', 'eur', 'gold_18', 'coin_emami'],
      a.listen,
    );
    await expect.poll(() => a.statuses.at(-1)).toBe('polling');
    expect(a.quotes.map((q) => `${q.symbol}:${q.price}`)).toEqual([
      'usd:1000010',
      'gold_18:5000000',
      'coin_emami:2000000',
    ]);
    const gold = a.quotes.find((q) => q.symbol === 'gold_18')!;
    expect(Date.parse(gold.updated_at)).toBeLessThanOrEqual(Date.now());
    expect(s.get('usd')?.price).toBe('1000010');
    expect(s.get('eur')).toBeUndefined();
    s.close();
    await expect.poll(() => hubCount()).toBe(0);
    await expect.poll(() => pendingWork()).toEqual({ timers: 0, requests: 0 });
  });
});
