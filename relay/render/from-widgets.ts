/**
 * Everything the relay's renderer takes from src/ and from Lit, in one place (as `../from-src.ts`
 * is for the rest of the relay): the widgets' own templates render the fragments, never a second
 * copy of their markup. Loaded only when a fragment is first asked for: the widgets, their board
 * extras and the date formatters, all before the first render, since a render must never start
 * async work that can throw later (docs/spike-render.md 2.3).
 */
export { html as staticHtml, unsafeStatic } from 'lit/static-html.js';
export {
  BOARD_ATTRIBUTES,
  CONVERTER_ATTRIBUTES,
  TICKER_ATTRIBUTES,
  type AttributeSpec,
} from '../../src/shared/attribute-table';
export { readSettings } from '../../src/widget/settings';
export { PriceBoardError } from '../../src/shared/errors';
// What a render reads of the clock: the Tehran day (a quote's time or date) and each quote's staleness.
export { formatJalaliDate } from '../../src/format/date';
export { isStale } from '../../src/model/quote';

/** The widgets registered with the DOM shim, the board's extras handed to it, the dates ready. */
export async function loadWidgets(): Promise<{ boardStyles: readonly { cssText: string }[] }> {
  const [{ PriceBoard }, extras] = await Promise.all([
    import('../../src/price-board'),
    import('../../src/board/board-controllers'),
    import('../../src/price-ticker'),
    import('../../src/price-converter'),
  ]);
  await extras.prepareDates();
  PriceBoard.renderWithExtras(extras);
  return { boardStyles: extras.EXTRA_STYLES };
}
