/**
 * The whitespace of the widgets' css`` and html`` text that renders the same, taken out: the
 * build does it to the literals (./minify-lit-literals.ts), the relay to the markup it renders from
 * them (relay/render/compact-markup.ts), so that both send what the browser needs and no more.
 */

/** CSS text without comments and without the whitespace CSS ignores; quoted strings are kept as they are. */
export function minifyCssText(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split(/('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")/)
    .map((part, i) =>
      i % 2
        ? part
        : part
            .replace(/\s+/g, ' ')
            // `/` and `<` are delimiters (`font: 15px / 1.5`, `grid-row: 1 / span 2`, `(width < 720px)`)
            .replace(/ ?([{};,>/<]) ?/g, '$1')
            .replace(/: /g, ':')
            .replace(/;}/g, '}'),
    )
    .join('');
}

/** HTML template text with each indentation run (whitespace holding a line break) cut to one space. */
export function minifyHtmlText(text: string): string {
  return text.replace(/[ \t]*\n\s*/g, ' ');
}
