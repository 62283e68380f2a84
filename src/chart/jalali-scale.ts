/**
 * The time axis in the Jalali calendar and Tehran time. lightweight-charts' own time scale weighs
 * points by UTC Gregorian boundaries, so its bold month ticks would fall on 1 December rather than
 * on 1 Azar; this behaviour weighs them by the Jalali calendar on Tehran's wall clock instead, and
 * labels them in Persian. Horizontal items are UTC epoch seconds.
 */
import type {
  ChartOptionsImpl,
  HorzScaleItemConverterToInternalObj,
  IHorzScaleBehavior,
  InternalHorzScaleItem,
  InternalHorzScaleItemKey,
  Mutable,
  TickMark,
  TickMarkWeightValue,
  TimeMark,
  TimeScalePoint,
} from 'lightweight-charts';
import { formatJalaliDate, formatTime } from '../format/date';
import { tehranParts } from '../format/tehran-parts';
import { tehranOffsetSeconds } from '../format/tehran-offset';
import { dateTimeFormat } from '../format/intl-cache';
import { toPersianDigits } from '../format/number';

/*
 * Tick-mark weights, on the same scale as lightweight-charts' `TickMarkWeight`, so that its
 * renderer treats ours alike. Plain constants, which the minifier writes as numbers.
 */
export const SECOND_MARK = 10;
export const MINUTE_MARK = 20;
export const MINUTE5_MARK = 21;
export const MINUTE30_MARK = 22;
export const HOUR_MARK = 30;
export const HOUR3_MARK = 31;
export const HOUR6_MARK = 32;
export const HOUR12_MARK = 33;
export const DAY_MARK = 50;
export const MONTH_MARK = 60;
export const YEAR_MARK = 70;

const DAY = 86_400;

/** Intraday boundaries, coarsest first: [period in seconds of Tehran wall-clock time, weight]. */
const INTRADAY: ReadonlyArray<readonly [number, number]> = [
  [43_200, HOUR12_MARK],
  [21_600, HOUR6_MARK],
  [10_800, HOUR3_MARK],
  [3_600, HOUR_MARK],
  [1_800, MINUTE30_MARK],
  [300, MINUTE5_MARK],
  [60, MINUTE_MARK],
  [1, SECOND_MARK],
];

/** An instant as Tehran reads it: Jalali date and wall-clock seconds since the epoch. */
interface Stamp {
  year: number;
  month: number;
  day: number;
  wall: number;
}

function stamp(time: number): Stamp {
  const d = new Date(time * 1000);
  const { year, month, day } = tehranParts(d);
  return { year, month, day, wall: time + tehranOffsetSeconds(d) };
}

function weightBetween(prev: Stamp, cur: Stamp): number {
  if (cur.year !== prev.year) return YEAR_MARK;
  if (cur.month !== prev.month) return MONTH_MARK;
  if (cur.day !== prev.day) return DAY_MARK;
  for (const [period, weight] of INTRADAY) {
    if (Math.floor(prev.wall / period) !== Math.floor(cur.wall / period)) return weight;
  }
  return 0;
}

/**
 * The weight of the boundary crossed going from `prev` to `time` (both UTC seconds):
 * `YEAR_MARK` when the Jalali year changes in Tehran, `MONTH_MARK` for a Jalali month,
 * `DAY_MARK` for a Tehran day, else the coarsest wall-clock period crossed.
 */
export function jalaliWeight(prev: number, time: number): number {
  return weightBetween(stamp(prev), stamp(time));
}

/**
 * A tick label for a point of that weight: the Jalali year (`۱۴۰۵`), the month name (`آذر`), the
 * day of the month (`۱۲`) or the time (`۱۴:۰۵`).
 */
export function tickLabel(time: number, weight: number): string {
  const d = new Date(time * 1000);
  if (weight < DAY_MARK) return formatTime(d);
  if (weight >= MONTH_MARK && weight < YEAR_MARK) {
    return dateTimeFormat('fa-IR', { timeZone: 'Asia/Tehran', month: 'long' }).format(d);
  }
  const { year, day } = tehranParts(d);
  return toPersianDigits(String(weight >= YEAR_MARK ? year : day));
}

const asNumber = (item: InternalHorzScaleItem | number): number => item as unknown as number;
const toInternal = (time: number): InternalHorzScaleItem => time as unknown as InternalHorzScaleItem;

