// `npm run relay` / `price-board-relay`: the relay configured from the environment. Without
// UPSTREAM_URL it relays a sandbox started in-process, so it works on a fresh machine.
import type { StartedSandbox } from '../sandbox/server';
import { ConfigError, readConfig, type RelayConfig } from './config';
import { connectCluster } from './engine/connect';
import { startRelay } from './server';

let config: RelayConfig;
try {
  config = readConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`price-board-relay: ${error.message}`);
  process.exit(2);
}

let sandbox: StartedSandbox | undefined;
if (!config.upstreamUrl) {
  // The sandbox is loaded only in this mode: a relay in front of a real service never runs it.
  const { startSandbox } = await import('../sandbox/server');
  // A market that moves at any hour, as `npm start`'s (SANDBOX_MARKET=auto follows Tehran hours).
  const market = (process.env.SANDBOX_MARKET || 'open') as 'auto' | 'open' | 'closed';
  sandbox = await startSandbox({ port: 0, host: '127.0.0.1', market });
}
const engine = config.redisUrl ? await connectCluster(config.redisUrl) : undefined;
const relay = await startRelay({ ...config, upstreamUrl: config.upstreamUrl ?? sandbox!.url }, { engine });
console.log(
  `Price relay: ${relay.url} (upstream: ${sandbox ? `in-process sandbox ${sandbox.url}` : config.upstreamUrl})`,
);

let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  void relay
    .close()
    .then(() => sandbox?.close())
    .then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
