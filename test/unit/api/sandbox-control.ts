/** Test helper: a sandbox of its own for one test file, and its HTTP test controls. */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startSandbox, type StartedSandbox } from '../../../sandbox/server';

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

type Options = { heartbeatMs?: number; retryMs?: number };

/** An open market, no automatic source reads and quick stream timings. */
const startQuick = (options: Options): Promise<StartedSandbox> =>
  startSandbox({ port: 0, market: 'open', tickMs: 0, heartbeatMs: 200, retryMs: 50, ...options });

/** The controls of the sandbox `sandbox()` gives (read at each call: it may start later). */
function controls(sandbox: () => StartedSandbox): TestSandbox {
  const call = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${sandbox().url}${path}`, {
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
    get url() {
      return sandbox().url;
    },
    close: () => sandbox().close(),
    reset: async () => void (await call('POST', '/__sandbox/reset')),
    faults: async (rules) => void (await call('POST', '/__sandbox/faults', { rules })),
    market: (body) => call('POST', '/__sandbox/market', body) as Promise<{ changed: string[] }>,
    push: (body) => call('POST', '/__sandbox/push', body) as Promise<{ streams: number }>,
    stats,
    requests: async (path, key) =>
      (await stats()).requests.filter((r) => r.path.startsWith(path) && (key === undefined || r.key === key)),
  };
}

/** Starts a sandbox of its own (see startQuick) and gives its controls. */
export async function startTestSandbox(options: Options = {}): Promise<TestSandbox> {
  const started = await startQuick(options);
  return controls(() => started);
}

/** The same sandbox for every test of this file: started before them, reset before each, closed after. */
export function useTestSandbox(options: Options = {}): TestSandbox {
  let started: StartedSandbox | undefined;
  const sandbox = controls(() => {
    if (!started) throw new Error('the sandbox starts in beforeAll');
    return started;
  });
  beforeAll(async () => {
    started = await startQuick(options);
  });
  afterAll(() => started?.close());
  beforeEach(() => sandbox.reset());
  return sandbox;
}
