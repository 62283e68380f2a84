import { describe, expect, it } from 'vitest';
import { PriceBoardError } from '../../../src/shared/errors';
import type { Candle } from '../../../src/shared/types';
import {
  applyQuoteToCandles,
  type HistoryPoint,
  intervalFor,
  normalizeHistory,
  toCandles,
} from '../../../src/model/history';

const s = (iso: string) => Date.parse(iso) / 1000;
const T1 = s('2026-03-20T10:00:00Z');
const T2 = s('2026-03-20T11:00:00Z');
const flat = (time: number, v: number): HistoryPoint => ({ time, open: v, high: v, low: v, close: v });
const TWO = [flat(T1, 100), flat(T2, 200)];

function badResponse(fn: () => unknown): void {
  expect(fn).toThrow(PriceBoardError);
  expect(fn).toThrow(expect.objectContaining({ code: 'bad_response' }));
}

describe('normalizeHistory: containers', () => {
  const list = [
    { t: T1, price: 100 },
    { t: T2, price: 200 },
  ];

  it('reads a bare list', () => expect(normalizeHistory(list)).toEqual(TWO));
  it('reads {data: list}', () => expect(normalizeHistory({ data: list })).toEqual(TWO));
  for (const key of ['points', 'history', 'candles', 'items', 'prices']) {
    it(`reads {data: {${key}: list}}`, () =>
      expect(normalizeHistory({ data: { symbol: 'usd', [key]: list } })).toEqual(TWO));
    it(`reads a bare {${key}: list}`, () => expect(normalizeHistory({ [key]: list })).toEqual(TWO));
  }
  it('finds the list beside a "data" key that holds none', () => {
    expect(normalizeHistory({ data: 'usd', points: list })).toEqual(TWO);
  });
  it("reads the sandbox's {data: {symbol, days, points: [{at, price}]}}", () => {
    const body = {
      data: {
        symbol: 'usd',
        days: 7,
        points: [
          { at: '2026-03-20T10:00:00Z', price: '100' },
          { at: '2026-03-20T11:00:00Z', price: '200' },
        ],
      },
    };
    expect(normalizeHistory(body)).toEqual(TWO);
  });
});

describe('normalizeHistory: points', () => {
  for (const key of ['t', 'time', 'timestamp', 'date', 'at']) {
    it(`reads the time under "${key}"`, () =>
      expect(normalizeHistory([{ [key]: T1, value: 100 }])).toEqual([flat(T1, 100)]));
  }
  for (const key of ['price', 'value', 'close', 'p']) {
    it(`reads one value under "${key}" as open = high = low = close`, () => {
      expect(normalizeHistory([{ time: T1, [key]: 100 }])).toEqual([flat(T1, 100)]);
    });
  }
  it('reads open/high/low/close', () => {
    expect(normalizeHistory([{ time: T1, open: 10, high: 15, low: 8, close: 12 }])).toEqual([
      { time: T1, open: 10, high: 15, low: 8, close: 12 },
    ]);
  });
  it('reads o/h/l/c', () => {
    expect(normalizeHistory([{ t: T1, o: '10', h: '15', l: '8', c: '12' }])).toEqual([
      { time: T1, open: 10, high: 15, low: 8, close: 12 },
    ]);
  });
  it('reads [time, open, high, low, close] and ignores extra columns', () => {
    expect(normalizeHistory([[T1, 10, 15, 8, 12, 999]])).toEqual([{ time: T1, open: 10, high: 15, low: 8, close: 12 }]);
  });
  it('reads [time, value]', () => expect(normalizeHistory([[T1, '100']])).toEqual([flat(T1, 100)]));
  it('reads string values, including decimals', () => {
    expect(normalizeHistory([{ t: T1, o: '10.5', h: ' 15 ', l: '8.25', c: '12' }])).toEqual([
      { time: T1, open: 10.5, high: 15, low: 8.25, close: 12 },
    ]);
  });
});

