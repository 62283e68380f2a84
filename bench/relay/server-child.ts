/**
 * The relay bench's server process: a sandbox (frozen market, changes only on request) and a relay
 * on a basic plan in front of it, alone in their process so that their memory is measured alone
 * and their sockets have this process's file descriptors. It also makes the changes (`drive`):
 * each price is the epoch ms of the change, taken right before the sandbox publishes it, so a
 * receipt's latency counts the whole path, upstream → relay → client. IPC: `mem` (after a full
 * GC), `drive`, `stop`.
 */
import { loadavg } from 'node:os';
import { readConfig } from '../../relay/config';
import { createMemoryEngine } from '../../relay/engine/memory';
import { startRelay } from '../../relay/server';
import { startSandbox } from '../../sandbox/server';
import type { DriveResult } from './fanout';

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
const engine = createMemoryEngine();
const relay = await startRelay({ ...config, upstreamUrl: sandbox.url }, { logSink: () => {}, engine });

/** Per change of the current drive (by its price): when the relay received it and had written it to every client. */
let relayTimes = new Map<number, { received: number; written: number }>();
// Subscribed after the relay's fan-out, so this runs once the fan-out has written the change;
// timed on the next tick, after any writes that http's `res.write` corks until then.
engine.broker.subscribe((events) =>
  process.nextTick(() => {
    const written = Date.now();
    for (const e of events) relayTimes.set(Number(e.quote.price), { received: e.receivedAt, written });
  }),
);

/** `perSecond` changes a second for `seconds`; the prices are the changes' epoch ms. */
async function drive(target: 'relay' | 'sandbox', seconds: number, perSecond: number): Promise<DriveResult> {
  relayTimes = new Map();
  const made: number[] = [];
  const sandboxWrite: number[] = [];
  const cpu = process.cpuUsage();
  const start = Date.now();
  for (let i = 0; i < seconds * perSecond; i++) {
    const due = start + (i * 1000) / perSecond;
    await new Promise((r) => setTimeout(r, Math.max(0, due - Date.now())));
    const t0 = Math.max(Date.now(), (made.at(-1) ?? 0) + 1);
    made.push(t0);
    // The sandbox writes to its own streams in this call, and the corked writes on the next tick.
    sandbox.sandbox.market.set([{ symbol: 'usd', price: String(t0) }]);
    process.nextTick(() => sandboxWrite.push(Date.now() - t0));
  }
  // A server short of CPU makes its changes late: the rate achieved is reported beside the figure.
  const rate = made.length / Math.max(0.001, (made.at(-1)! - made[0]!) / 1000 + 1 / perSecond);
  if (target === 'relay') await new Promise((r) => setTimeout(r, 1_000)); // the last change's way through the relay
  const used = process.cpuUsage(cpu);
  const relayed = made.flatMap((t0) => {
    const t = relayTimes.get(t0);
    return t ? [{ t0, ...t }] : [];
  });
  return {
    changes: made.length,
    rate,
    upstream: target === 'relay' ? relayed.map((t) => t.received - t.t0) : [],
    write: target === 'relay' ? relayed.map((t) => t.written - t.received) : sandboxWrite,
    cpuShare: (used.user + used.system) / 1000 / (Date.now() - start),
    seconds: (Date.now() - start) / 1000,
    load: loadavg()[0]!,
  };
}

const gc = (globalThis as { gc?: () => void }).gc;
process.on('message', (message: { type: string; target?: 'relay' | 'sandbox'; seconds?: number; perSecond?: number }) => {
  if (message.type === 'mem') {
    gc?.();
    gc?.();
    const m = process.memoryUsage();
    process.send!({ type: 'mem', rss: m.rss, heapUsed: m.heapUsed, external: m.external, gc: gc !== undefined });
  } else if (message.type === 'drive') {
    void drive(message.target!, message.seconds!, message.perSecond!).then((r) => process.send!({ type: 'driven', ...r }));
  } else if (message.type === 'stop') {
    void relay.close().then(() => sandbox.close()).then(() => process.exit(0));
  }
});
process.send!({ type: 'ready', sandbox: sandbox.url, relay: relay.url });
