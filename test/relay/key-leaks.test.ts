// Nothing of the key, ever (DESIGN.md §7.1): upstream error text is never forwarded (the relay
// writes its own message by code), and bodies passed through (history, symbols, prices) are
// checked: one holding the key is refused, whatever its shape or where the key sits in it. Over
// real HTTP, with a controllable upstream (a real node:http server) that echoes the key back.
import { afterEach, describe, expect, it } from 'vitest';
import { readConfig } from '../../relay/config';
import { errorFromResponse } from '../../src/api/http-error-map';
import { startRelay, type Relay } from '../../relay/server';
import { get } from './helpers';
import { historyBody, startUpstream, type UpstreamDouble } from './upstream-double';

const KEY = 'sk-live-9f8e7d6c5b4a39281706f5e4d3c2b1a0';
const SYMBOLS = Array.from({ length: 40 }, (_, i) => `s${i}`);
const opened: { close(): Promise<void> }[] = [];

async function start(
  prepare?: (upstream: UpstreamDouble) => void,
): Promise<{ relay: Relay; upstream: UpstreamDouble; logs: string[] }> {
  const upstream = await startUpstream({ symbols: SYMBOLS });
  prepare?.(upstream);
  opened.push(upstream);
  const logs: string[] = [];
  const config = readConfig({
    UPSTREAM_URL: upstream.url,
    UPSTREAM_KEY: KEY,
    PORT: '0',
    CLIENT_RPM: '100000',
    PLAN: 'enterprise',
  });
  const relay = await startRelay(
    { ...config, upstreamUrl: upstream.url },
    { logSink: (line) => logs.push(line), now: Date.now },
  );
  opened.unshift(relay);
  return { relay, upstream, logs };
}

afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
});

/** Any piece of the key of 6 characters or more (a fragment is a leak too). */
function fragmentOf(text: string): string | undefined {
  for (let i = 0; i + 6 <= KEY.length; i++) if (text.includes(KEY.slice(i, i + 6))) return KEY.slice(i, i + 6);
  return undefined;
}

describe('upstream error text', () => {
  it('is never forwarded: the relay answers with its own message by code, wherever the key sits in the upstream message', async () => {
    // Each symbol fails with the key at another place in a long message, under each status.
    const cases = SYMBOLS.map((symbol, i) => {
      const status = [404, 500, 429, 403, 502][i % 5]!;
      const code = {
        404: 'unknown_symbol',
        500: 'internal',
        429: 'rate_limited',
        403: 'plan_limit',
        502: 'bad_gateway',
      }[status]!;
      const message = `${'.'.repeat(40 + i * 5)}${KEY} and more text after it ${'!'.repeat(200)}`;
      return { symbol, status, code, message };
    });
    const { relay } = await start((upstream) => {
      upstream.history = (symbol) => {
        const c = cases.find((x) => x.symbol === symbol)!;
        return {
          status: c.status,
          body: JSON.stringify({ error: { code: c.code, message: c.message } }),
          headers: { 'Retry-After': '1' },
        };
      };
    });
    for (const [i, c] of cases.entries()) {
      const answer = await get(relay.url, `/v1/history/${c.symbol}?days=7`, { from: `127.2.0.${1 + i}` });
      expect(answer.status, c.symbol).toBeGreaterThanOrEqual(400);
      const text = JSON.stringify(answer.headers) + answer.body;
      expect(fragmentOf(text), `${c.symbol} ${c.status}`).toBeUndefined();
      expect(answer.body, c.symbol).not.toContain('more text after it');
    }
  });
});

