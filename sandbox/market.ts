// The simulated market: the "source" the service reads every few seconds. Each read changes only
// some prices (a small seeded random walk); a change sets that symbol's updated_at and moves the
// high/low of its Tehran day. Outside trading hours nothing changes.
import { compare, dollarsToToman, divideBy10, fromUnits, isDecimal, max, min, percentChange } from './decimal';
import { mulberry32, normal, type Random } from './random';
import { roundPrice, SYMBOLS, SYMBOL_MAP, type SymbolDef } from './symbols';
import { isoTehran, isTradingHours, lastTradingMoment, tehranDay } from './tehran';
import type { Category, MarketMode, Quote } from './types';

interface State {
  price: string;
  prevClose: string;
  high: string;
  low: string;
  updatedAt: number;
  /** Tehran day of the last change: high, low and change_pct refer to it. */
  day: string;
}

export interface PriceSetting {
  symbol: string;
  price: string;
  updated_at?: string;
}

/** Chance that one source read changes a symbol. */
const CHANCE = { active: 0.35, rare: 0.02 };
/** Volatility of one change. */
const SIGMA: Record<Category, number> = { currency: 0.0012, gold: 0.0015, coin: 0.0018, silver: 0.002, global: 0.0008 };
/** Pull back towards the typical level, so the walk stays plausible for days. */
const REVERSION = 0.02;

interface MarketOptions {
  seed: number;
  mode: MarketMode;
  now: () => number;
}

export class Market {
  readonly #states = new Map<string, State>();
  readonly #quotes = new Map<string, Quote>();
  readonly #listeners = new Set<(quote: Quote) => void>();
  #random: Random;
  /** Trading state: `auto` follows Tehran hours. */
  mode: MarketMode;

  readonly #options: MarketOptions;

  constructor(options: MarketOptions) {
    this.#options = options;
    this.mode = options.mode;
    this.#random = mulberry32(options.seed);
    this.#seedState();
  }

  get open(): boolean {
    return this.mode === 'open' || (this.mode === 'auto' && isTradingHours(this.#options.now()));
  }

  /** Back to the state the sandbox started in (same seed, same mode option). */
  reset(): void {
    this.mode = this.#options.mode;
    this.#random = mulberry32(this.#options.seed);
    this.#seedState();
  }

  quote(symbol: string): Quote | undefined {
    return this.#quotes.get(symbol);
  }

  /** Called with every changed quote (source reads and settings). */
  onChange(listener: (quote: Quote) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** One read of the source: returns the symbols whose price changed. */
  tick(): string[] {
    if (!this.open) return [];
    const changed: string[] = [];
    for (const def of SYMBOLS) {
      if (this.#random() >= (def.active ? CHANCE.active : CHANCE.rare)) continue;
      this.#change(def, this.#nextPrice(def), this.#nextTime(def.symbol));
      changed.push(def.symbol);
    }
    return changed;
  }

  /** Sets exact prices (validated first: all or nothing). */
  set(settings: PriceSetting[]): Quote[] {
    for (const s of settings) {
      if (!SYMBOL_MAP.has(s.symbol)) throw new Error(`unknown symbol: ${s.symbol}`);
      if (!isDecimal(s.price) || s.price.startsWith('-')) throw new Error(`price is not a decimal string: ${s.price}`);
      if (s.updated_at !== undefined && Number.isNaN(Date.parse(s.updated_at))) {
        throw new Error(`updated_at is not a date: ${s.updated_at}`);
      }
    }
    return settings.map((s) => {
      const at = s.updated_at === undefined ? this.#nextTime(s.symbol) : Date.parse(s.updated_at);
      return this.#change(SYMBOL_MAP.get(s.symbol)!, s.price, at);
    });
  }

  #seedState(): void {
    const now = this.#options.now();
    const closedSince = this.mode === 'closed' ? now - 3_600_000 : now;
    const lastOpen = this.mode === 'open' ? now : Math.min(lastTradingMoment(now), closedSince);
    const r = this.#random;
    this.#states.clear();
    for (const def of SYMBOLS) {
      const price = roundPrice(def, this.#level(def) * Math.exp(0.004 * normal(r)));
      const prevClose = roundPrice(def, Number(price) * Math.exp(0.01 * normal(r)));
      const high = roundPrice(def, Number(max(price, prevClose)) * (1 + Math.abs(0.002 * normal(r))));
      const low = roundPrice(def, Number(min(price, prevClose)) * (1 - Math.abs(0.002 * normal(r))));
      const updatedAt = Math.round(lastOpen - r() * (def.active ? 10 : 90) * 60_000);
      const day = tehranDay(updatedAt);
      this.#states.set(def.symbol, { price, prevClose, high: max(high, price), low: min(low, price), updatedAt, day });
    }
    this.#quotes.clear();
    for (const def of SYMBOLS) this.#refresh(def);
  }

  /** Where a symbol's price tends: its typical level, or the dollar's cross rate for rare currencies. */
  #level(def: SymbolDef): number {
    return def.perUsd && !def.active ? Number(this.#states.get('usd')!.price) / def.perUsd : def.anchor;
  }

  #change(def: SymbolDef, price: string, at: number): Quote {
    const state = this.#states.get(def.symbol)!;
    const day = tehranDay(at);
    if (day > state.day) {
      state.prevClose = state.price;
      state.high = state.low = state.price;
      state.day = day;
    }
    state.price = price;
    state.high = max(state.high, price);
    state.low = min(state.low, price);
    state.updatedAt = at;
    const quote = this.#refresh(def);
    for (const listener of this.#listeners) listener(quote);
    return quote;
  }

  #refresh(def: SymbolDef): Quote {
    const s = this.#states.get(def.symbol)!;
    const quote: Quote = {
      symbol: def.symbol,
      title: def.title,
      category: def.category,
      unit: def.unit,
      price: s.price,
      // For the dollar-priced symbols: the ounce in tomans at the dollar rate of that moment.
      price_toman: def.dollar ? dollarsToToman(s.price, this.#states.get('usd')!.price) : divideBy10(s.price),
      change_pct: percentChange(s.price, s.prevClose),
      high: s.high,
      low: s.low,
      updated_at: isoTehran(s.updatedAt),
    };
    this.#quotes.set(def.symbol, quote);
    return quote;
  }

  /** Now, but strictly after the symbol's last change, so clients never see two at one time. */
  #nextTime(symbol: string): number {
    return Math.max(this.#options.now(), this.#states.get(symbol)!.updatedAt + 1);
  }

  #nextPrice(def: SymbolDef): string {
    const current = this.#states.get(def.symbol)!.price;
    const cur = Number.isFinite(Number(current)) && Number(current) > 0 ? Number(current) : def.anchor;
    const shock = Math.exp(SIGMA[def.category] * normal(this.#random));
    // Rare currencies re-derive from the dollar; the others walk, pulled back to their level.
    const target = def.perUsd && !def.active ? this.#level(def) * shock : cur * shock * (def.anchor / cur) ** REVERSION;
    const next = roundPrice(def, target);
    if (compare(next, current) !== 0) return next;
    const units = Math.round(cur * 10 ** def.scale) + (this.#random() < 0.5 ? -def.step : def.step);
    return fromUnits(Math.max(def.step, units), def.scale);
  }
}
