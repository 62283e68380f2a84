/**
 * The relay bench's server process: a sandbox (frozen market, changes only on request) and a relay
 * on a basic plan in front of it, alone in their process so that their memory is measured alone
 * and their sockets have this process's file descriptors. Answers IPC: `mem` (after a full GC),
 * `stop`.
 */
import { readConfig } from '../../relay/config';
import { startRelay } from '../../relay/server';
import { startSandbox } from '../../sandbox/server';

const sandbox = await startSandbox({ port: 0, market: 'open', tickMs: 0 });
const config = readConfig({
  UPSTREAM_URL: sandbox.url,
  UPSTREAM_KEY: process.env.BENCH_RELAY_KEY ?? 'basic-key:bench-relay',
  PLAN: 'basic',
  PORT: '0',
  // The bench's clients come from 50 addresses; the per-address limit is not what is measured.
  CLIENT_STREAMS: '100000',
  MAX_CONNECTIONS: '19000',
});
const relay = await startRelay({ ...config, upstreamUrl: sandbox.url }, { logSink: () => {} });

const gc = (globalThis as { gc?: () => void }).gc;
process.on('message', (message: { type: string }) => {
  if (message.type === 'mem') {
    gc?.();
    gc?.();
    const m = process.memoryUsage();
    process.send!({ type: 'mem', rss: m.rss, heapUsed: m.heapUsed, external: m.external, gc: gc !== undefined });
  } else if (message.type === 'stop') {
    void relay.close().then(() => sandbox.close()).then(() => process.exit(0));
  }
});
process.send!({ type: 'ready', sandbox: sandbox.url, relay: relay.url });