describe('normalizeHistory: times', () => {
  const iso = '2026-03-20T10:00:00Z';
  it('reads epoch seconds', () => expect(normalizeHistory([[T1, 1]])[0]!.time).toBe(T1));
  it('reads epoch milliseconds', () => expect(normalizeHistory([[T1 * 1000, 1]])[0]!.time).toBe(T1));
  it('reads numeric strings in seconds and milliseconds', () => {
    expect(normalizeHistory([[String(T1), 1]])[0]!.time).toBe(T1);
    expect(normalizeHistory([[String(T1 * 1000 + 999), 1]])[0]!.time).toBe(T1);
  });
  it('reads ISO 8601 with Z, with an offset, and with fractional seconds', () => {
    expect(normalizeHistory([[iso, 1]])[0]!.time).toBe(T1);
    expect(normalizeHistory([['2026-03-20T13:30:00+03:30', 1]])[0]!.time).toBe(T1);
    expect(normalizeHistory([['2026-03-20T10:00:00.750Z', 1]])[0]!.time).toBe(T1);
  });
  it('gives integer seconds', () => expect(normalizeHistory([[T1 + 0.9, 1]])[0]!.time).toBe(T1));
});

describe('normalizeHistory: order and validity', () => {
  it('sorts unsorted points by time', () => {
    expect(
      normalizeHistory([
        [T2, 200],
        [T1, 100],
      ]),
    ).toEqual(TWO);
  });
  it('keeps the last of points with the same time', () => {
    expect(
      normalizeHistory([
        [T1, 1],
        [T2, 200],
        [T1 * 1000, 100],
      ]),
    ).toEqual(TWO);
  });
  it('drops invalid points and keeps the rest', () => {
    const body = [
      [T1, 100],
      [T2, 200],
      [T1 + 1, 'abc'],
      [T1 + 2, null],
      [T1 + 3, -5],
      [T1 + 4, 0],
      [T1 + 5, 'NaN'],
      [T1 + 6, 'Infinity'],
      ['yesterday', 1],
      [null, 1],
      [0, 1],
      [T1 + 7, 1, 2],
      [T1 + 8],
      { time: T1 + 9 },
      { price: 1 },
      { time: T1 + 10, open: 1, high: 2, low: 1 },
      { time: T1 + 11, o: 1, h: 'x', l: 1, c: 1 },
      'point',
      42,
      null,
      {},
    ];
    expect(normalizeHistory(body)).toEqual(TWO);
  });
  it('repairs an inverted bar to its envelope', () => {
    expect(normalizeHistory([{ t: T1, open: 10, high: 8, low: 15, close: 12 }])).toEqual([
      { time: T1, open: 10, high: 15, low: 8, close: 12 },
    ]);
    expect(normalizeHistory([{ t: T1, open: 20, high: 15, low: 8, close: 5 }])).toEqual([
      { time: T1, open: 20, high: 20, low: 5, close: 5 },
    ]);
  });
  it('throws bad_response when nothing is valid', () => {
    badResponse(() => normalizeHistory([]));
    badResponse(() => normalizeHistory({ data: { points: [[T1, 'x'], { t: 'bad', p: 1 }] } }));
  });
  it('throws bad_response when there is no list of points', () => {
    for (const body of [
      null,
      undefined,
      'text',
      42,
      {},
      { data: null },
      { data: { symbol: 'usd' } },
      { result: [[T1, 1]] },
    ]) {
      badResponse(() => normalizeHistory(body));
    }
  });
});

describe('intervalFor', () => {
  it('gives 5 minutes for 1 day (today, intraday), 1 h for 7 days, 4 h for 30 days and 1 day for 365 days', () => {
    expect(intervalFor(1)).toBe(300);
    expect(intervalFor(7)).toBe(3600);
    expect(intervalFor(30)).toBe(14_400);
    expect(intervalFor(365)).toBe(86_400);
  });
  it('gives the nearest sensible interval for other spans', () => {
    expect(intervalFor(2)).toBe(3600);
    expect(intervalFor(14)).toBe(3600);
    expect(intervalFor(90)).toBe(14_400);
    expect(intervalFor(180)).toBe(86_400);
    expect(intervalFor(NaN)).toBe(3600);
  });
});

