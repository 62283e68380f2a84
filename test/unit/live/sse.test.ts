import { beforeEach, describe, expect, it } from 'vitest';
import { PriceBoardError } from '../../../src/shared/errors';
import { pendingWork } from '../../helpers/pending-work';
import { openSse } from '../../../src/live/sse';
import { useTestSandbox } from '../api/sandbox-control';

const sb = useTestSandbox();
let n = 0;
let key: string;

beforeEach(() => {
  key = `pro-key:sse${++n}`;
});

interface Seen {
  name: string;
  data: string;
  id: string | undefined;
}

describe('openSse', () => {
  it('opens with the right headers and reads the snapshot and later events', async () => {
    const sent: Record<string, string>[] = [];
    const events: Seen[] = [];
    const retries: number[] = [];
    const controller = new AbortController();
    let opened = false;
    const done = openSse({
      url: `${sb.url}/v1/stream?symbols=usd,eur`,
      apiKey: key,
      lastEventId: undefined,
      signal: controller.signal,
      fetch: (input, init) => {
        sent.push(init.headers as Record<string, string>);
        return fetch(input, init);
      },
      onOpen: () => (opened = true),
      onRetry: (ms) => retries.push(ms),
      onEvent: (name, data, id) => events.push({ name, data, id }),
    });
    await expect.poll(() => events.length).toBe(1);
    expect(opened).toBe(true);
    expect(retries).toEqual([50]);
    expect(sent[0]).toMatchObject({ 'X-API-Key': key, Accept: 'text/event-stream' });
    expect(events[0]?.name).toBe('quotes');
    expect(JSON.parse(events[0]!.data).quotes.map((q: { symbol: string }) => q.symbol)).toEqual(['usd', 'eur']);

    await sb.market({ set: [{ symbol: 'eur', price: '1200000' }] });
    await expect.poll(() => events.length).toBe(2);
    expect(events[1]).toMatchObject({ name: 'quote' });
    expect(JSON.parse(events[1]!.data)).toMatchObject({ symbol: 'eur', price: '1200000' });
    expect(Number(events[1]!.id)).toBeGreaterThan(Number(events[0]!.id ?? 0));

    controller.abort();
    await expect(done).rejects.toMatchObject({ name: 'AbortError' });
    await expect.poll(async () => (await sb.stats()).openStreams).toBe(0);
    expect(pendingWork()).toEqual({ timers: 0, requests: 0 });
    expect((await sb.stats()).keyInUrl).toBe(0);
  });

  it('maps a non-2xx answer like the client does', async () => {
    const errors: PriceBoardError[] = [];
    const error = await openSse({
      url: `${sb.url}/v1/stream?symbols=usd`,
      apiKey: 'wrong-key',
      onEvent: () => {},
      onError: (e) => errors.push(e),
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'unauthorized', status: 401 });
    expect(errors).toEqual([error]);
  });

  it('rejects a 2xx that is not an event stream as bad_response', async () => {
    await sb.faults([{ path: '/v1/stream', kind: 'status', status: 200, body: '{"data":[]}' }]);
    const error = await openSse({ url: `${sb.url}/v1/stream?symbols=usd`, apiKey: key, onEvent: () => {} }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'bad_response', data: { contentType: 'application/json; charset=utf-8' } });
  });

  it('resolves when the server ends the stream', async () => {
    await sb.faults([{ path: '/v1/stream', kind: 'drop_stream', afterEvents: 1 }]);
    const events: string[] = [];
    const result = await openSse({
      url: `${sb.url}/v1/stream?symbols=usd`,
      apiKey: key,
      onEvent: (name) => events.push(name),
    }).then(
      () => 'ended',
      (e: unknown) => e,
    );
    // A destroyed socket may surface as a clean end or as a network error; both end the read.
    expect(result === 'ended' || (result instanceof PriceBoardError && result.code === 'network')).toBe(true);
    expect(events).toEqual(['quotes']);
  });
});
