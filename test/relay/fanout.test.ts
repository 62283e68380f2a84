// Fan-out: every upstream change reaches every connected visitor, the upstream stream is resumed
// when it drops, and a visitor who stops reading is disconnected instead of buffered without bound.
import { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { control, startPair, Stream, until, upstreamRequests, visitorAddress, type Pair } from './helpers';

let pair: Pair;
afterEach(() => pair.close());

/** `count` changes of `symbol`, one ms apart, in one market request. */
function changes(
  symbol: string,
  count: number,
  start: number,
  price0 = 1_000_000,
): { symbol: string; price: string; updated_at: string }[] {
  return Array.from({ length: count }, (_, i) => ({
    symbol,
    price: String(price0 + i * 10),
    updated_at: new Date(start + i).toISOString(),
  }));
}

describe('fan-out', () => {
  it('brings one upstream change to each of 300 visitors over one upstream stream', async () => {
    pair = await startPair({ PLAN: 'basic' });
    const streams = Array.from(
      { length: 300 },
      (_, i) => new Stream(pair.relay.url, 'usd,eur', { from: visitorAddress(i) }),
    );
    await Promise.all(streams.map((s) => s.event((e) => e.event === 'quotes')));
    await control(pair.sandbox.url, 'market', { set: [{ symbol: 'eur', price: '1333330' }] });
    const got = await Promise.all(streams.map((s) => s.event((e) => e.event === 'quote')));
    expect(new Set(got.map((e) => JSON.parse(e.data).price))).toEqual(new Set(['1333330']));
    expect(new Set(got.map((e) => e.id)).size).toBe(1);
    const opened = (await upstreamRequests(pair.sandbox)).filter((r) => r.path === '/v1/stream');
    expect(opened).toHaveLength(1);
    for (const s of streams) s.close();
  });

  it("writes a change straight to each visitor's socket, not through http's response (a cork and a tick per write)", async () => {
    pair = await startPair();
    const streams = [new Stream(pair.relay.url, 'usd'), new Stream(pair.relay.url, 'usd', { from: '127.0.9.3' })];
    await Promise.all(streams.map((s) => s.event((e) => e.event === 'quotes')));
    const write = vi.spyOn(ServerResponse.prototype, 'write');
    try {
      await control(pair.sandbox.url, 'market', { set: [{ symbol: 'usd', price: '1234560' }] });
      await Promise.all(streams.map((s) => s.event((e) => e.event === 'quote')));
      // The sandbox's own stream (upstream) writes through its response; the relay's must not.
      const relayed = write.mock.contexts.filter(
        (res) => (res as ServerResponse).socket?.localPort === pair.relay.port,
      );
      expect(relayed).toHaveLength(0);
    } finally {
      write.mockRestore();
    }
    for (const s of streams) s.close();
  });

  it('brings a batch of changes to each visitor as its own symbols, in order, each once', async () => {
    pair = await startPair();
    const wants = ['usd', 'eur,aed', 'usd,eur,aed', 'aed'];
    const streams = wants.map((symbols, i) => new Stream(pair.relay.url, symbols, { from: visitorAddress(i) }));
    await Promise.all(streams.map((s) => s.event((e) => e.event === 'quotes')));
    // Changes made together reach the relay together and go out in one round.
    await control(pair.sandbox.url, 'market', {
      set: [
        { symbol: 'usd', price: '1200010' },
        { symbol: 'eur', price: '1300010' },
        { symbol: 'aed', price: '300010' },
      ],
    });
    await control(pair.sandbox.url, 'market', {
      set: [
        { symbol: 'aed', price: '300020' },
        { symbol: 'usd', price: '1200020' },
        { symbol: 'eur', price: '1300020' },
      ],
    });
    const second = { usd: '1200020', eur: '1300020', aed: '300020' } as Record<string, string>;
    for (const [i, s] of streams.entries()) {
      const symbols = wants[i]!.split(',');
      // The last of the second batch for this visitor: events arrive in order, so all before it are in.
      const last = ['aed', 'usd', 'eur'].filter((x) => symbols.includes(x)).at(-1)!;
      await s.event((e) => e.event === 'quote' && JSON.parse(e.data).price === second[last]);
      const got = s.events
        .filter((e) => e.event === 'quote')
        .map((e) => JSON.parse(e.data) as { symbol: string; price: string });
      const expected = [
        ...['usd', 'eur', 'aed']
          .filter((x) => symbols.includes(x))
          .map((x) => ({ usd: '1200010', eur: '1300010', aed: '300010' })[x]),
        ...['aed', 'usd', 'eur'].filter((x) => symbols.includes(x)).map((x) => second[x]),
      ];
      expect(
        got.map((q) => q.price),
        wants[i],
      ).toEqual(expected);
      const ids = s.events.filter((e) => e.event === 'quote').map((e) => Number(e.id));
      expect(ids, wants[i]).toEqual([...ids].sort((a, b) => a - b));
    }
    for (const s of streams) s.close();
  });

  it('resumes the upstream stream after it drops; visitors keep their connection and get later changes', async () => {
    pair = await startPair();
    // Fault rules apply to connections opened after them: a visitor asking for a new symbol makes
    // the relay reconnect upstream, and that connection is cut after its second event.
    await control(pair.sandbox.url, 'faults', {
      rules: [{ path: '/v1/stream', kind: 'drop_stream', afterEvents: 2, count: 1 }],
    });
    const stream = new Stream(pair.relay.url, 'usd,aed');
    await stream.event((e) => e.event === 'quotes');
    await control(pair.sandbox.url, 'market', { set: [{ symbol: 'usd', price: '1111110' }] });
    await until(
      async () => (await upstreamRequests(pair.sandbox)).filter((r) => r.path === '/v1/stream').length === 3,
      15_000,
    );
    await control(pair.sandbox.url, 'market', { set: [{ symbol: 'aed', price: '290000' }] });
    await stream.event((e) => e.event === 'quote' && JSON.parse(e.data).price === '290000');
    expect(stream.events.map((e) => e.event === 'quote' && JSON.parse(e.data).price).filter(Boolean)).toEqual([
      '1111110',
      '290000',
    ]);
    expect(stream.ended).toBe(false);
  });

  it('disconnects a visitor who stops reading, and keeps serving the others', async () => {
    // The reader shares this busy process with the relay and the sandbox: a short stall limit would
    // drop it too whenever the machine is slow, so the limit is generous and the loop simply runs
    // until the never-reading visitor has been backed up for longer than it.
    pair = await startPair({}, { stallMs: 5_000 });
    const slow = new Stream(pair.relay.url, 'usd', { from: '127.0.9.1' });
    const reader = new Stream(pair.relay.url, 'usd', { from: '127.0.9.2' });
    await slow.event((e) => e.event === 'quotes');
    await reader.event((e) => e.event === 'quotes');
    slow.stopReading();
    let start = Date.now() + 60_000;
    // Enough changes to fill the kernel's socket buffers; then the slow one's frames are conflated
    // and, with no drain for stallMs, it goes.
    await until(async () => {
      await control(pair.sandbox.url, 'market', { set: changes('usd', 2_000, start) });
      start += 2_000;
      return pair.relay.metrics.value('relay_slow_clients_dropped_total') >= 1;
    }, 50_000);
    expect(pair.relay.fanout.size).toBe(1);
    const last = String(1_000_000 + 1_999 * 10);
    await reader.event((e) => JSON.parse(e.data).price === last, 0, 15_000);
    expect(reader.ended).toBe(false);
  }, 60_000);
});