/** `IHorzScaleBehavior` over UTC seconds with Jalali/Tehran tick marks; pass it to `createChartEx`. */
export class JalaliTimeScale implements IHorzScaleBehavior<number> {
  #options!: ChartOptionsImpl<number>;
  /**
   * Whether the points are intraday (less than a day apart, or a lone one not at Tehran midnight,
   * as today's first candle is): the crosshair label and the caption then show the time too.
   */
  #intraday = true;
  /**
   * Whether the axis may name times of day: only when the points span less than two days (the
   * 1-day chart, today's and maybe the evening before). On a 7- or 30-day axis of hourly candles a
   * lone `۱۲:۰۰` among the dates reads as a date; its mark stays (a grid line), unlabelled.
   */
  #timesOfDay = true;

  options(): ChartOptionsImpl<number> {
    return this.#options;
  }

  setOptions(options: ChartOptionsImpl<number>): void {
    this.#options = options;
  }

  preprocessData(): void {}

  /** Labels are always Persian: they do not follow `localization.locale`. */
  updateFormatter(): void {}

  createConverterToInternalObj(): HorzScaleItemConverterToInternalObj<number> {
    return toInternal;
  }

  key(item: InternalHorzScaleItem | number): InternalHorzScaleItemKey {
    return item as unknown as InternalHorzScaleItemKey;
  }

  cacheKey(item: InternalHorzScaleItem): number {
    return asNumber(item);
  }

  convertHorzItemToInternal(item: number): InternalHorzScaleItem {
    return toInternal(item);
  }

  /**
   * The crosshair's time label. The canvas lays text out left to right; a leading RLM makes it one
   * right-to-left run, so that the day stays before the month name.
   */
  formatHorzItem(item: InternalHorzScaleItem): string {
    return `\u200f${this.label(asNumber(item))}`;
  }

  /**
   * The first point's label is its whole date (`۵ آذر ۱۴۰۴`, one right-to-left run like the
   * crosshair's): alone at the left end of the axis, a day number or a time reads as cut off.
   */
  formatTickmark(mark: TickMark): string {
    const time = asNumber(mark.time);
    if (mark.index === 0) return `\u200f${formatJalaliDate(new Date(time * 1000), 'long')}`;
    return mark.weight < DAY_MARK && !this.#timesOfDay ? '' : tickLabel(time, mark.weight);
  }

  maxTickMarkWeight(marks: TimeMark[]): TickMarkWeightValue {
    let max = 0;
    for (const mark of marks) max = Math.max(max, mark.weight);
    // As lightweight-charts does: when hours are the boldest, all hour labels look alike.
    if (max > HOUR_MARK && max < DAY_MARK) max = HOUR_MARK;
    return max as TickMarkWeightValue;
  }

  fillWeightsForPoints(points: readonly Mutable<TimeScalePoint>[], startIndex: number): void {
    const n = points.length;
    if (startIndex >= n) return;
    const timeAt = (i: number): number => asNumber(points[i]!.time);
    let prev = startIndex > 0 ? stamp(timeAt(startIndex - 1)) : null;
    for (let i = startIndex; i < n; i++) {
      const cur = stamp(timeAt(i));
      if (prev) points[i]!.timeWeight = weightBetween(prev, cur) as TickMarkWeightValue;
      prev = cur;
    }
    if (startIndex === 0) {
      // The first point has no predecessor: pretend one came the average spacing earlier. It weighs
      // at least a month, so that its label (its whole date, `formatTickmark`) is the one drawn at
      // the left end rather than a lone day number or time beside it.
      const step = n > 1 ? Math.ceil((timeAt(n - 1) - timeAt(0)) / (n - 1)) : DAY;
      this.#intraday = step < DAY || stamp(timeAt(0)).wall % DAY !== 0;
      this.#timesOfDay = timeAt(n - 1) - timeAt(0) < 2 * DAY;
      points[0]!.timeWeight = Math.max(MONTH_MARK, jalaliWeight(timeAt(0) - step, timeAt(0))) as TickMarkWeightValue;
    }
  }

  /** The long Jalali date of `time` (`۱ آذر ۱۴۰۵`), plus the Tehran time for intraday data. */
  label(time: number): string {
    const d = new Date(time * 1000);
    const date = formatJalaliDate(d, 'long');
    return this.#intraday ? `${date} ${formatTime(d)}` : date;
  }
}
