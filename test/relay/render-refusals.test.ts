// A fragment's refusals carry no body (docs/relay.md "Refusals carry no body"): a site's server puts
// whatever body it gets into its page (nginx SSI does, for any status). Over real HTTP to a relay on
// the sandbox: `/render` naming no widget, and a query too long for node to read (431, refused
// before the relay's routes see it), while the API keeps its JSON refusals.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, startPair, type Pair } from './helpers';

let pair: Pair;
beforeAll(async () => {
  pair = await startPair({ CLIENT_RPM: '1000000' });
});
afterAll(() => pair.close());

/** One request written at once on its own connection; the answer's head and body, as sent. */
function raw(target: string): Promise<{ status: number; head: string; body: string }> {
  const { port } = new URL(pair.relay.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: Number(port) });
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const end = text.indexOf('\r\n\r\n');
      resolve({ status: Number(text.slice(9, 12)), head: text.slice(0, end), body: text.slice(end + 4) });
    });
    socket.write(`GET ${target} HTTP/1.1\r\nHost: relay\r\nConnection: close\r\n\r\n`);
  });
}

describe('a refused fragment', () => {
  it('naming no widget (/render, /render/) is a 404 with no body, its detail in a header', async () => {
    for (const path of ['/render', '/render?symbols=usd', '/render/']) {
      const answer = await get(pair.relay.url, path);
      expect([path, answer.status, answer.body]).toEqual([path, 404, '']);
      expect(answer.headers['x-price-board-error']).toMatch(/^not_found: /);
    }
  });

  it('with a query too long to read is a 431 with no body, its detail in a header', async () => {
    const answer = await raw(`/render/price-board?symbols=usd&link=${'x'.repeat(20_000)}`);
    expect(answer.status).toBe(431);
    expect(answer.body).toBe('');
    expect(answer.head).toMatch(/\r\nContent-Length: 0\r\n/i);
    expect(answer.head).toMatch(/\r\nX-Price-Board-Error: bad_request: the request could not be read(\r\n|$)/i);
  });

  it('leaves the API’s refusals in the service’s JSON shape', async () => {
    const long = await raw(`/v1/prices?symbols=usd&x=${'x'.repeat(20_000)}`);
    expect(long.status).toBe(431);
    expect(JSON.parse(long.body)).toEqual({ error: { code: 'bad_request', message: 'the request could not be read' } });
    const missing = await get(pair.relay.url, '/v1/nothing');
    expect(JSON.parse(missing.body).error.code).toBe('not_found');
  });
});
