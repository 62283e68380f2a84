/**
 * The built widgets (dist/) from the relay's own origin, so a page needs only the script tag: the
 * element's default base-url is the origin its module came from. Hashed chunks (`assets/*-HASH.js`)
 * never change under their name and are cached for a year; other files briefly, with an ETag.
 * Only files whose real path is inside dist/ are served: a symlink never leads out of it. CORS
 * (module scripts and fonts from another origin's page need it) is the server's, as for every answer.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The widgets' build: the repository's dist/ when the relay runs from source; `widgets/` beside the
 * built relay (relay/vite.config.ts copies it there and sets RELAY_WIDGETS_DIR).
 */
export const DIST_DIR = resolve(
  fileURLToPath(new URL(import.meta.env?.RELAY_WIDGETS_DIR ?? '../dist/', import.meta.url)),
);

/** Content types of what dist/ holds (also used by `npm start`, which serves dist/ too). */
export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.map': 'application/json; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** A file name carrying a content hash (vite's `name-HASH.ext`). */
const HASHED = /[-.][A-Za-z0-9_-]{8,}\.(js|css|woff2?)$/;

/** A file of `root` (the real path inside it) that `pathname` names, or undefined. */
async function findFile(
  pathname: string,
  root: string,
): Promise<{ real: string; relative: string; size: number; mtimeMs: number } | undefined> {
  let relative: string;
  try {
    // Browsers ask for /favicon.ico on their own; the built favicon is an SVG.
    const aliased = pathname === '/' ? '/index.html' : pathname === '/favicon.ico' ? '/favicon.svg' : pathname;
    relative = normalize(decodeURIComponent(aliased));
  } catch {
    return undefined;
  }
  const file = join(root, relative);
  if (!file.startsWith(root + sep)) return undefined;
  // The file itself, symlinks resolved, must lie inside the (resolved) root: no link leads out.
  const [real, realRoot] = await Promise.all([
    realpath(file).catch(() => undefined),
    realpath(root).catch(() => undefined),
  ]);
  if (!real || !realRoot || !real.startsWith(realRoot + sep)) return undefined;
  const info = await stat(real).catch(() => undefined);
  return info?.isFile() ? { real, relative, size: info.size, mtimeMs: info.mtimeMs } : undefined;
}

/** A weak validator from size and modification time: no read of the file to answer a 304. */
const fileEtag = (file: { size: number; mtimeMs: number }): string =>
  `W/"${file.size.toString(36)}-${Math.floor(file.mtimeMs).toString(36)}"`;

/** The text of each page the relay fills in, by its real path, read again only when its validator changes. */
const texts = new Map<string, { text: string; etag: string }>();

/** The text of `pathname` in `root` with its validator (a page the relay fills in), or undefined. */
export async function readDistText(
  pathname: string,
  root = DIST_DIR,
): Promise<{ text: string; etag: string } | undefined> {
  const file = await findFile(pathname, root);
  if (!file) return undefined;
  const etag = fileEtag(file);
  const known = texts.get(file.real);
  if (known?.etag === etag) return known;
  const read = { text: await readFile(file.real, 'utf8'), etag };
  texts.set(file.real, read);
  return read;
}

/** Serves `pathname` from `root`; false when there is no such file (the caller answers 404). */
export async function serveStatic(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  root = DIST_DIR,
): Promise<boolean> {
  const found = await findFile(pathname, root);
  if (!found) return false;
  const { real, relative } = found;
  const hashed = relative.includes(`${sep}assets${sep}`) && HASHED.test(relative);
  const etag = fileEtag(found);
  const headers = {
    'Content-Type': CONTENT_TYPES[extname(real)] ?? 'application/octet-stream',
    'Cache-Control': hashed
      ? 'public, max-age=31536000, immutable'
      : 'public, max-age=300, stale-while-revalidate=3600',
    ETag: etag,
    'X-Content-Type-Options': 'nosniff',
  };
  const held = req.headers['if-none-match']?.split(',').map((t) => t.trim().replace(/^W\//, ''));
  if (held?.includes(etag.slice(2)) || held?.includes('*')) {
    res.writeHead(304, headers);
    res.end();
    return true;
  }
  const body = await readFile(real);
  res.writeHead(200, { ...headers, 'Content-Length': String(body.length) });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
