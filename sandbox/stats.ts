// What tests inspect: the log of /v1 requests and a few counters.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { KEYS } from './limits';

export interface RequestEntry {
  method: string;
  /** Path without the query. */
  path: string;
  /** Path with the query. */
  url: string;
  key: string | null;
  origin: string | null;
  at: string;
  /** Status sent; null while none was (e.g. fault `hang`). */
  status: number | null;
}

/** The body of GET /__sandbox/stats. */
export interface SandboxStats {
  requests: RequestEntry[];
  openStreams: number;
  streamsOpened: number;
  keyInUrl: number;
  preflights: number;
}

/** Query parameters that would carry a key in the URL (which the widget must never do). */
const KEY_PARAMS = new Set(['key', 'api_key', 'apikey', 'api-key', 'x-api-key', 'token', 'access_token']);
const LOG_LIMIT = 2000;

export class Stats {
  requests: RequestEntry[] = [];
  keyInUrl = 0;
  preflights = 0;

  /** Logs a /v1 request; its status is filled in when the answer is sent. */
  log(req: IncomingMessage, res: ServerResponse, url: URL, at: number): RequestEntry {
    const value = (name: string) => {
      const v = req.headers[name];
      return (Array.isArray(v) ? v[0] : v) ?? null;
    };
    const entry: RequestEntry = {
      method: req.method ?? 'GET',
      path: url.pathname,
      url: url.pathname + url.search,
      key: value('x-api-key'),
      origin: value('origin'),
      at: new Date(at).toISOString(),
      status: null,
    };
    this.requests.push(entry);
    if (this.requests.length > LOG_LIMIT) this.requests.shift();
    res.once('finish', () => (entry.status = res.statusCode));
    if (hasKeyInQuery(url)) this.keyInUrl += 1;
    return entry;
  }

  reset(): void {
    this.requests = [];
    this.keyInUrl = 0;
    this.preflights = 0;
  }
}

function hasKeyInQuery(url: URL): boolean {
  for (const [name, value] of url.searchParams) {
    if (KEY_PARAMS.has(name.toLowerCase()) || Object.hasOwn(KEYS, value.split(':')[0]!)) return true;
  }
  return false;
}
