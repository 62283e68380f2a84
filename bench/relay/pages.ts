/**
 * Relay bench, page loads per minute on a basic key: the experiment at scale. Visitors
 * arrive evenly over one minute; each page load is what a board does (quotes, a 30-day history,
 * the stream's snapshot). Directly against the sandbox with the key in the page (baseline), and
 * through the relay holding the key. Both servers run on one virtual clock, so the minute passes
 * in seconds and the figure does not depend on this machine's speed.
 */
import { request } from 'node:http';
import { readConfig } from '../../relay/config';
import { startRelay } from '../../relay/server';
import { startSandbox } from '../../sandbox/server';

export interface PagesResults {
  attempted: number;
  direct: number;
  relayed: number;
  upstreamViaRelay: number;
}

function status(url: string, from: string, key?: string, stream = false): Promise<number> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = key ? { 'X-API-Key': key } : {};
    const req = request(url, { headers, localAddress: from, agent: false }, (res) => {
      if (!stream) {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        return;
      }
      // A stream is served once its snapshot arrives.
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (chunk.includes('event: quotes')) {
          resolve(res.statusCode ?? 0);
          req.destroy();
        }
      });
      res.on('end', () => resolve(res.statusCode === 200 ? 0 : (res.statusCode ?? 0)));
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

async function pageLoad(base: string, from: string, key?: string): Promise<boolean> {
  const symbols = 'usd,eur,gold_18,coin_emami,ons';
  const codes = await Promise.all([
    status(`${base}/v1/prices?symbols=${symbols}`, from, key),
    status(`${base}/v1/history/usd?days=30`, from, key),
    status(`${base}/v1/stream?symbols=${symbols}`, from, key, true),
  ]);
  return codes.every((c) => c === 200);
}

export async function runRelayPages(attempted = 300): Promise<PagesResults> {
  let virtual = Date.now();
  const now = () => virtual;
  const sandbox = await startSandbox({ port: 0, market: 'open', tickMs: 0, now });
  const relayKey = 'basic-key:bench-pages-relay';
  const config = readConfig({ UPSTREAM_URL: sandbox.url, UPSTREAM_KEY: relayKey, PLAN: 'basic', PORT: '0' });
  const relay = await startRelay({ ...config, upstreamUrl: sandbox.url }, { logSink: () => {}, now });
  try {
    let direct = 0;
    let relayed = 0;
    const start = virtual;
    for (let i = 0; i < attempted; i++) {
      virtual = start + Math.floor((i * 60_000) / attempted);
      const from = `127.0.${200 + (i % 50)}.${1 + Math.floor(i / 50)}`;
      if (await pageLoad(sandbox.url, from, 'basic-key:bench-pages-direct')) direct += 1;
      if (await pageLoad(relay.url, from)) relayed += 1;
    }
    const stats = (await (await fetch(`${sandbox.url}/__sandbox/stats`)).json()) as { requests: { key: string }[] };
    return { attempted, direct, relayed, upstreamViaRelay: stats.requests.filter((r) => r.key === relayKey).length };
  } finally {
    await relay.close();
    await sandbox.close();
  }
}
