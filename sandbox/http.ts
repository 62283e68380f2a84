// Small HTTP helpers of the sandbox: CORS on every answer and request bodies; the service
// contract's answers and SSE framing are the relay's (relay/http.ts), re-exported here.
import type { IncomingMessage, ServerResponse } from 'node:http';

export {
  header,
  openEventStream,
  requestedSymbols,
  sendError,
  sendJson,
  sendPreflight,
  sendRaw,
  sseFrame,
  SSE_PING,
} from '../relay/http';

/** CORS headers on every answer of the service: any origin may call it (keys are headers, not cookies). */
export function setCors(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('Access-Control-Allow-Origin', req.headers.origin ?? '*');
  res.setHeader('Vary', 'Origin');
  res.setHeader('Access-Control-Expose-Headers', 'Retry-After');
}

/** The request body parsed as JSON (an empty body is `{}`). */
export async function readJson(req: IncomingMessage, limit = 1_000_000): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new Error('body too large');
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text.trim() === '' ? {} : JSON.parse(text);
}