describe('toCandles', () => {
  const MIDNIGHT = s('2026-03-20T20:30:00Z'); // 00:00 Tehran, 1405/01/01

  it('starts a daily candle at Tehran midnight (20:30 UTC the day before)', () => {
    const candles = toCandles(
      [flat(MIDNIGHT - 1, 1), flat(MIDNIGHT, 2), flat(MIDNIGHT + 86_399, 3), flat(MIDNIGHT + 86_400, 4)],
      86_400,
    );
    expect(candles.map((c) => c.time)).toEqual([MIDNIGHT - 86_400, MIDNIGHT, MIDNIGHT + 86_400]);
    expect(candles[1]).toEqual({ time: MIDNIGHT, open: 2, high: 3, low: 2, close: 3 });
  });

  it('aligns 4-hour and hourly candles to Tehran hours', () => {
    expect(toCandles([flat(s('2026-03-21T03:00:00Z'), 1)], 14_400)[0]!.time).toBe(s('2026-03-21T00:30:00Z'));
    expect(toCandles([flat(s('2026-03-21T03:00:00Z'), 1)], 3600)[0]!.time).toBe(s('2026-03-21T02:30:00Z'));
    expect(toCandles([flat(s('2026-03-21T03:30:00Z'), 1)], 3600)[0]!.time).toBe(s('2026-03-21T03:30:00Z'));
  });

  it('takes open from the first point, close from the last and the extremes of all', () => {
    const h = 3600;
    const points = [
      { time: MIDNIGHT + h, open: 10, high: 12, low: 9, close: 11 },
      { time: MIDNIGHT + 2 * h, open: 11, high: 20, low: 10, close: 18 },
      { time: MIDNIGHT + 3 * h, open: 18, high: 19, low: 5, close: 7 },
      { time: MIDNIGHT + 4 * h, open: 7, high: 8, low: 6, close: 8 },
    ];
    expect(toCandles(points, 86_400)).toEqual([{ time: MIDNIGHT, open: 10, high: 20, low: 5, close: 8 }]);
    expect(toCandles(points, 14_400)).toEqual([
      { time: MIDNIGHT, open: 10, high: 20, low: 5, close: 7 },
      { time: MIDNIGHT + 4 * h, open: 7, high: 8, low: 6, close: 8 },
    ]);
  });

  it('gives one sorted candle per non-empty bucket, whatever the input order', () => {
    const candles = toCandles(
      [flat(MIDNIGHT + 5 * 86_400, 3), flat(MIDNIGHT, 1), flat(MIDNIGHT + 2 * 86_400, 2)],
      86_400,
    );
    expect(candles).toEqual([
      { time: MIDNIGHT, open: 1, high: 1, low: 1, close: 1 },
      { time: MIDNIGHT + 2 * 86_400, open: 2, high: 2, low: 2, close: 2 },
      { time: MIDNIGHT + 5 * 86_400, open: 3, high: 3, low: 3, close: 3 },
    ]);
  });

  it('buckets a normalised body end to end', () => {
    const body = {
      data: {
        points: [
          ['2026-03-21T05:00:00Z', '300'],
          ['2026-03-20T20:00:00Z', '100'],
          ['2026-03-21T01:00:00Z', '200'],
        ],
      },
    };
    expect(toCandles(normalizeHistory(body), 86_400)).toEqual([
      { time: MIDNIGHT - 86_400, open: 100, high: 100, low: 100, close: 100 },
      { time: MIDNIGHT, open: 200, high: 300, low: 200, close: 300 },
    ]);
  });

  it('does not change the points it is given', () => {
    const points = [flat(T2, 2), flat(T1, 1)];
    toCandles(points, 86_400);
    expect(points).toEqual([flat(T2, 2), flat(T1, 1)]);
  });

  it('starts each day at Tehran midnight across the old summer-time changes (2020)', () => {
    // DST began at 00:00 on 1399/01/01 (+03:30 → +04:30) and ended at 24:00 on 1399/06/30.
    const points = [
      '2020-03-20T12:00:00Z',
      '2020-03-21T06:00:00Z',
      '2020-03-22T06:00:00Z',
      '2020-09-20T19:45:00Z',
      '2020-09-21T06:00:00Z',
    ].map((iso, i) => flat(s(iso), i + 1));
    expect(toCandles(points, 86_400).map((c) => new Date(c.time * 1000).toISOString())).toEqual([
      '2020-03-19T20:30:00.000Z',
      '2020-03-20T20:30:00.000Z',
      '2020-03-21T19:30:00.000Z',
      '2020-09-19T19:30:00.000Z',
      '2020-09-20T20:30:00.000Z',
    ]);
  });

  it('returns nothing for no points and rejects a bad interval', () => {
    expect(toCandles([], 3600)).toEqual([]);
    expect(() => toCandles(TWO, 0)).toThrow(RangeError);
  });
});

