/**
 * `npm start`: builds dist/ and serves it with the sandbox price service on one origin (PORT,
 * default 5173, at 127.0.0.1), the files with CORS like a CDN, so a snippet works on any page. The demo thus runs the files a site embeds, and its copy-paste
 * snippets name them. Prints the address and the sandbox keys, nothing else (Vite's warnings and
 * errors still come through).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createBuilder } from 'vite';
import { CONTENT_TYPES } from '../relay/static';
import { KEYS } from '../sandbox/limits';
import { createSandbox } from '../sandbox/server';
import type { MarketMode } from '../sandbox/types';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');

async function serveDist(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  if (path.endsWith('/')) path += 'index.html';
  const file = normalize(join(dist, path));
  try {
    if (!file.startsWith(dist + sep) || !(await stat(file)).isFile()) throw new Error('not a file');
    res.setHeader('Content-Type', CONTENT_TYPES[extname(file)] ?? 'application/octet-stream');
    // Rebuilt on every start: nothing may come from a browser cache of the previous run.
    res.setHeader('Cache-Control', 'no-cache');
    // As a CDN serves them: a page of any other origin may load the modules (module scripts,
    // their chunks and the fonts are fetched in CORS mode).
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.end(await readFile(file));
  } catch {
    res.statusCode = 404;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.end('not found');
  }
}

const builder = await createBuilder({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'warn' });
await builder.buildApp();

const sandbox = createSandbox({ market: (process.env.SANDBOX_MARKET || 'auto') as MarketMode });
const server = createServer((req, res) => sandbox.handle(req, res, () => void serveDist(req, res)));
await new Promise<void>((resolve) => server.listen(Number(process.env.PORT ?? 5173), '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;
console.log(`Demo and sandbox price service: http://127.0.0.1:${port}/ (keys: ${Object.keys(KEYS).join(', ')})`);

const stop = () => {
  sandbox.close();
  server.closeAllConnections();
  server.close(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
