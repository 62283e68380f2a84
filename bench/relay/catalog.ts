/**
 * Relay bench, a big catalog (DESIGN.md §7.1): the relay's CPU per `/v1/prices` when the upstream's
 * catalog holds 100,000 symbols (7 MB of JSON), beside the sandbox's own 152. The upstream is the
 * sandbox behind a small proxy that answers `/v1/symbols` with the big list (the sandbox's symbols
 * first, so its quotes are served) and passes everything else through. Each run, after a warm-up, asks the same
 * prices from one address, one request at a time; the CPU is this process's (relay, upstream and
 * the asking client, the same in both runs), divided by the requests.
 *
 * Run alone: `npx tsx bench/relay/catalog.ts`.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readConfig } from '../../relay/config';
import { startRelay } from '../../relay/server';
import { startSandbox } from '../../sandbox/server';
import { forward } from '../../test/helpers/forward';
import { printWhenRunAlone, symbolIds } from '../util';

export interface CatalogRun {
  symbols: number;
  catalogBytes: number;
  requests: number;
  /** CPU ms per request (user + system). */
  cpuPerRequest: number;
  p50: number;
  failed: number;
}

export interface CatalogResults {
  big: CatalogRun;
  small: CatalogRun;
}

const SYMBOLS = 'usd,eur,gold_18,coin_emami,ons';
const KEY = 'enterprise-key:bench-catalog';

/** The sandbox behind a proxy whose `/v1/symbols` is `size` symbols long. */
async function bigCatalogUpstream(
  sandboxUrl: string,
  size: number,
): Promise<{ url: string; bytes: number; server: Server }> {
  const own = (await (await fetch(`${sandboxUrl}/v1/symbols`, { headers: { 'X-API-Key': KEY } })).json()) as {
    data: { symbols: unknown[] };
  };
  const extra = Array.from({ length: size - own.data.symbols.length }, (_, i) => ({
    symbol: `x_${i}`,
    title: `نماد ${i}`,
    category: 'currency',
    unit: 'IRR',
  }));
  const body = JSON.stringify({ data: { symbols: [...own.data.symbols, ...extra] } });
  const target = new URL(sandboxUrl);
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/v1/symbols')) {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) });
      return void res.end(body);
    }
    forward(req, res, target);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bytes: Buffer.byteLength(body), server };
}

function ask(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

/** `requests` prices requests to a relay whose upstream catalog holds `size` symbols (0: the sandbox's own). */
async function run(size: number, requests: number): Promise<CatalogRun> {
  const sandbox = await startSandbox({ port: 0, market: 'open', tickMs: 0 });
  const upstream = size > 0 ? await bigCatalogUpstream(sandbox.url, size) : undefined;
  const upstreamUrl = upstream?.url ?? sandbox.url;
  const config = readConfig({ UPSTREAM_URL: upstreamUrl, UPSTREAM_KEY: KEY, PORT: '0', CLIENT_RPM: '1000000' });
  const relay = await startRelay({ ...config, upstreamUrl }, { logSink: () => {} });
  try {
    const url = `${relay.url}/v1/prices?symbols=${SYMBOLS}`;
    for (let i = 0; i < 20 && (await ask(url)) !== 200; i++) await new Promise((r) => setTimeout(r, 250));
    // Warm (the code compiled), as a relay that has served a while.
    for (let i = 0; i < Math.min(50, requests); i++) await ask(url);
    const symbols = symbolIds(await (await fetch(`${relay.url}/v1/symbols`)).json()).length;
    const latencies: number[] = [];
    let failed = 0;
    const cpu = process.cpuUsage();
    for (let i = 0; i < requests; i++) {
      const t0 = performance.now();
      if ((await ask(url)) !== 200) failed += 1;
      latencies.push(performance.now() - t0);
    }
    const used = process.cpuUsage(cpu);
    latencies.sort((a, b) => a - b);
    return {
      symbols,
      catalogBytes: upstream?.bytes ?? 0,
      requests,
      cpuPerRequest: Math.round(((used.user + used.system) / 1000 / requests) * 100) / 100,
      p50: Math.round(latencies[Math.floor(latencies.length / 2)]! * 10) / 10,
      failed,
    };
  } finally {
    await relay.close();
    await new Promise<void>((resolve) => (upstream ? upstream.server.close(() => resolve()) : resolve()));
    await sandbox.close();
  }
}

export async function runRelayCatalog(log: (line: string) => void, requests = 200): Promise<CatalogResults> {
  const small = await run(0, requests);
  log(`  ${small.symbols}-symbol catalog: ${small.cpuPerRequest} ms CPU per /v1/prices, p50 ${small.p50} ms`);
  const big = await run(100_000, requests);
  log(`  ${big.symbols}-symbol catalog: ${big.cpuPerRequest} ms CPU per /v1/prices, p50 ${big.p50} ms`);
  return { big, small };
}

printWhenRunAlone(import.meta.url, () => runRelayCatalog(console.log));
