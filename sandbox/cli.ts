// `npm run sandbox`: the sandbox alone on PORT (default 8787) at HOST (default 127.0.0.1).
import { startSandbox } from './server';
import type { MarketMode } from './types';

const started = await startSandbox({
  port: Number(process.env.PORT || 8787),
  host: process.env.HOST || '127.0.0.1',
  market: (process.env.SANDBOX_MARKET || 'auto') as MarketMode,
  ...(process.env.SANDBOX_MAX_STREAMS_PER_KEY
    ? { maxStreamsPerKey: Number(process.env.SANDBOX_MAX_STREAMS_PER_KEY) }
    : {}),
});
console.log(
  `Sandbox price service: ${started.url} (keys: demo-key, basic-key, pro-key, enterprise-key, restricted-key)`,
);

const stop = () => {
  void started.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
