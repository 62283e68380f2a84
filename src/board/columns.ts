/**
 * The board's columns beyond today's and its title links (DESIGN.md section 10): their code
 * (`extra-columns.ts`) is loaded only when one of them is shown or `link` is set, and the first
 * rows never wait for it: their cells fill in when it arrives. While `bubble` is shown the board
 * follows `ons` and `usd` beside its symbols, without rows.
 */
import type { LitElement } from 'lit';
import type { Column } from '../shared/attribute-table';
import type { ColumnSettings, ColumnsSource, ExtraColumns } from './extra-columns';
import { importOnce } from '../widget/lazy-import';

/** The columns' chunk, once per page (the relay's renderer imports it through this before its first render). */
export const loadExtraColumns = importOnce(() => import('./extra-columns'));

/** The columns the initial module draws itself (today's board). */
const OWN: readonly Column[] = ['price', 'change', 'high', 'low', 'time'];

/** The symbols to subscribe to: the board's, and the bubble's inputs while it is shown. */
export function followed(symbols: readonly string[], columns: readonly Column[]): string[] {
  const inputs = columns.includes('bubble') ? ['ons', 'usd'].filter((s) => !symbols.includes(s)) : [];
  return [...symbols, ...inputs];
}

export class Columns {
  readonly #host: LitElement;
  readonly #source: ColumnsSource;
  /** The columns' chunk, once loaded. */
  extra: ExtraColumns | undefined;
  #loading = false;

  constructor(host: LitElement, source: ColumnsSource) {
    this.#host = host;
    this.#source = source;
  }

  /**
   * Before each render: asks for the chunk when the settings need it (again after a failure), and
   * uses it at once once it is loaded (a board added later, or the relay's render, whose renderer
   * imports it first).
   */
  update(s: ColumnSettings): void {
    if (!this.extra && (s.link || s.columns.some((c) => !OWN.includes(c)))) {
      const loaded = loadExtraColumns.loaded;
      if (loaded) this.extra = new loaded.ExtraColumns(this.#host, this.#source);
      else if (!this.#loading) {
        // One import at a time (each update until it lands would add its own callback); a failed one is asked again.
        this.#loading = true;
        loadExtraColumns()
          .then(
            () => this.#host.requestUpdate(),
            () => {},
          )
          .finally(() => (this.#loading = false));
      }
    }
    this.extra?.update(s);
  }
}
