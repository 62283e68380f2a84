import { describe, expect, it } from 'vitest';
import { SPARK_HEIGHT, SPARK_WIDTH, sparkline, type SparkPoint } from '../../../src/chart/sparkline';

/** The [x, y] pairs of a path of M/L commands. */
const coords = (path: string): number[][] =>
  [...path.matchAll(/[ML]([\d.]+) ([\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);

/** The sparkline of [time, value] points. */
const lineOf = (...points: [time: number, value: SparkPoint['value']][]) =>
  sparkline(points.map(([time, value]) => ({ time, value })));

/** The direction of a line from `first` to `last`, a minute later. */
const directionOf = (first: string, last: string) => lineOf([0, first], [60, last])?.direction;

describe('sparkline', () => {
  it('scales time across the width and values between the low and the high, inset by 1', () => {
    // span 100 s → x 0, 32, 64; low 90 → y 19, high 110 → y 1, 100 → y 10 (18 px for 20 of price)
    expect(lineOf([1000, '100'], [1050, '110'], [1100, '90'])).toEqual({ path: 'M0 10L32 1L64 19', direction: 'down' });
  });

  it('places points by time, not by index, and rounds coordinates to two decimals', () => {
    // x: 0, 64 × 10/30 = 21.333 → 21.33, 64; y: 200 → 19, 300 → 1, 250 → 10
    expect(lineOf([0, 200], [10, 300], [30, 250])).toEqual({ path: 'M0 19L21.33 1L64 10', direction: 'up' });
  });

  it('is undefined with no point that is a price', () => {
    expect(sparkline([])).toBeUndefined();
    expect(lineOf([1, 'abc'], [2, 0], [3, '-5'], [4, Infinity])).toBeUndefined();
  });

  it('draws a flat line across the middle for one point', () => {
    expect(sparkline([{ time: 5, value: '42000' }])).toEqual({ path: `M0 10H${SPARK_WIDTH}`, direction: 'flat' });
  });

  it('draws a flat line across the middle when every value is equal', () => {
    const line = lineOf([0, '7.5'], [40, '7.50'], [80, 7.5])!;
    expect(line).toEqual({ path: 'M0 10L32 10L64 10', direction: 'flat' });
  });

  it('leaves out values that are not prices, keeping the rest', () => {
    expect(lineOf([0, '10'], [50, 'NaN'], [100, '20'])).toEqual({ path: 'M0 19L64 1', direction: 'up' });
  });

  it('says the direction of 20-digit prices exactly, where floats see no change', () => {
    const first = '12345678901234567890';
    const last = '12345678901234567891';
    expect(Number(first)).toBe(Number(last));
    expect(lineOf([0, first], [60, last])).toEqual({
      path: 'M0 10L64 10',
      direction: 'up',
    });
    expect(directionOf(last, first)).toBe('down');
    expect(directionOf('99999999999999999999', '100000000000000000000')).toBe('up');
    expect(directionOf('12345678901234567890.10', '12345678901234567890.1')).toBe('flat');
    expect(directionOf('0.000000000000000000011', '0.00000000000000000001')).toBe('down');
  });

  it('scales 20-digit prices that floats can tell apart', () => {
    // 1e20 and 3e20 are the low and the high: y 19 and 1, 2e20 halfway
    expect(lineOf([0, '100000000000000000000'], [1, '300000000000000000000'], [2, '200000000000000000000'])).toEqual({
      path: 'M0 19L32 1L64 10',
      direction: 'up',
    });
  });

  it('draws at most 128 points of a long series, the first and the last among them', () => {
    const points = Array.from({ length: 672 }, (_, i) => ({ time: i * 900, value: String(1000 + (i % 7)) }));
    points[671] = { time: 671 * 900, value: '999' };
    const line = sparkline(points)!;
    const xy = coords(line.path);
    expect(xy).toHaveLength(128);
    expect(xy[0]![0]).toBe(0);
    expect(xy.at(-1)).toEqual([SPARK_WIDTH, SPARK_HEIGHT - 1]);
    expect(line.direction).toBe('down');
    for (const [x, y] of xy) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(SPARK_WIDTH);
      expect(y).toBeGreaterThanOrEqual(1);
      expect(y).toBeLessThanOrEqual(SPARK_HEIGHT - 1);
    }
  });
});
