/**
 * Keyboard handling of the rows: Enter/Space select a row, the arrows, Home and End move focus
 * between rows (one tab stop for the whole table: a roving tabindex).
 */

export type RowAction = 'select' | 'next' | 'previous' | 'first' | 'last';

const KEYS: Readonly<Record<string, RowAction>> = {
  Enter: 'select',
  ' ': 'select',
  ArrowDown: 'next',
  ArrowUp: 'previous',
  Home: 'first',
  End: 'last',
};

/** What a key press on a row does, if anything (modified keys are left to the browser). */
export function rowAction(event: KeyboardEvent): RowAction | undefined {
  if (event.altKey || event.ctrlKey || event.metaKey) return undefined;
  return KEYS[event.key];
}

/** The row to focus for a move from `from` among `rows`. */
export function moveTarget(
  rows: readonly HTMLElement[],
  from: HTMLElement,
  action: Exclude<RowAction, 'select'>,
): HTMLElement | undefined {
  const i = rows.indexOf(from);
  if (action === 'first') return rows[0];
  if (action === 'last') return rows[rows.length - 1];
  return rows[Math.min(rows.length - 1, Math.max(0, i + (action === 'next' ? 1 : -1)))];
}
