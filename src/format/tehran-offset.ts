/**
 * Tehran's offset from UTC, which the chart and the history's candles (Tehran days) need and the
 * board's time cells do not: apart from `date.ts`, so that it loads with the chart's code only.
 */
import { TIME_ZONE } from './date';
import { dateTimeFormat } from './intl-cache';

/** Tehran's UTC offset at `d` in seconds (+12600 today; Iran kept DST until 2022, so it is looked up). */
export function tehranOffsetSeconds(d: Date): number {
  const name = dateTimeFormat('en-US', { timeZone: TIME_ZONE, timeZoneName: 'longOffset' })
    .formatToParts(d)
    .find((p) => p.type === 'timeZoneName')?.value;
  const m = /GMT([+-])(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?/.exec(name ?? '');
  if (!m) return 0; // plain "GMT"
  const seconds = Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
  return m[1] === '-' ? -seconds : seconds;
}