describe('bodies passed through', () => {
  it('a history body holding the key is refused (not served, not cached), wherever the key is', async () => {
    const now = Date.now();
    const t = Math.floor(now / 1000);
    const bodies: Record<string, string> = {
      s0: JSON.stringify({ data: { points: [{ t, price: '100' }], note: KEY } }),
      s1: JSON.stringify({ data: { points: [{ t, price: '100', debug: `key=${KEY}` }] } }),
      s2: JSON.stringify({ data: [[t, '100', KEY]] }),
      s3: JSON.stringify({ [KEY]: 1, data: { points: [{ t, price: '100' }] } }),
      // Escaped in the upstream JSON: the same key once parsed.
      s4: `{"data":{"points":[{"t":${t},"price":"100"}],"x":"${[...KEY].map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"}}`,
    };
    const { relay, upstream, logs } = await start((u) => {
      u.history = (symbol) => (bodies[symbol] ? { status: 200, body: bodies[symbol] } : undefined);
    });
    for (const symbol of Object.keys(bodies)) {
      for (let k = 0; k < 2; k++) {
        const answer = await get(relay.url, `/v1/history/${symbol}?days=7`, { from: '127.2.1.1' });
        expect(answer.status, symbol).toBe(502);
        expect(fragmentOf(answer.body), symbol).toBeUndefined();
      }
    }
    // Not cached: each ask went upstream again. And the operator is told (the key masked).
    expect(upstream.histories().filter((h) => h.endsWith(':7'))).toHaveLength(10);
    expect(logs.filter((l) => l.includes('"upstream_body_refused"')).length).toBeGreaterThanOrEqual(5);
    expect(logs.some((l) => fragmentOf(l))).toBe(false);
    // A clean body is served as the service's shape, its exact decimal strings kept.
    upstream.history = undefined;
    const clean = await get(relay.url, '/v1/history/s9?days=7', { from: '127.2.1.2' });
    expect(clean.status).toBe(200);
    expect(JSON.parse(clean.body)).toEqual(
      JSON.parse(historyBody(7, Number(JSON.parse(clean.body).data.points[6].t) * 1000)),
    );
  });

  it('a history body the board cannot draw is refused, not cached', async () => {
    const { relay, upstream } = await start((u) => {
      u.history = (symbol) =>
        ({
          s0: { status: 200, body: JSON.stringify({ data: 'hello' }) },
          s1: { status: 200, body: JSON.stringify({ data: { points: [{ t: 'yesterday', price: 'much' }] } }) },
          s2: { status: 200, body: '<html>gateway</html>' },
        })[symbol];
    });
    for (const symbol of ['s0', 's1', 's2']) {
      const answer = await get(relay.url, `/v1/history/${symbol}?days=7`, { from: '127.2.2.1' });
      expect(answer.status, symbol).toBeGreaterThanOrEqual(500);
      expect(JSON.parse(answer.body).error.code, symbol).toMatch(/^(bad_response|upstream_unavailable)$/);
    }
    expect(upstream.histories()).toEqual(['s0:7', 's1:7', 's2:7']);
  });

  it('a symbols list holding the key is not served', async () => {
    const { relay } = await start((u) => {
      u.symbols = () => ({
        status: 200,
        body: JSON.stringify({
          data: {
            symbols: [
              { symbol: 's0', title: `USD ${KEY}` },
              { symbol: 's1', title: 'EUR' },
            ],
          },
        }),
      });
    });
    const answer = await get(relay.url, '/v1/symbols', { from: '127.2.3.1' });
    expect(answer.status).toBe(502);
    expect(fragmentOf(answer.body)).toBeUndefined();
  });
});

describe('error text that may reach a log', () => {
  it('holds no fragment of the key wherever the key sits in a long upstream message', async () => {
    for (let at = 0; at <= 260; at++) {
      const body = JSON.stringify({
        error: { code: 'internal', message: `${'.'.repeat(at)}${KEY}${'!'.repeat(300)}` },
      });
      const error = await errorFromResponse(new Response(body, { status: 500 }), {
        what: 'history of usd',
        apiKey: KEY,
      });
      expect(fragmentOf(error.message), `key at ${at}`).toBeUndefined();
      expect(error.message.length).toBeLessThanOrEqual(201);
    }
  });
});
