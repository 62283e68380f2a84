/**
 * The first `Intl.DateTimeFormat` of a page (Tehran time zone, Persian calendar) costs about 70 ms
 * of ICU set-up on the bench machine (`npm run bench:profile`; 4 to 6 times that on a phone), more
 * than the rest of the first rows together. So the first rows are shown without their time cells,
 * and the date formatters are built after those rows are painted, once for every board.
 */
import { formatJalaliDate, formatTime, formatUpdated } from '../format/date';
import { afterPaint } from './after-paint';

let ready = false;
let preparing: Promise<void> | undefined;

/** Whether the time cells can be formatted without the set-up cost. */
export function datesReady(): boolean {
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
      ready = true;
      resolve();
    }),
  );
  return preparing;
}
