// Starts one real sandbox price service for the browser tests and hands its address to them
// (`inject('sandboxUrl')`), and a real relay (`inject('relayUrl')`: today's chart is the relay's
// own record) in front of a second sandbox whose market is closed (so the first one's request log
// and open streams stay the tests' own). Neither moves a price on its own (`tickMs: 0`): a price
// a test sets stays until a test sets another, which a read of the source could otherwise replace
// before the board shows it. The page under test is on another origin, so CORS is exercised too.
import type { TestProject } from 'vitest/node';
import { readConfig } from '../../relay/config';
import { startRelay } from '../../relay/server';
import { startSandbox } from '../../sandbox/server';

declare module 'vitest' {
  export interface ProvidedContext {
    sandboxUrl: string;
    /** A relay on its own sandbox (`relayUpstreamUrl`, frozen market). */
    relayUrl: string;
    relayUpstreamUrl: string;
    /** `CHAOS=full` (npm run test:chaos): the reliability suite runs its long schedule. */
    chaos: boolean;
  }
}

export default async function setup(project: TestProject) {
  const sandbox = await startSandbox({ port: 0, market: 'open', tickMs: 0 });
  project.provide('sandboxUrl', sandbox.url);
  const upstream = await startSandbox({ port: 0, market: 'closed', tickMs: 0 });
  const config = readConfig({ UPSTREAM_URL: upstream.url, UPSTREAM_KEY: 'enterprise-key', PORT: '0' });
  const relay = await startRelay({ ...config, upstreamUrl: upstream.url }, { logSink: () => {} });
  project.provide('relayUrl', relay.url);
  project.provide('relayUpstreamUrl', upstream.url);
  project.provide('chaos', process.env.CHAOS === 'full');
  return async () => {
    await relay.close();
    await upstream.close();
    await sandbox.close();
  };
}
