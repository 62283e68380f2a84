/** Facts about one quote that the board shows. */
import type { Quote } from '../shared/types';
import { formatPercent } from '../format/percent';

/** A quote older than this is from a closed market (or a symbol that stopped moving): 30 min. */
export const STALE_AFTER_MS = 30 * 60 * 1000;

/** Price direction for colouring: `data-direction` of a row. */
export type Direction = 'up' | 'down' | 'flat';

/**
 * The sign of `change_pct` as it is shown (two fraction digits, see `formatPercent`), read from the
 * string (no float): any zero (`"0"`, `"0.00"`, `"-0"`), anything that shows as zero (`"0.004"`:
 * no arrow beside `۰٪`) and anything unreadable is flat.
 */
export function direction(q: Pick<Quote, 'change_pct'>): Direction {
  try {
    const shown = formatPercent(q.change_pct);
    return shown.includes('−') ? 'down' : shown.includes('+') ? 'up' : 'flat';
  } catch {
    return 'flat';
  }
}

/** Whether `updated_at` is older than {@link STALE_AFTER_MS} at `now`; an unreadable time is stale. */
export function isStale(q: Pick<Quote, 'updated_at'>, now: Date): boolean {
  const time = Date.parse(q.updated_at);
  return Number.isNaN(time) || now.getTime() - time > STALE_AFTER_MS;
}
