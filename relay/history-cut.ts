/**
 * Any `days` served from its enclosing cached span (DESIGN.md §7.1): the relay fetches and caches
 * only 7, 30 and 365 days, so a botnet naming every `days` costs at most one upstream request per
 * symbol and span; an API client asking `days=14` still gets 14 days, in the upstream's own shape.
 */
import { parsePoint } from './from-src';
import type { CacheEntry } from './engine/types';

const DAY_MS = 86_400_000;

type Fields = Record<string, unknown>;

const isFields = (x: unknown): x is Fields => typeof x === 'object' && x !== null && !Array.isArray(x);
/** A list of history points (in any shape the widgets read: DESIGN.md §4). */
const isPoints = (x: unknown): x is unknown[] => Array.isArray(x) && x.some((p) => parsePoint(p) !== undefined);

/**
 * The cached span's body cut to the points of the last `days` days before it was fetched, as the
 * service answers `days` then (its points after `storedAt - days`); a `days` field says the asked
 * days. The list is wherever the widgets find one (bare, `data`, or a field of either), unnamed here.
 */
export function cutHistory(entry: CacheEntry, days: number, span: number): string {
  if (days === span) return entry.body;
  const from = (entry.storedAt - days * DAY_MS) / 1000;
  const within = (list: unknown[]): unknown[] => list.filter((p) => (parsePoint(p)?.time ?? -Infinity) > from);
  const body: unknown = JSON.parse(entry.body);
  if (isPoints(body)) return JSON.stringify(within(body));
  if (!isFields(body)) return entry.body;
  if (isPoints(body.data)) body.data = within(body.data);
  for (const holder of [body.data, body]) {
    if (!isFields(holder)) continue;
    for (const [name, value] of Object.entries(holder)) if (isPoints(value)) holder[name] = within(value);
    if (typeof holder.days === 'number') holder.days = days;
  }
  return JSON.stringify(body);
}
