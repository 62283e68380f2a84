/**
 * The relay bench's server process: a sandbox (frozen market, changes only on request) and a relay
 * on a basic plan in front of it, alone in their process so that their memory is measured alone
 * and their sockets have this process's file descriptors. It also makes the changes (`drive`):
 * each price is the epoch ms of the change, taken right before the sandbox publishes it, so a
 * receipt's latency counts the whole path, upstream → relay → client. IPC: `mem` (after a full
 * GC), `drive`, `stop`.
 */
import { readConfig } from '../../relay/config';
import { createMemoryEngine } from '../../relay/engine/memory';
import { startRelay } from '../../relay/server';
import { startSandbox } from '../../sandbox/server';
import type { DriveResult } from './fanout';
import { memoryAnswer, paced } from './paced';

const sandbox = await startSandbox({ port: 0, market: 'open', tickMs: 0 });
const config = readConfig({
  UPSTREAM_URL: sandbox.url,
  UPSTREAM_KEY: process.env.BENCH_RELAY_KEY ?? 'basic-key:bench-relay',
  PLAN: 'basic',
  PORT: '0',
  // The bench's clients come from 50 addresses; the per-address limits (stream opens count as
  // requests) are not what is measured.
  CLIENT_STREAMS: '100000',
  CLIENT_RPM: '1000000',
  MAX_CONNECTIONS: '19000',
});
const engine = createMemoryEngine();
const relay = await startRelay({ ...config, upstreamUrl: sandbox.url }, { logSink: () => {}, engine });

/** Per change of the current drive (by its price): when the relay received it and had written it to every client. */
let relayTimes = new Map<number, { received: number; written: number }>();
// Told by the fan-out once it has written a change to every client.
relay.fanout.onDelivered = (events) => {
  const written = Date.now();
  for (const e of events) relayTimes.set(Number(e.quote.price), { received: e.receivedAt, written });
};

/** `perSecond` changes a second for `seconds`; the prices are the changes' epoch ms. */
async function drive(target: 'relay' | 'sandbox', seconds: number, perSecond: number): Promise<DriveResult> {
  relayTimes = new Map();
  const sandboxWrite: number[] = [];
  const run = await paced(
    seconds,
    perSecond,
    (t0s) => {
      // One upstream change each (the relay merges those it reads together); the sandbox writes to
      // its own streams in this call, and the corked writes on the next tick.
      for (const t0 of t0s) {
        const made = Date.now();
        sandbox.sandbox.market.set([{ symbol: 'usd', price: String(t0) }]);
        process.nextTick(() => sandboxWrite.push(Date.now() - made));
      }
    },
    target === 'relay' ? 1_000 : 0, // the last change's way through the relay
  );
  const relayed = run.made.flatMap((t0) => {
    const t = relayTimes.get(t0);
    return t ? [{ t0, ...t }] : [];
  });
  return {
    changes: run.made.length,
    rate: run.rate,
    late: run.late,
    upstream: target === 'relay' ? relayed.map((t) => t.received - t.t0) : [],
    write: target === 'relay' ? relayed.map((t) => t.written - t.received) : sandboxWrite,
    cpu: run.cpu,
    cpuShare: (run.cpu.user + run.cpu.system) / run.wallMs,
    seconds: run.wallMs / 1000,
    load: run.load,
  };
}

process.on(
  'message',
  (message: { type: string; target?: 'relay' | 'sandbox'; seconds?: number; perSecond?: number }) => {
    if (message.type === 'mem') process.send!(memoryAnswer());
    else if (message.type === 'drive') {
      void drive(message.target!, message.seconds!, message.perSecond!).then((r) =>
        process.send!({ type: 'driven', ...r }),
      );
    } else if (message.type === 'stop') {
      void relay
        .close()
        .then(() => sandbox.close())
        .then(() => process.exit(0));
    }
  },
);
process.send!({ type: 'ready', sandbox: sandbox.url, relay: relay.url });
