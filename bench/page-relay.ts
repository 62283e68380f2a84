/**
 * A relay for the bench's page loads (./keyless, ./rendered): enterprise plan, in front of the
 * bench's sandbox, serving `dist/`, on its own origin, with no per-visitor limit (every page
 * load comes from 127.0.0.1), and its `/v1/prices` GETs counted.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readConfig } from '../relay/config';
import { startRelay, type Relay } from '../relay/server';
import type { BenchServer } from './server';
import { countRequests, isPricesGet } from './util';

export interface PageRelay {
  relay: Relay;
  /** `/v1/prices` GETs it has received so far. */
  prices(): number;
  close(): Promise<void>;
}

/** A port free now (a PUBLIC_URL must name its port before the relay listens). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** `publicUrl`: PUBLIC_URL set to the relay's own origin (its fragments' module script comes from it). */
export async function startPageRelay(
  server: BenchServer,
  opts: { upstreamKey: string; dist: string; publicUrl?: boolean },
): Promise<PageRelay> {
  const port = opts.publicUrl ? await freePort() : 0;
  const config = readConfig({
    UPSTREAM_URL: server.url,
    UPSTREAM_KEY: opts.upstreamKey,
    PLAN: 'enterprise',
    PORT: String(port),
    ...(opts.publicUrl ? { PUBLIC_URL: `http://127.0.0.1:${port}` } : {}),
    CLIENT_RPM: '1000000',
    CLIENT_STREAMS: '100000',
  });
  const relay = await startRelay({ ...config, upstreamUrl: server.url }, { logSink: () => {}, distDir: opts.dist });
  const prices = countRequests(relay.port, isPricesGet);
  return {
    relay,
    prices: prices.count,
    close: async () => {
      prices.stop();
      await relay.close();
    },
  };
}
