import { afterEach, describe, expect, it } from 'vitest';
import {
  call,
  control,
  SseClient,
  start,
  until,
  type ErrorBody,
  type Quote,
  type SandboxStats,
  useSandbox,
} from './helpers';

const s = useSandbox({ heartbeatMs: 100, retryMs: 1234 });
const open: SseClient[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) c.close();
  await until(async () => (await stats()).openStreams === 0);
  await control(s.url, 'reset');
});

const stats = () => control<SandboxStats>(s.url, 'stats', undefined, 'GET');
async function stream(symbols: string, options: Parameters<typeof SseClient.open>[2] = {}): Promise<SseClient> {
  const client = await SseClient.open(s.url, symbols, options);
  open.push(client);
  return client;
}
const setPrice = (symbol: string, price: string) => control(s.url, 'market', { set: [{ symbol, price }] });

describe('GET /v1/stream', () => {
  it('starts with retry and a snapshot of the subscribed symbols, in order', async () => {
    const c = await stream('eur,usd,ons');
    expect(c.response.status).toBe(200);
    expect(c.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(c.response.headers.get('cache-control')).toContain('no-cache');
    const first = await c.event();
    expect(c.text.startsWith('retry: 1234\n')).toBe(true);
    expect(c.retry).toBe(1234);
    expect(first.event).toBe('quotes');
    expect(first.id).toMatch(/^\d+$/);
    const data = JSON.parse(first.data) as { at: string; quotes: Quote[] };
    expect(data.at).toMatch(/Z$/);
    expect(data.quotes.map((q) => q.symbol)).toEqual(['eur', 'usd', 'ons']);
  });

  it('sends one quote event per change of a subscribed symbol, with rising ids', async () => {
    const c = await stream('usd,eur');
    const snapshot = await c.event();
    await setPrice('gbp', '1400000');
    await setPrice('usd', '1060000');
    await setPrice('eur', '1230000');
    const usd = await c.event((e) => e.event === 'quote');
    const eur = await c.event((e) => e.event === 'quote' && JSON.parse(e.data).symbol === 'eur');
    expect(c.events.map((e) => e.event)).toEqual(['quotes', 'quote', 'quote']);
    expect(JSON.parse(usd.data)).toMatchObject({ symbol: 'usd', price: '1060000', price_toman: '106000' });
    expect(Number(usd.id)).toBeGreaterThan(Number(snapshot.id));
    expect(Number(eur.id)).toBeGreaterThan(Number(usd.id));
  });

  it('sends the changes of a source read', async () => {
    const symbols = 'usd,eur,aed,gbp,try,gold_18,gold_24,coin_emami,coin_bahar,ons';
    const c = await stream(symbols);
    await c.event();
    let changed: string[] = [];
    for (let i = 0; i < 20 && changed.length === 0; i++) {
      const result = await control<{ changed: string[] }>(s.url, 'market', { tick: true });
      changed = result.changed.filter((id) => symbols.split(',').includes(id));
    }
    expect(changed.length).toBeGreaterThan(0);
    await until(() => c.events.filter((e) => e.event === 'quote').length >= changed.length);
    const sent = c.events.filter((e) => e.event === 'quote').map((e) => (JSON.parse(e.data) as Quote).symbol);
    expect(sent).toEqual(changed);
  });

  it('sends comment heartbeats', async () => {
    const c = await stream('usd');
    await until(() => c.comments.length >= 2, 2000);
    expect(c.comments[0]!.trim()).toBe('ping');
    expect(c.text).toContain('\n: ping\n\n');
  });

  it('replays the missed changes after Last-Event-ID instead of a snapshot', async () => {
    const first = await stream('usd,eur');
    const last = (await first.event()).id!;
    first.close();
    await setPrice('usd', '1061000');
    await setPrice('gbp', '1401000');
    await setPrice('eur', '1231000');
    await setPrice('usd', '1062000');
    const resumed = await stream('usd,eur', { lastEventId: last });
    await until(() => resumed.events.length >= 3);
    expect(resumed.events.map((e) => [e.event, (JSON.parse(e.data) as Quote).price])).toEqual([
      ['quote', '1061000'],
      ['quote', '1231000'],
      ['quote', '1062000'],
    ]);
    const ids = resumed.events.map((e) => Number(e.id));
    expect(ids[0]).toBeGreaterThan(Number(last));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    await setPrice('eur', '1232000');
    await resumed.event((e) => e.data.includes('1232000'), 3);
  });

  it('sends a snapshot when Last-Event-ID is unknown or too old', async () => {
    const unknown = await stream('usd', { lastEventId: '999999' });
    expect((await unknown.event()).event).toBe('quotes');
    const garbage = await stream('usd', { lastEventId: 'abc' });
    expect((await garbage.event()).event).toBe('quotes');

    const small = await start({ bufferSize: 2 });
    try {
      const c = await SseClient.open(small.url, 'usd');
      const last = (await c.event()).id!;
      c.close();
      for (const price of ['1061000', '1062000', '1063000'])
        await control(small.url, 'market', { set: [{ symbol: 'usd', price }] });
      const old = await SseClient.open(small.url, 'usd', { lastEventId: last });
      const snapshot = await old.event();
      expect(snapshot.event).toBe('quotes');
      expect(snapshot.data).toContain('1063000');
      old.close();
    } finally {
      await small.close();
    }
  });

  it('sends no change while the market is closed', async () => {
    const c = await stream('usd,eur,gold_18,coin_emami,ons');
    const snapshot = await c.event();
    const result = await control<{ open: boolean; changed: string[] }>(s.url, 'market', { open: false, tick: true });
    expect(result).toMatchObject({ open: false, changed: [] });
    for (let i = 0; i < 5; i++)
      expect((await control<{ changed: string[] }>(s.url, 'market', { tick: true })).changed).toEqual([]);
    // Events on a stream arrive in order: once a marker pushed after the ticks is in, so is any change.
    await control(s.url, 'push', { event: 'marker', data: 'm' });
    await c.event((e) => e.event === 'marker');
    expect(c.events.map((e) => e.event)).toEqual(['quotes', 'marker']);
    const now = await call(s.url, '/v1/prices?symbols=usd,eur,gold_18,coin_emami,ons', { key: 'pro-key' });
    const quotes = ((await now.json()) as { data: { quotes: Quote[] } }).data.quotes;
    expect(quotes).toEqual((JSON.parse(snapshot.data) as { quotes: Quote[] }).quotes);
  });

  it('passes pushed events and raw bytes to every stream', async () => {
    const a = await stream('usd');
    const b = await stream('eur');
    await a.event();
    await b.event();
    await control(s.url, 'push', { event: 'mystery', data: { x: 1 } });
    await control(s.url, 'push', { event: 'quote', data: '{not json' });
    await control(s.url, 'push', { raw: 'event: rawone\ndata: hi\n\n' });
    for (const c of [a, b]) {
      await until(() => c.events.length >= 4);
      expect(c.events.slice(1).map((e) => [e.event, e.data])).toEqual([
        ['mystery', '{"x":1}'],
        ['quote', '{not json'],
        ['rawone', 'hi'],
      ]);
    }
  });

  it('counts open streams exactly, down again when clients leave', async () => {
    await control(s.url, 'reset');
    const a = await stream('usd');
    const b = await stream('usd,eur');
    await a.event();
    await b.event();
    expect(await stats()).toMatchObject({ openStreams: 2, streamsOpened: 2 });
    a.close();
    await until(async () => (await stats()).openStreams === 1);
    b.close();
    await until(async () => (await stats()).openStreams === 0);
    expect((await stats()).streamsOpened).toBe(2);
  });

  it('sends open streams a fresh snapshot on reset, and does not resume across it', async () => {
    const c = await stream('usd');
    const before = (await c.event()).id!;
    await setPrice('usd', '1070000');
    await c.event((e) => e.event === 'quote');
    await control(s.url, 'reset');
    const snapshot = await c.event((e) => e.event === 'quotes', 1);
    expect(Number(snapshot.id)).toBeGreaterThan(Number(before));
    const resumed = await stream('usd', { lastEventId: before });
    expect((await resumed.event()).event).toBe('quotes');
  });

  it('checks key, symbols and limits like the other endpoints', async () => {
    const noKey = await call(s.url, '/v1/stream?symbols=usd');
    expect(noKey.status).toBe(401);
    const unknown = await call(s.url, '/v1/stream?symbols=usd,zzz', { key: 'pro-key' });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as ErrorBody).error).toMatchObject({ code: 'unknown_symbol', symbols: ['zzz'] });
    expect((await call(s.url, '/v1/stream', { key: 'pro-key' })).status).toBe(400);
    const wrongOrigin = await call(s.url, '/v1/stream?symbols=usd', {
      key: 'restricted-key',
      origin: 'https://x.example',
    });
    expect(wrongOrigin.status).toBe(403);
    const ok = await stream('usd', { key: 'restricted-key', origin: 'https://allowed.example' });
    expect(ok.response.status).toBe(200);
    expect(ok.response.headers.get('access-control-allow-origin')).toBe('https://allowed.example');
  });

  it('reads the source on its own every tickMs', async () => {
    const own = await start({ tickMs: 20 });
    try {
      const c = await SseClient.open(own.url, 'usd,eur,gold_18,coin_emami,ons');
      await c.event((e) => e.event === 'quote', 0, 2000);
      c.close();
    } finally {
      await own.close();
    }
  });

  it('ends open streams when the sandbox closes', async () => {
    const own = await start();
    const c = await SseClient.open(own.url, 'usd');
    await c.event();
    await own.close();
    await until(() => c.ended);
  });
});
