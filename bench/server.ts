/**
 * The bench's HTTP origin: the sandbox price service (`/v1/...`, `/__sandbox/...`) and, on the same
 * origin, the built widget (`/dist/...`) and the bench pages (`/bench/<name>.html?...`, templated
 * from bench/pages/). A second port serves the same handler as a different origin, for the
 * cross-origin (CORS) variant of the first-paint measurement.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createSandbox } from '../sandbox/server';
import type { SandboxStats } from './util';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.map': 'application/json',
};

export interface BenchServer {
  /** Origin of the sandbox and of the same-origin pages, e.g. http://127.0.0.1:40123 */
  url: string;
  /** A second origin serving the same pages and widget (the sandbox stays on `url`). */
  otherUrl: string;
  /** Serves `body` at `/bench/<name>` from now on, as a file of bench/pages (a page or script made during the run). */
  serve(name: string, body: string): void;
  /**
   * Where the pages' server-side includes (`<!--# include virtual="/path" -->`, as nginx SSI writes
   * them) are fetched from from now on, once per page load (undefined: left as they are).
   */
  includeFrom(origin: string | undefined): void;
  /** Calls a sandbox control (`/__sandbox/...`) or service path on `url`. */
  call<T = unknown>(path: string, init?: { method?: string; body?: unknown; key?: string }): Promise<T>;
  close(): Promise<void>;
}

/** What the sandbox has had with one key (preflights aside): its requests, counted by path prefix. */
export interface KeyRequests {
  total: number;
  /** The sandbox's open streams (all keys'). */
  openStreams: number;
  count(prefix: string): number;
}

export async function requestsOf(server: BenchServer, key: string): Promise<KeyRequests> {
  const st = await server.call<SandboxStats>('/__sandbox/stats');
  const mine = st.requests.filter((r) => r.key === key && r.method !== 'OPTIONS');
  return {
    total: mine.length,
    openStreams: st.openStreams,
    count: (prefix) => mine.filter((r) => r.path.startsWith(prefix)).length,
  };
}

/** nginx's SSI directive for a sub-request: `<!--# include virtual="/path?query" -->`. */
const INCLUDE = /<!--#\s*include\s+virtual="([^"]*)"\s*-->/g;
/** How long an include may take, as the docs' PHP recipe (then the page goes out without it). */
const INCLUDE_TIMEOUT_MS = 1000;

/**
 * `html` with each include directive replaced by `origin` + its path's answer, fetched now (per
 * page load, as an include with no cache); a failed include leaves a comment saying why.
 */
async function withIncludes(html: string, origin: string): Promise<string> {
  const paths = [...html.matchAll(INCLUDE)].map((m) => m[1]!.replace(/&amp;/g, '&'));
  const bodies = await Promise.all(
    paths.map(async (path) => {
      try {
        const res = await fetch(origin + path, { signal: AbortSignal.timeout(INCLUDE_TIMEOUT_MS) });
        const text = await res.text();
        return res.ok ? text : `<!-- include ${res.status} -->`;
      } catch (error) {
        return `<!-- include failed: ${String(error).replace(/--/g, '- -')} -->`;
      }
    }),
  );
  let i = 0;
  return html.replace(INCLUDE, () => bodies[i++]!);
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export async function startBenchServer(projectRoot: string, dist: string): Promise<BenchServer> {
  const pages = resolve(projectRoot, 'bench/pages');
  // tickMs far away: only the bench's own pushes move prices, so counts are deterministic.
  const sandbox = createSandbox({ market: 'open', tickMs: 3_600_000 });

  // Files do not change during a run: each is read once, so that serving a page is no disk read
  // (a thread-pool round trip whose delay, on a busy machine, would add noise to first paint).
  const files = new Map<string, Promise<Buffer>>();
  const made = new Map<string, Buffer>();
  let includeOrigin: string | undefined;
  const read = (file: string) => {
    let body = files.get(file);
    if (!body) {
      body = readFile(file);
      files.set(file, body);
      body.catch(() => files.delete(file));
    }
    return body;
  };

  async function serveFile(root: string, rel: string, res: ServerResponse, template?: URLSearchParams) {
    const file = resolve(root, '.' + sep + rel);
    if (!file.startsWith(root + sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      let body: Buffer | string = (root === pages ? made.get(rel) : undefined) ?? (await read(file));
      if (template) {
        body = body
          .toString('utf8')
          .replace(/\{\{(\w+)\}\}/g, (_, name: string) => escapeAttr(template.get(name) ?? ''));
        if (includeOrigin) body = await withIncludes(body, includeOrigin);
      }
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-cache',
        // The page origin B loads the module from origin B; nothing cross-origin here but the API.
        'access-control-allow-origin': '*',
      });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  }

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET' && url.pathname.startsWith('/dist/')) {
      void serveFile(dist, decodeURIComponent(url.pathname.slice('/dist/'.length)), res);
      return;
    }
    if (req.method === 'GET' && url.pathname.startsWith('/bench/')) {
      const rel = decodeURIComponent(url.pathname.slice('/bench/'.length));
      void serveFile(pages, rel, res, rel.endsWith('.html') ? url.searchParams : undefined);
      return;
    }
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    sandbox.handle(req as never, res as never, () => {
      if (!res.headersSent) res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    });
  };

  const listen = (server: Server) =>
    new Promise<number>((ok, fail) => {
      server.once('error', fail);
      server.listen(0, '127.0.0.1', () => ok((server.address() as AddressInfo).port));
    });
  const main = createServer(handler);
  const other = createServer(handler);
  // Many keep-alive sockets and long-lived SSE responses: no server-side timeouts.
  for (const s of [main, other]) {
    s.keepAliveTimeout = 60_000;
    s.requestTimeout = 0;
    s.headersTimeout = 0;
  }
  const url = `http://127.0.0.1:${await listen(main)}`;
  const otherUrl = `http://127.0.0.1:${await listen(other)}`;

  async function call<T>(path: string, init: { method?: string; body?: unknown; key?: string } = {}): Promise<T> {
    const headers: Record<string, string> = {};
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    if (init.key) headers['x-api-key'] = init.key;
    const res = await fetch(url + path, {
      method: init.method ?? (init.body !== undefined ? 'POST' : 'GET'),
      headers,
      body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path} → ${res.status}: ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  return {
    url,
    otherUrl,
    serve: (name, body) => void made.set(name, Buffer.from(body)),
    includeFrom: (origin) => void (includeOrigin = origin),
    call,
    close: async () => {
      sandbox.close();
      for (const s of [main, other]) s.closeAllConnections();
      await Promise.all([main, other].map((s) => new Promise<void>((ok) => s.close(() => ok()))));
    },
  };
}
