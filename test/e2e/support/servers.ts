/**
 * The HTTP servers the end-to-end tests run against, each on its own origin:
 *
 * - the sandbox price service (`startSandbox`),
 * - a "CDN": `dist/` served under a versioned path prefix (`/cdn/price-board/0.1.0/`), with CORS
 *   for module scripts and fonts, and a strict CSP on its HTML pages (proving the built demo and
 *   embed page need no inline script or style),
 * - a "third-party site" whose pages the tests write (`site.page(path, html, headers)`),
 * - for the relay's specs, a relay in process on a sandbox of its own (`startRelayOnSandbox`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readConfig } from '../../../relay/config';
import { startRelay, type Relay } from '../../../relay/server';
import { startSandbox, type StartedSandbox } from '../../../sandbox/server';

export const DIST_DIR = resolve(fileURLToPath(new URL('../../../dist/', import.meta.url)));
/** A CDN folder per version: relative URLs inside dist/ must survive it. */
export const CDN_PREFIX = '/cdn/price-board/0.1.0/';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export interface RunningServer {
  url: string;
  origin: string;
  close(): Promise<void>;
}

function listen(server: Server): Promise<{ origin: string }> {
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      done({ origin: `http://127.0.0.1:${port}` });
    });
  });
}

function closer(server: Server): () => Promise<void> {
  return () =>
    new Promise((done) => {
      server.closeAllConnections();
      server.close(() => done());
    });
}

/** A strict policy for the widget's own pages: nothing inline, API on the sandbox only. */
export function widgetPagePolicy(sandboxOrigin: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "font-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self' ${sandboxOrigin}`,
    "object-src 'none'",
    "base-uri 'none'",
    'frame-ancestors *',
  ].join('; ');
}

export interface CdnOptions {
  /** CSP header for `.html` files (none when undefined). */
  htmlPolicy?: string;
  /** The folder served (default `dist/`). */
  dir?: string;
}

/** Serves `dist/` (or `options.dir`) under {@link CDN_PREFIX}. `url` is the folder's address (ends with `/`). */
export async function startCdn(options: CdnOptions = {}): Promise<RunningServer & { requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    void serveDist(req, res, options, requests);
  });
  const { origin } = await listen(server);
  return { url: `${origin}${CDN_PREFIX}`, origin, requests, close: closer(server) };
}

async function serveDist(
  req: IncomingMessage,
  res: ServerResponse,
  options: CdnOptions,
  requests: string[],
): Promise<void> {
  const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  requests.push(path);
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Cache-Control', 'no-store');
  if (path === '/favicon.ico') {
    res.statusCode = 204;
    return void res.end();
  }
  if (!path.startsWith(CDN_PREFIX)) return notFound(res);
  let rel = path.slice(CDN_PREFIX.length);
  if (rel === '' || rel.endsWith('/')) rel += 'index.html';
  const dir = options.dir ?? DIST_DIR;
  const file = normalize(join(dir, rel));
  if (!file.startsWith(dir + sep)) return notFound(res);
  try {
    if (!(await stat(file)).isFile()) return notFound(res);
    const body = await readFile(file);
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    res.setHeader('Content-Type', type);
    if (type.startsWith('text/html') && options.htmlPolicy)
      res.setHeader('Content-Security-Policy', options.htmlPolicy);
    res.end(req.method === 'HEAD' ? undefined : body);
  } catch {
    notFound(res);
  }
}

function notFound(res: ServerResponse): void {
  res.statusCode = 404;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.end('not found');
}

export interface SitePage {
  html: string;
  headers?: Record<string, string>;
}

/** A third-party site: tests put pages on it, then open them. */
export async function startSite(): Promise<
  RunningServer & { page(path: string, html: string, headers?: Record<string, string>): string }
> {
  const pages = new Map<string, SitePage>();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/favicon.ico') {
      res.statusCode = 204;
      return void res.end();
    }
    const page = pages.get(path);
    if (!page) return notFound(res);
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    for (const [name, value] of Object.entries(page.headers ?? {})) res.setHeader(name, value);
    res.end(page.html);
  });
  const { origin } = await listen(server);
  return {
    url: `${origin}/`,
    origin,
    close: closer(server),
    page(path, html, headers) {
      pages.set(path, { html, headers });
      return `${origin}${path}`;
    },
  };
}

/** A minimal HTML page around `body` (and `head` extras). */
export function htmlPage(body: string, head = ''): string {
  return `<!doctype html>
<html lang="fa" dir="rtl">
<head><meta charset="utf-8"><title>third-party page</title>${head}</head>
<body>
${body}
</body>
</html>`;
}

export interface RelayOnSandbox {
  sandbox: StartedSandbox;
  relay: Relay;
  close(): Promise<void>;
}

/**
 * A relay (basic plan, upstream key `upstreamKey`, and `env` as its environment's other variables)
 * in front of a sandbox of its own, whose market does not tick.
 */
export async function startRelayOnSandbox(
  upstreamKey: string,
  env: Record<string, string> = {},
): Promise<RelayOnSandbox> {
  const sandbox = await startSandbox({ port: 0, market: 'open', tickMs: 0 });
  const config = readConfig({ UPSTREAM_URL: sandbox.url, UPSTREAM_KEY: upstreamKey, PLAN: 'basic', PORT: '0', ...env });
  const relay = await startRelay({ ...config, upstreamUrl: sandbox.url }, { logSink: () => {} });
  return {
    sandbox,
    relay,
    async close() {
      await relay.close();
      await sandbox.close();
    },
  };
}
