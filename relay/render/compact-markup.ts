/**
 * A render's markup as the widgets' build writes their templates: lit's markers out (the client
 * renders over a server's nodes and never hydrates them: `widget/price-widget.ts`), each style
 * block's CSS and each indentation run of the templates minified as the build minifies them
 * (`build/literal-text.ts`). The same rows in about half the bytes and with no comment nodes: less
 * for the page's parser before its first paint.
 */
import { minifyCssText, minifyHtmlText } from '../../build/literal-text';

/** lit's part and node markers, the only comments a render holds (service text is escaped). */
const MARKERS = /<!--\/?lit-(?:part|node)[^>]*-->/g;

/**
 * A style block's text minified, per text: a widget has one or two (the board's extras), a build
 * a handful. Bounded all the same.
 */
const minified = new Map<string, string>();

function minifiedCss(text: string): string {
  let out = minified.get(text);
  if (out === undefined) {
    if (minified.size >= 32) minified.clear();
    out = minifyCssText(text);
    minified.set(text, out);
  }
  return out;
}

/**
 * `markup` compacted. Between a `>` and the next `<` lies text (a render escapes every `<` and `>`
 * of attribute values and service text), so only text runs lose their indentation; attribute values
 * (a sizer's lines in `data-w`) keep theirs.
 */
export function compactMarkup(markup: string): string {
  return markup
    .split(/<style>([\s\S]*?)<\/style>/)
    .map((part, i) =>
      i % 2
        ? `<style>${minifiedCss(part)}</style>`
        : part.replace(MARKERS, '').replace(/>([^<]*)</g, (_, text: string) => `>${minifyHtmlText(text)}<`),
    )
    .join('');
}
