/**
 * Everything the relay's renderer takes from src/ and from Lit, in one place (as `../from-src.ts`
 * is for the rest of the relay): the widgets' own templates render the fragments, never a second
 * copy of their markup. Loaded when the relay starts (`routes.ts`): the widgets, their board
 * extras and the date formatters, all before the first render, since a render must never start
 * async work that can throw later: an async chunk failing after a render is an unhandled rejection,
 * which ends a Node process.
 */
export { html as staticHtml, unsafeStatic } from 'lit/static-html.js';
export {
  BOARD_ATTRIBUTES,
  CONVERTER_ATTRIBUTES,
  TICKER_ATTRIBUTES,
  type AttributeSpec,
} from '../../src/shared/attribute-table';
export { readSettings, splitSymbols } from '../../src/widget/settings';
export { PriceBoardError } from '../../src/shared/errors';
// What a render reads of the clock: the Tehran day (a quote's time or date) and each quote's staleness.
export { formatJalaliDate, formatTime, formatUpdated } from '../../src/format/date';
// The words a board's status line says of when its rendered prices were read.
export { heldText, tehranMoment } from '../../src/board/status-text';
export { isStale } from '../../src/model/quote';

export { addedStyles } from '../../src/widget/add-styles';
// How embed.html reads its widget and its background, for the relay's rendered page.
export { isTruthyFlag, readWidget, WIDGET_TAGS } from '../../src/embed/params';

/**
 * The symbols the element `tag` subscribes to with `settings` (its `liveSymbols`: its own and
 * those a column or a conversion reads), asked of its class so that the relay follows the same rule.
 */
export function liveSymbolsOf(tag: string, settings: Record<string, unknown>): string[] {
  const element = customElements.get(tag)?.prototype as { liveSymbols(settings: unknown): string[] } | undefined;
  return element ? element.liveSymbols(settings) : (settings.symbols as string[]);
}

/**
 * The widgets registered with the DOM shim; the board's lazy parts loaded through the board's own
 * loaders (a board then takes them in its first update: status text, times, the extra columns) and
 * the date formatters ready. The chart area and the spark's line are not loaded: a render keeps the
 * chart's room, and a spark cell stays empty (its 7 days of history are the client's to fetch).
 */
export async function loadWidgets(): Promise<void> {
  const [{ loadExtras }, { loadExtraColumns }, { prepareDates }] = await Promise.all([
    import('../../src/board/price-board'),
    import('../../src/board/columns'),
    import('../../src/board/dates'),
    import('../../src/price-board'),
    import('../../src/price-ticker'),
    import('../../src/price-converter'),
  ]);
  await Promise.all([loadExtras(), loadExtraColumns(), prepareDates()]);
}
