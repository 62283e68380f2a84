import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../../src/api/retry-after';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T10:00:00Z');
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('1.5', now)).toBe(1_500);
  });
  it('reads an HTTP date relative to now', () => {
    expect(parseRetryAfter('Thu, 01 Jan 2026 10:00:30 GMT', now)).toBe(30_000);
  });
  it('never returns a negative wait for a past date', () => {
    expect(parseRetryAfter('Thu, 01 Jan 2026 09:00:00 GMT', now)).toBe(0);
  });
  it('is undefined when absent or unreadable', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });
});
