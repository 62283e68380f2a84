/**
 * Selecting a row's symbol for the chart: the one place it happens, for a click before the
 * board's extras are there (`price-board.ts`) and for clicks and keys with them (`row-selection.ts`).
 */
import { emit } from '../widget/emit';

/** What a selection needs of the board. */
export interface SelectionTarget extends EventTarget {
  /** The `chart-symbol` property, set when the user selects a row. */
  chartSymbol: string | undefined;
}

/** The row an event happened in (`[part~=row][data-symbol]`), and its symbol. */
export function rowOf(event: Event): { row: HTMLElement; symbol: string } | undefined {
  const row = (event.target as Element | null)?.closest<HTMLElement>('[part~="row"][data-symbol]');
  const symbol = row?.dataset.symbol;
  return row && symbol ? { row, symbol } : undefined;
}

/** The symbol a click selects: its row's, unless the click follows the title's link. */
export function clickedRow(event: Event): string | undefined {
  return (event.target as Element | null)?.closest('a[href]') ? undefined : rowOf(event)?.symbol;
}

/** Selects `symbol` (`price-board-select`) unless it is the one shown (`selected`). */
export function selectRow(target: SelectionTarget, symbol: string, selected: string): void {
  if (symbol === selected) return;
  target.chartSymbol = symbol;
  emit(target, 'price-board-select', { symbol });
}
