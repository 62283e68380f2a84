/** Test helper: a sandbox of its own for one test file, and its HTTP test controls. */
import { startSandbox } from '../../../sandbox/server';

/** One request as `/__sandbox/stats` lists it. */
export interface LoggedRequest {
  method: string;
  path: string;
  url: string;
  key: string | null;
  status: number | null;
}

/** `/__sandbox/stats`. */
export interface SandboxStats {
  requests: LoggedRequest[];
  openStreams: number;
  streamsOpened: number;
  keyInUrl: number;
}

/** A started sandbox and its controls. */
export interface TestSandbox {
  url: string;
  close(): Promise<void>;
  reset(): Promise<void>;
  faults(rules: Record<string, unknown>[]): Promise<void>;
  market(body: Record<string, unknown>): Promise<{ changed: string[] }>;
  push(body: Record<string, unknown>): Promise<{ streams: number }>;
  stats(): Promise<SandboxStats>;
  /** Logged requests to `path` (prefix) with this key. */
  requests(path: string, key?: string): Promise<LoggedRequest[]>;
}

/** Starts a sandbox with an open market, no automatic source reads and quick stream timings. */
export async function startTestSandbox(options: { heartbeatMs?: number; retryMs?: number } = {}): Promise<TestSandbox> {
  const started = await startSandbox({ port: 0, market: 'open', tickMs: 0, heartbeatMs: 200, retryMs: 50, ...options });
  const call = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${started.url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json: unknown = await response.json();
    if (!response.ok) throw new Error(`${method} ${path}: ${JSON.stringify(json)}`);
    return json;
  };
  const stats = (): Promise<SandboxStats> => call('GET', '/__sandbox/stats') as Promise<SandboxStats>;
  return {
    url: started.url,
    close: () => started.close(),
    reset: async () => void (await call('POST', '/__sandbox/reset')),
    faults: async (rules) => void (await call('POST', '/__sandbox/faults', { rules })),
    market: (body) => call('POST', '/__sandbox/market', body) as Promise<{ changed: string[] }>,
    push: (body) => call('POST', '/__sandbox/push', body) as Promise<{ streams: number }>,
    stats,
    requests: async (path, key) =>
      (await stats()).requests.filter((r) => r.path.startsWith(path) && (key === undefined || r.key === key)),
  };
}
