// Test controls under /__sandbox (no key): faults, reset, market, push, stats.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxContext } from './context';
import { parseRules } from './faults';
import { header, readJson, sendError, sendJson } from './http';
import type { PriceSetting } from './market';
import type { SandboxStats } from './stats';
import type { MarketMode } from './types';

type Handler = (ctx: SandboxContext, body: unknown) => unknown;

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

const ROUTES: Record<string, Partial<Record<'GET' | 'POST' | 'DELETE', Handler>>> = {
  '/__sandbox/faults': {
    GET: (ctx) => ({ rules: ctx.faults.rules }),
    POST: (ctx, body) => ({ rules: (ctx.faults.rules = parseRules(body)) }),
    DELETE: (ctx) => ({ rules: (ctx.faults.rules = []) }),
  },
  '/__sandbox/reset': {
    POST: (ctx) => {
      ctx.reset();
      return { ok: true };
    },
  },
  '/__sandbox/market': { POST: market },
  '/__sandbox/push': { POST: push },
  '/__sandbox/stats': {
    GET: (ctx): SandboxStats => ({
      requests: ctx.stats.requests,
      openStreams: ctx.streams.openCount,
      streamsOpened: ctx.streams.opened,
      keyInUrl: ctx.stats.keyInUrl,
      preflights: ctx.stats.preflights,
    }),
  },
};

/** Bodies of `push` may carry a hostile event of several megabytes. */
const BODY_LIMIT = 16_000_000;

/**
 * Whether the caller is not a page of another origin. Browsers send `Origin` on every
 * cross-origin request (and on same-origin POSTs); Node, curl and the tests' Node side send none.
 * Without this, any web page a developer opens could drive the local sandbox.
 */
function sameOriginCaller(req: IncomingMessage): boolean {
  const origin = header(req, 'origin');
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false; // `Origin: null` (sandboxed frames, file:) or garbage
  }
}

export async function handleControl(
  ctx: SandboxContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const methods = ROUTES[url.pathname];
  // No CORS headers and no preflight answer: a cross-origin page can neither send nor read.
  if (!sameOriginCaller(req))
    return sendError(res, 403, 'forbidden', 'the test controls answer same-origin callers only');
  if (req.method === 'OPTIONS')
    return sendError(res, 405, 'method_not_allowed', 'no preflight: the test controls are same-origin only');
  if (!methods) return sendError(res, 404, 'not_found', `no such control: ${url.pathname}`);
  const handler = methods[req.method as 'GET'];
  if (!handler) {
    const allow = Object.keys(methods).join(', ');
    return sendError(res, 405, 'method_not_allowed', `${req.method} is not allowed here`, {}, { Allow: allow });
  }
  try {
    const body = req.method === 'GET' ? undefined : await readJson(req, BODY_LIMIT);
    sendJson(res, 200, handler(ctx, body));
  } catch (error) {
    sendError(res, 400, 'bad_request', error instanceof Error ? error.message : String(error));
  }
}

/** `{ open?, mode?, set?, tick? }`, applied in that order. */
function market(ctx: SandboxContext, body: unknown): unknown {
  if (!isObject(body)) throw new Error('body must be an object');
  const { open, mode, set, tick } = body;
  if (open !== undefined && typeof open !== 'boolean') throw new Error('"open" must be a boolean');
  if (mode !== undefined && !['auto', 'open', 'closed'].includes(mode as string))
    throw new Error('"mode" must be auto, open or closed');
  if (set !== undefined && !(Array.isArray(set) && set.every(isSetting))) {
    throw new Error('"set" must be an array of { "symbol": string, "price": string, "updated_at"?: string }');
  }
  if (open !== undefined) ctx.market.mode = open ? 'open' : 'closed';
  if (mode !== undefined) ctx.market.mode = mode as MarketMode;
  const changed = set ? ctx.market.set(set.map((s) => ({ ...s, price: String(s.price) }))).map((q) => q.symbol) : [];
  if (tick === true) changed.push(...ctx.market.tick());
  return { open: ctx.market.open, mode: ctx.market.mode, changed };
}

function isSetting(x: unknown): x is PriceSetting {
  return (
    isObject(x) &&
    typeof x.symbol === 'string' &&
    (typeof x.price === 'string' || typeof x.price === 'number') &&
    (x.updated_at === undefined || typeof x.updated_at === 'string')
  );
}

/** `{ event, data, id?, times? }` or `{ raw }`: `times` sends the event that often (a flood). */
function push(ctx: SandboxContext, body: unknown): unknown {
  if (!isObject(body)) throw new Error('body must be an object');
  if (typeof body.raw === 'string') return { streams: ctx.streams.pushRaw(body.raw) };
  if (typeof body.event !== 'string' || !/^[^\r\n]+$/.test(body.event))
    throw new Error('"event" must be a one-line string');
  if (body.id !== undefined && (typeof body.id !== 'string' || /[\r\n\0]/.test(body.id))) {
    throw new Error('"id" must be a string without line breaks or NUL');
  }
  const { times = 1 } = body;
  if (typeof times !== 'number' || !Number.isInteger(times) || times < 1 || times > 1_000_000)
    throw new Error('"times" must be an integer from 1 to 1,000,000');
  if (times > 1 && typeof body.data !== 'string')
    throw new Error('"times" needs "data" as a string (its "{n}" becomes 0, 1, ...)');
  let streams = 0;
  for (let i = 0; i < times; i++) {
    const data = times > 1 ? (body.data as string).replaceAll('{n}', String(i)) : body.data;
    streams = ctx.streams.push(body.event, data, body.id);
  }
  return { streams };
}
