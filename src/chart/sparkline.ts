/**
 * A sparkline (pure: no DOM, no lit): a price series → one SVG path in a small viewBox, scaled to
 * the series' own low and high, and its direction (last value against the first). Floats serve
 * only the pixel coordinates; the direction compares decimal strings exactly, so two 20-digit
 * prices that one float cannot tell apart still say which way the price went.
 */
import { parseDecimal, type Decimal } from '../format/decimal';

/** The viewBox (`0 0 64 20`): the cell scales it. */
export const SPARK_WIDTH = 64;
export const SPARK_HEIGHT = 20;
/** Room above the high and below the low for half the stroke. */
const INSET = 1;
/** Points drawn at most: two per unit of width is finer than any screen shows the line. */
const MAX_POINTS = 2 * SPARK_WIDTH;

export type SparkDirection = 'up' | 'down' | 'flat';

/** One value at a time (UTC seconds): a decimal string (exact) or a number. */
export interface SparkPoint {
  time: number;
  value: string | number;
}

export interface Sparkline {
  /** The `d` of an SVG path in the viewBox `0 0 SPARK_WIDTH SPARK_HEIGHT`. */
  path: string;
  direction: SparkDirection;
}

/** A price is a finite number above zero. */
const isPrice = (n: number): boolean => n > 0 && n < Infinity;

/** At most `max` of `points`, evenly spread by index, the first and the last always among them. */
function thin<T>(points: readonly T[], max: number): readonly T[] {
  if (points.length <= max) return points;
  return Array.from({ length: max }, (_, i) => points[Math.round((i * (points.length - 1)) / (max - 1))]!);
}

/** A coordinate with at most two decimals (`12.5`, `0`, `19`). */
const coord = (n: number): string => String(Math.round(n * 100) / 100);

/** −1, 0 or 1 as `a` is below, equal to or above `b` (both at or above zero, in canonical form). */
function compareDecimals(a: Decimal, b: Decimal): number {
  if (a.int.length !== b.int.length) return Math.sign(a.int.length - b.int.length);
  if (a.int !== b.int) return a.int < b.int ? -1 : 1;
  const width = Math.max(a.frac.length, b.frac.length);
  const [fa, fb] = [a.frac.padEnd(width, '0'), b.frac.padEnd(width, '0')];
  return fa === fb ? 0 : fa < fb ? -1 : 1;
}

/** Whether `last` is above, below or equal to `first`: exactly when both are decimal strings. */
function directionOf(first: SparkPoint['value'], last: SparkPoint['value']): SparkDirection {
  let sign: number;
  try {
    if (typeof first !== 'string' || typeof last !== 'string') throw new TypeError('not two strings');
    sign = compareDecimals(parseDecimal(last), parseDecimal(first));
  } catch {
    sign = Math.sign(Number(last) - Number(first));
  }
  return sign > 0 ? 'up' : sign < 0 ? 'down' : 'flat';
}

/**
 * The sparkline of `points` (oldest first; values that are not prices are left out), x by time
 * and y between the lowest and highest value drawn; a flat line across the middle when they are
 * equal or when there is only one time. `undefined` when no point is a price.
 */
export function sparkline(points: readonly SparkPoint[]): Sparkline | undefined {
  const valid = points
    .map((p) => ({ time: p.time, value: p.value, y: Number(p.value) }))
    .filter((p) => isPrice(p.y) && Number.isFinite(p.time));
  if (valid.length === 0) return undefined;
  const direction = directionOf(valid[0]!.value, valid[valid.length - 1]!.value);
  const drawn = thin(valid, MAX_POINTS);
  const first = drawn[0]!.time;
  const span = drawn[drawn.length - 1]!.time - first;
  const ys = drawn.map((p) => p.y);
  const [low, high] = [Math.min(...ys), Math.max(...ys)];
  const middle = coord(SPARK_HEIGHT / 2);
  if (!(span > 0)) return { path: `M0 ${middle}H${SPARK_WIDTH}`, direction };
  const scale = (SPARK_HEIGHT - 2 * INSET) / (high - low);
  const path = drawn
    .map((p, i) => {
      const x = coord(((p.time - first) / span) * SPARK_WIDTH);
      const y = high > low ? coord(INSET + (high - p.y) * scale) : middle;
      return `${i ? 'L' : 'M'}${x} ${y}`;
    })
    .join('');
  return { path, direction };
}
