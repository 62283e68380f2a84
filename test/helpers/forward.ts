// A pass-through for the small proxies that tests and the bench put in front of a real server
// (to count what a browser sends, or to answer one path themselves).
import { request, type IncomingMessage, type ServerResponse } from 'node:http';

/** Sends `req` on to `target` (same path, method and headers) and its answer back on `res`; either side's end ends the other. */
export function forward(req: IncomingMessage, res: ServerResponse, target: URL): void {
  const upstream = request(
    { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => res.destroy());
  res.on('close', () => upstream.destroy());
  req.pipe(upstream);
}
