/**
 * A moment's numeric Jalali date and time in Tehran, for the chart's time scale (its chunk alone:
 * the board's first rows never need it).
 */
import { TIME_ZONE } from './date';
import { dateTimeFormat } from './intl-cache';

/** A moment in Tehran, Jalali calendar. `weekday`: 0 = Sunday … 6 = Saturday (as `Date#getDay`). */
export interface TehranParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  weekday: number;
}

const WEEKDAYS: Readonly<Record<string, number>> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

/** Numeric Jalali date and time of `d` in Tehran. */
export function tehranParts(d: Date): TehranParts {
  const parts = dateTimeFormat('en-US-u-ca-persian-nu-latn', {
    timeZone: TIME_ZONE,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    hourCycle: 'h23',
    weekday: 'short',
  }).formatToParts(d);
  const out: TehranParts = { year: 0, month: 0, day: 0, hour: 0, minute: 0, weekday: 0 };
  for (const { type, value } of parts) {
    // The persian calendar's year may come with an era ("1405 AP"): parseInt stops at the digits.
    if (type === 'weekday') out.weekday = WEEKDAYS[value] ?? 0;
    else if (type === 'year' || type === 'month' || type === 'day' || type === 'minute')
      out[type] = parseInt(value, 10);
    else if (type === 'hour') out.hour = parseInt(value, 10) % 24;
  }
  return out;
}
