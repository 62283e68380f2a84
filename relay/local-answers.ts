/**
 * The gate's own answers to requests it does not send (relay/upstream.ts), shaped like the
 * service's, so the clients' error handling applies: a pause, the budget, not leading, a refused
 * key, symbols outside the plan.
 */
import { PriceBoardError } from './from-src';

/** A JSON error answer, with `Retry-After` when a wait is known. */
export function localAnswer(status: number, code: string, message: string, retryAfterMs?: number): Response {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (retryAfterMs !== undefined) headers['Retry-After'] = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
  return new Response(JSON.stringify({ error: { code, message } }), { status, headers });
}

/** Symbols refused by the plan, answered as the service's 404 `unknown_symbol` (the clients drop them and go on). */
export function symbolsRefused(symbols: string[]): Response {
  return new Response(
    JSON.stringify({ error: { code: 'unknown_symbol', message: 'upstream refused these symbols', symbols } }),
    { status: 404, headers: { 'Content-Type': 'application/json' } },
  );
}

/** The codes of the gate's own answers to requests it did not send (they say nothing of the upstream). */
const LOCAL_CODES = new Set(['key_refused', 'not_leader', 'relay_paused', 'relay_budget']);

/** Whether `error` is the gate's refusal to send a request (a pause, the budget, not leading, a refused key). */
export function isLocalRefusal(error: unknown): boolean {
  return error instanceof PriceBoardError && LOCAL_CODES.has(String(error.data?.serviceCode));
}
