/** Facts about one quote that the board shows. */
import type { Quote } from '../shared/types';

/** A quote older than this is from a closed market (or a symbol that stopped moving): 30 min. */
export const STALE_AFTER_MS = 30 * 60 * 1000;

/** Price direction for colouring: `data-direction` of a row. */
export type Direction = 'up' | 'down' | 'flat';

/**
 * The sign of `change_pct`, read from the string (no float): any zero (`"0"`, `"0.00"`, `"-0"`)
 * and anything unreadable is flat.
 */
export function direction(q: Pick<Quote, 'change_pct'>): Direction {
  const s = q.change_pct.trim();
  if (!/^[+-]?\d+(\.\d+)?$/.test(s) || !/[1-9]/.test(s)) return 'flat';
  return s.startsWith('-') ? 'down' : 'up';
}

/** Whether `updated_at` is older than {@link STALE_AFTER_MS} at `now`; an unreadable time is stale. */
export function isStale(q: Pick<Quote, 'updated_at'>, now: Date): boolean {
  const time = Date.parse(q.updated_at);
  return Number.isNaN(time) || now.getTime() - time > STALE_AFTER_MS;
}
