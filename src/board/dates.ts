/**
 * The first `Intl.DateTimeFormat` of a page (Tehran time zone, Persian calendar) costs about 70 ms
 * of ICU set-up on the bench machine (`npm run bench:profile`; 4 to 6 times that on a phone), more
 * than the rest of the first rows together. So the first rows are shown without their time cells,
 * and the date formatters are built after those rows are painted, once for every board. Their
 * code is not in the initial module either: it is imported at the board's start (`loadDates`).
 */
import { afterPaint } from './after-paint';

/** The date formatting the rows use (`format/date.ts`). */
export type DateFormat = typeof import('../format/date');

let ready: DateFormat | undefined;
let loading: Promise<DateFormat> | undefined;
let preparing: Promise<void> | undefined;

/** The date formatters, once they are prepared (the time cells are formatted from then on). */
export function datesReady(): DateFormat | undefined {
  return ready;
}

/** Imports the date formatting code (once; a failed import is tried again on the next call). */
export function loadDates(): Promise<DateFormat> {
  return (loading ??= import('../format/date').catch((error: unknown) => {
    loading = undefined;
    throw error;
  }));
}

/** Builds the rows' date formatters after the current frame is painted; resolves when they are. */
export function prepareDates(): Promise<void> {
  preparing ??= loadDates().then(
    (dates) =>
      new Promise<void>((resolve) =>
        afterPaint(() => {
          const now = new Date();
          dates.formatUpdated(now, now);
          dates.formatJalaliDate(now, 'long');
          dates.formatTime(now);
          ready = dates;
          resolve();
        }),
      ),
    (error: unknown) => {
      preparing = undefined;
      throw error;
    },
  );
  return preparing;
}
