/**
 * Errors for people: a page of the relay's (`embed.html` in an iframe, `/`) or any navigation gets
 * its refusals as a small Persian page (DESIGN.md §7.1), never the JSON body a widget reads; a
 * fragment's (`/render/...`, put in a host's page by its server) gets no body at all.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ERROR_MESSAGES } from './from-src';
import { detailHeader, header } from './http';

/**
 * Whether an error answer goes to a person rather than a script: a page of the relay's (`/`,
 * `*.html`: embed.html in an iframe) or any navigation. They get `sendErrorPage`, never JSON.
 */
export function wantsPage(req: IncomingMessage, path: string | undefined): boolean {
  const dest = header(req, 'sec-fetch-dest');
  if (dest === 'document' || dest === 'iframe' || dest === 'frame') return true;
  return path !== undefined && !path.startsWith('/v1') && (path.endsWith('/') || path.endsWith('.html'));
}

/**
 * An error as a small Persian page (embed.html's own errors): the visitor's words only, the code
 * for developers in a meta tag; a 429 or 503 loads the page again after its `Retry-After`.
 */
export function sendErrorPage(
  res: ServerResponse,
  status: number,
  code: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const message =
    code === 'rate_limited'
      ? ERROR_MESSAGES.rate_limited
      : code === 'not_found'
        ? ERROR_MESSAGES.not_found
        : ERROR_MESSAGES.visitor;
  const retry = Number(headers['Retry-After']);
  const refresh = Number.isInteger(retry) && retry > 0 ? `<meta http-equiv="refresh" content="${retry}">` : '';
  const body =
    '<!doctype html><html lang="fa" dir="rtl"><head><meta charset="utf-8">' +
    `<meta name="viewport" content="width=device-width"><meta name="error-code" content="${code}">${refresh}` +
    '<title>قیمت‌ها</title><style>body{font:1rem system-ui,sans-serif;margin:1rem;color:#555}</style></head>' +
    `<body><p role="alert">${message}</p></body></html>`;
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Length': String(Buffer.byteLength(body)),
    'X-Content-Type-Options': 'nosniff',
    ...headers,
  });
  res.end(body); // node sends no body to a HEAD
}

/** The published CSP hashes (`render/csp.ts`): JSON for a script, not a fragment. */
export const CSP_PATH = '/render/csp';

/**
 * Whether a request target (raw: a malformed one too, or one node could not read in full) names a
 * fragment's path, `/render` or under it: a site's server puts its answer in a page, whatever it is.
 */
export function isFragmentTarget(target: string): boolean {
  const path = target.replace(/^https?:\/\/[^/?#]*/i, '').split(/[?#]/, 1)[0]!;
  return /^\/render(\/|$)/.test(path) && path !== CSP_PATH;
}

/**
 * An error answering a fragment's path (`/render/{widget}`: a 429, a widget the relay does not
 * render, a relay shutting down) with no body: a site's server puts whatever body it gets into its
 * page (nginx SSI includes a 404's or a 429's body as it comes), and visitors must not read an
 * error there. An empty answer is what an include treats as failed (nginx takes its `stub`, the
 * recipes keep the bare element); the developer's detail is in `X-Price-Board-Error`.
 */
export function sendFragmentError(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Length': '0',
    'X-Price-Board-Error': detailHeader(`${code}: ${message}`),
    ...headers,
  });
  res.end();
}
