/**
 * What the user does with the rows, with the board's extras (`board-controllers.ts`): a click, Enter
 * or Space selects a row's symbol for the chart (`price-board-select`); the arrows, Home and End
 * move focus between rows, and the row last focused keeps the table's one tab stop (a roving
 * tabindex). Until the extras are there (they are asked for once the first render is painted), a
 * click still selects (`price-board.ts`), and a key on a row does what the browser does.
 */
import type { ReactiveControllerHost } from 'lit';
import { moveTarget, rowAction } from './row-keys';
import { clickedRow, rowOf, selectRow, type SelectionTarget } from './select-row';

/** What a selection needs of the board. */
export interface SelectionHost extends ReactiveControllerHost, SelectionTarget {
  readonly renderRoot: HTMLElement | DocumentFragment;
}

const ROW = '[part~="row"][data-symbol]';

export class RowSelection {
  readonly #host: SelectionHost;
  /** The row last focused. */
  #focused: string | undefined;

  constructor(host: SelectionHost) {
    this.#host = host;
  }

  /** The symbol whose row takes Tab: the row last focused while it is shown, else the selected one. */
  tabStop(symbols: readonly string[], selected: string): string {
    return this.#focused && symbols.includes(this.#focused) ? this.#focused : selected;
  }

  /** A click, key press or focus in the rows; `selected` is the chart symbol shown. */
  handle(event: Event, selected: string): void {
    const { row, symbol } = rowOf(event) ?? {};
    if (!row || !symbol) return;
    if (event.type === 'focusin') return this.#focus(symbol);
    if (event.type === 'click') {
      if (clickedRow(event)) this.#select(symbol, selected);
      return;
    }
    const action = rowAction(event as KeyboardEvent);
    if (!action || event.target !== row) return;
    event.preventDefault();
    if (action === 'select') return this.#select(symbol, selected);
    moveTarget([...this.#host.renderRoot.querySelectorAll<HTMLElement>(ROW)], row, action)?.focus();
  }

  #select(symbol: string, selected: string): void {
    this.#focus(symbol);
    selectRow(this.#host, symbol, selected);
  }

  #focus(symbol: string): void {
    if (symbol === this.#focused) return;
    this.#focused = symbol;
    this.#host.requestUpdate();
  }
}