describe('applyQuoteToCandles', () => {
  const H = 3600;
  const START = s('2026-03-21T02:30:00Z'); // 06:00 Tehran
  const fresh = (): Candle[] => [
    { time: START - H, open: 90, high: 95, low: 85, close: 92 },
    { time: START, open: 100, high: 110, low: 95, close: 105 },
  ];

  it('updates close, high and low of the last candle within its bucket', () => {
    const candles = fresh();
    const first = candles[1];
    expect(applyQuoteToCandles(candles, 120, START + 60, H)).toEqual({
      candle: { time: START, open: 100, high: 120, low: 95, close: 120 },
      isNew: false,
    });
    expect(applyQuoteToCandles(candles, 90, START + H - 1, H)).toEqual({
      candle: { time: START, open: 100, high: 120, low: 90, close: 90 },
      isNew: false,
    });
    expect(candles).toHaveLength(2);
    expect(candles[1]).toEqual({ time: START, open: 100, high: 120, low: 90, close: 90 });
    expect(first).toEqual(fresh()[1]); // the old candle object is not mutated
  });

  it('rolls over to a new candle at the next bucket, opening at the live value', () => {
    const candles = fresh();
    const result = applyQuoteToCandles(candles, 107, START + H, H);
    expect(result).toEqual({ candle: { time: START + H, open: 107, high: 107, low: 107, close: 107 }, isNew: true });
    expect(candles).toHaveLength(3);
    expect(candles[2]).toBe(result.candle);
  });

  it('skips empty buckets and starts the candle at its Tehran-aligned bucket', () => {
    const candles = fresh();
    expect(applyQuoteToCandles(candles, 1, START + 5 * H + 1234, H).candle.time).toBe(START + 5 * H);
    const daily: Candle[] = [{ time: s('2026-03-19T20:30:00Z'), open: 1, high: 1, low: 1, close: 1 }];
    expect(applyQuoteToCandles(daily, 2, s('2026-03-20T20:30:00Z'), 86_400)).toMatchObject({
      isNew: true,
      candle: { time: s('2026-03-20T20:30:00Z') },
    });
    expect(applyQuoteToCandles(daily, 3, s('2026-03-21T20:29:59Z'), 86_400)).toMatchObject({
      isNew: false,
      candle: { close: 3 },
    });
  });

  it('ignores a time older than the last bucket', () => {
    const candles = fresh();
    expect(applyQuoteToCandles(candles, 1, START - 1, H)).toEqual({ candle: fresh()[1], isNew: false });
    expect(candles).toEqual(fresh());
  });

  it('ignores a value that is not a finite number above zero', () => {
    const candles = fresh();
    for (const v of [NaN, Infinity, 0, -1])
      expect(applyQuoteToCandles(candles, v, START + 10, H)).toEqual({ candle: fresh()[1], isNew: false });
    expect(candles).toEqual(fresh());
  });

  it('starts the first candle when there is none', () => {
    const candles: Candle[] = [];
    expect(applyQuoteToCandles(candles, 5, START + 10, H)).toEqual({
      candle: { time: START, open: 5, high: 5, low: 5, close: 5 },
      isNew: true,
    });
    expect(candles).toHaveLength(1);
    expect(() => applyQuoteToCandles([], NaN, START, H)).toThrow(RangeError);
  });
});
