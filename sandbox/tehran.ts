// Tehran wall-clock time: timestamps with the +03:30 offset, the trading day, trading hours.

const DAY_MS = 86_400_000;
const offsetFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Tehran', timeZoneName: 'longOffset' });
let cachedHour = Number.NaN;
let cachedOffset = 0;

/** Offset of Asia/Tehran from UTC at `t` in ms (Iran has had no DST since 2022; not assumed). */
export function tehranOffsetMs(t: number): number {
  const hour = Math.floor(t / 3_600_000);
  if (hour !== cachedHour) {
    const name = offsetFormat.formatToParts(t).find((p) => p.type === 'timeZoneName')?.value ?? '';
    const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
    cachedOffset = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000 : 0;
    cachedHour = hour;
  }
  return cachedOffset;
}

/** ISO 8601 with a given offset: `2026-11-22T14:05:03.120+03:30`. */
export function isoWithOffset(t: number, offsetMs: number): string {
  const sign = offsetMs < 0 ? '-' : '+';
  const abs = Math.abs(offsetMs) / 60_000;
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${new Date(t + offsetMs).toISOString().slice(0, -1)}${sign}${hh}:${mm}`;
}

/** ISO 8601 in Tehran time. */
export function isoTehran(t: number): string {
  return isoWithOffset(t, tehranOffsetMs(t));
}

/** The Tehran calendar day of `t` as `YYYY-MM-DD` (sorts like the days). */
export function tehranDay(t: number): string {
  return new Date(t + tehranOffsetMs(t)).toISOString().slice(0, 10);
}

/** Epoch ms of the next Tehran midnight after `t`. */
export function nextTehranMidnight(t: number): number {
  const off = tehranOffsetMs(t);
  return (Math.floor((t + off) / DAY_MS) + 1) * DAY_MS - off;
}

/** Trading hours, given Tehran local time as epoch-like ms: 09:00–23:00, not on Fridays. */
export function isTradingLocal(localMs: number): boolean {
  const d = new Date(localMs);
  const hour = d.getUTCHours();
  return d.getUTCDay() !== 5 && hour >= 9 && hour < 23;
}

export function isTradingHours(t: number): boolean {
  return isTradingLocal(t + tehranOffsetMs(t));
}

/** The latest moment at or before `t` within trading hours (to a 5-minute grid). */
export function lastTradingMoment(t: number): number {
  if (isTradingHours(t)) return t;
  const step = 5 * 60_000;
  for (let u = Math.floor(t / step) * step; u > t - 4 * DAY_MS; u -= step) {
    if (isTradingHours(u)) return u;
  }
  return t;
}
