/**
 * The connection attributes every widget shares with the board (DESIGN.md §8): the board's
 * attribute table minus its chart's, as Lit property declarations.
 */
import type { PropertyDeclaration } from 'lit';
import { ATTRIBUTE_NAMES, type BoardAttributes } from '../board/attributes';

/** The board's attributes that only its chart reads. */
const CHART_ONLY: ReadonlySet<keyof BoardAttributes> = new Set(['chart', 'chartSymbol', 'days']);

export type ConnectionKey = Exclude<keyof BoardAttributes, 'chart' | 'chartSymbol' | 'days'>;

/** Property names of the connection attributes, in the board's order. */
export const CONNECTION_KEYS = (Object.keys(ATTRIBUTE_NAMES) as (keyof BoardAttributes)[]).filter(
  (key): key is ConnectionKey => !CHART_ONLY.has(key),
);

/** Lit declarations: each reflects, but the key (never copied into the DOM). */
export const CONNECTION_PROPERTIES: Record<ConnectionKey, PropertyDeclaration> = Object.fromEntries(
  CONNECTION_KEYS.map((key) => [
    key,
    { attribute: ATTRIBUTE_NAMES[key], reflect: key !== 'apiKey', ...(key === 'pollInterval' ? { type: Number } : {}) },
  ]),
) as Record<ConnectionKey, PropertyDeclaration>;
