/**
 * The first `Intl.DateTimeFormat` of a page (Tehran time zone, Persian calendar) costs about 70 ms
 * of ICU set-up on the bench machine (`npm run bench:profile`; 4 to 6 times that on a phone), more
 * than the rest of the first rows together. So the first rows are shown without their time cells,
 * and the date formatters are built after those rows are painted, once for every board. This code
 * and the formatting itself are in the board's extras (`board-controllers.ts`), not in the initial module.
 */
import { formatJalaliDate, formatTime, formatUpdated, type DateFormat } from '../format/date';
import { afterPaint } from '../shared/idle-task';

let ready: DateFormat | undefined;
let preparing: Promise<void> | undefined;

/** The date formatters, once they are prepared (the time cells are formatted from then on). */
export function datesReady(): DateFormat | undefined {
  return ready;
}

/** Builds the rows' date formatters after the current frame is painted; resolves when they are. */
export function prepareDates(): Promise<void> {
  preparing ??= new Promise((resolve) =>
    afterPaint(() => {
      const now = new Date();
      formatUpdated(now, now);
      formatJalaliDate(now, 'long');
      formatTime(now);
      ready = { formatJalaliDate, formatTime, formatUpdated };
      resolve();
    }),
  );
  return preparing;
}
