// A relay in this process in front of a test's upstream (the double, or any URL), configured as by
// environment variables, with per-visitor requests unlimited (the tests play many visitors).
import { readConfig } from '../../relay/config';
import { startRelay, type Relay, type RelayOptions } from '../../relay/server';

export function relayBefore(upstreamUrl: string, env: Record<string, string>, options: RelayOptions): Promise<Relay> {
  const config = readConfig({ UPSTREAM_URL: upstreamUrl, PORT: '0', CLIENT_RPM: '100000', ...env });
  return startRelay({ ...config, upstreamUrl }, { logSink: () => {}, ...options });
}
