import { describe, expect, it } from 'vitest';
import { STALE_AFTER_MS, direction, isStale } from '../../../src/model/quote';

describe('direction', () => {
  it.each([
    ['1.23', 'up'],
    ['+0.01', 'up'],
    ['-0.54', 'down'],
    ['-0.005', 'down'],
    ['0.005', 'up'],
    // What shows as ۰٪ has no arrow and no colour: the sign of the percent as shown.
    ['-0.000001', 'flat'],
    ['0.004', 'flat'],
    ['-0.0049', 'flat'],
    ['0', 'flat'],
    ['0.00', 'flat'],
    ['-0', 'flat'],
    ['-0.00', 'flat'],
    ['+0', 'flat'],
    ['', 'flat'],
    ['abc', 'flat'],
  ] as const)('change_pct %j is %s', (change_pct, expected) => {
    expect(direction({ change_pct })).toBe(expected);
  });
});

describe('isStale', () => {
  const now = new Date('2026-01-01T12:00:00Z');
  it('is fresh within 30 minutes', () => {
    expect(isStale({ updated_at: new Date(now.getTime() - STALE_AFTER_MS).toISOString() }, now)).toBe(false);
    expect(isStale({ updated_at: '2026-01-01T15:29:00+03:30' }, now)).toBe(false);
  });
  it('is stale after 30 minutes', () => {
    expect(isStale({ updated_at: new Date(now.getTime() - STALE_AFTER_MS - 1).toISOString() }, now)).toBe(true);
  });
  it('treats an unreadable time as stale', () => {
    expect(isStale({ updated_at: 'never' }, now)).toBe(true);
  });
});
