// Deterministic price history. The walk is defined on absolute 15-minute slots of Tehran time,
// each slot's move seeded by (seed, symbol, slot), and it is anchored at the current price: so
// the same request gives the same points, spans of 7, 30 and 365 days agree where they overlap,
// and the last point is the quote's price. The walk stands still outside trading hours.
import { hashString, normalAt } from './random';
import { roundPrice, type SymbolDef } from './symbols';
import { isoWithOffset, isTradingLocal, tehranOffsetMs } from './tehran';
import type { Category } from './types';

export interface HistoryPoint {
  at: string;
  price: string;
}

const SLOT_MS = 15 * 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Growth per trading slot: rial prices rise about 30% a year (6 days × 14 h × 4 slots × 52). */
const DRIFT = Math.log(1.3) / (6 * 14 * 4 * 52);
const SIGMA: Record<Category, number> = { currency: 0.0012, gold: 0.0015, coin: 0.0017, silver: 0.002, global: 0.0012 };

/** Spacing of the points: 15 minutes up to 7 days, hourly up to 31, every 4 hours beyond. */
export function historyStepMs(days: number): number {
  return days <= 7 ? SLOT_MS : days <= 31 ? HOUR_MS : 4 * HOUR_MS;
}

/**
 * Points from `days` ago up to the last 15-minute slot at or before `now` (that one carries
 * `currentPrice` exactly), oldest first, on a grid aligned to Tehran midnight.
 */
export function buildHistory(
  def: SymbolDef,
  currentPrice: string,
  days: number,
  now: number,
  seed: number,
): HistoryPoint[] {
  const offset = tehranOffsetMs(now);
  const stepMs = historyStepMs(days);
  const start = now - days * DAY_MS;
  const symbolSeed = hashString(`${seed}:${def.symbol}`);
  const sigma = SIGMA[def.category];
  const parsed = Number(currentPrice);
  const current = Number.isFinite(parsed) && parsed > 0 ? parsed : def.anchor;
  let slot = Math.floor((now + offset) / SLOT_MS);
  const points: HistoryPoint[] = [{ at: isoWithOffset(slot * SLOT_MS - offset, offset), price: currentPrice }];
  let logRelative = 0;
  for (;;) {
    const slotStart = (slot - 1) * SLOT_MS;
    if (isTradingLocal(slotStart)) logRelative -= DRIFT + sigma * normalAt(symbolSeed, slot);
    slot -= 1;
    if (slotStart - offset < start) break;
    if (slotStart % stepMs === 0) {
      points.push({
        at: isoWithOffset(slotStart - offset, offset),
        price: roundPrice(def, current * Math.exp(logRelative)),
      });
    }
  }
  return points.reverse();
}
