/**
 * The render bench's relay process (./render-cost.ts): a relay alone in its process, in front of
 * the upstream named by UPSTREAM_URL (the bench's sandbox, in the parent), so that its CPU time
 * and memory are the relay's alone. IPC: `cpu` (its `process.cpuUsage()`), `mem` (after a full
 * GC), `peak` (the highest RSS seen since the last `peak`, sampled every 20 ms). Stopped by a kill.
 */
import { readConfig } from '../../relay/config';
import { startRelay } from '../../relay/server';
import { memoryAnswer } from './paced';

const upstreamUrl = process.env.UPSTREAM_URL!;
const config = readConfig({
  UPSTREAM_URL: upstreamUrl,
  UPSTREAM_KEY: process.env.UPSTREAM_KEY!,
  PLAN: 'enterprise',
  PORT: '0',
  // The bench asks from one address: the per-address limit is not what is measured.
  CLIENT_RPM: '1000000',
});
// The sandbox's market is frozen (prices change only when the bench says), so its stream says
// nothing readable: the relay would replace it every 45 s (a stream and a prices request of its
// own, whatever the visitors do). Past the run, so that the upstream requests counted are the renders'.
const relay = await startRelay(
  { ...config, upstreamUrl },
  { logSink: () => {}, upstream: { staleAfterMs: 30 * 60_000 } },
);

let peak = 0;
setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20).unref();

process.on('message', (message: { type: string }) => {
  if (message.type === 'cpu') process.send!({ type: 'cpu', ...process.cpuUsage() });
  else if (message.type === 'mem') process.send!(memoryAnswer());
  else if (message.type === 'peak') {
    process.send!({ type: 'peak', peak: Math.max(peak, process.memoryUsage.rss()) });
    peak = 0;
  }
});
process.send!({ type: 'ready', relay: relay.url });
