/**
 * `npm start`: builds dist/ and runs what a site owner embeds, as a site would run it: the relay
 * (relay/server.ts, as `npm run relay` does) on PORT (default 5173, at 127.0.0.1), serving dist/
 * and relaying a sandbox price service it starts beside it on SANDBOX_PORT (default 8787). So the
 * demo's default snippets are the keyless relay form naming this origin: pasted into pages of any
 * origin and reloaded by any number of visitors, they spend the relay's cached answers, not a key's
 * plan. The sandbox stays reachable for the keyed snippets (its address is built into the demo as
 * their default base-url). The market moves at any hour unless SANDBOX_MARKET says otherwise.
 * Prints the addresses, the keys and the market setting, nothing else (Vite's and the relay's
 * warnings and errors still come through).
 */
import { createBuilder } from 'vite';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readConfig } from '../relay/config';
import { startRelay } from '../relay/server';
import { KEYS } from '../sandbox/limits';
import { startSandbox } from '../sandbox/server';
import type { MarketMode } from '../sandbox/types';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Tehran hours (`auto`) would leave the demo still under «زنده» on an evening: it moves unless told. */
const market = (process.env.SANDBOX_MARKET || 'open') as MarketMode;
const sandbox = await startSandbox({ port: Number(process.env.SANDBOX_PORT ?? 8787), host: '127.0.0.1', market });

// The demo's keyed snippets name the sandbox (import.meta.env in demo/main.ts).
process.env.VITE_PRICE_SERVICE_URL = sandbox.url;
const builder = await createBuilder({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'warn' });
await builder.buildApp();

// Every visitor of this relay is this machine: the per-visitor limits a public relay keeps
// would count the owner's reloads and pasted test pages as one abusive visitor.
const config = readConfig({ PORT: process.env.PORT || '5173', CLIENT_RPM: '100000', CLIENT_STREAMS: '1000' });
const relay = await startRelay(
  { ...config, upstreamUrl: sandbox.url },
  // The relay's log lines only when something failed: the routine ones would bury the addresses.
  { logSink: (line) => /"event":"[a-z_]*(failed|error|refused|dropped)"/.test(line) && console.error(line) },
);
console.log(`Demo and price relay (keyless snippets): ${relay.url}/`);
console.log(
  `Sandbox price service (keyed snippets): ${sandbox.url}/ (keys: ${Object.keys(KEYS).join(', ')}; ` +
    `market: ${market}, SANDBOX_MARKET=open|closed|auto)`,
);

// One shutdown, whichever signal comes first: the relay tells its streams to reconnect, then the sandbox ends.
let stopped: Promise<void> | undefined;
const stop = () =>
  (stopped ??= relay
    .close()
    .then(() => sandbox.close())
    .then(() => process.exit(0)));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stop());
