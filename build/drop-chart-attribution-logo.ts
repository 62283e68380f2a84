import type { Plugin } from 'vite';
import { chartFilePlugin } from './chart-file.ts';
import { applyEdits, nameOf, walk, type SyntaxNode } from './syntax-tree.ts';

const NAME = 'price-board-drop-chart-attribution-logo';
/** A text only the logo's class holds in lightweight-charts' production file (its names are minified). */
export const LOGO_MARKER = 'tv-attr-logo';

/**
 * lightweight-charts' production file (`code`, from `id`) with its attribution-logo class
 * emptied. It keeps, with empty bodies, the methods whose name the rest of the file uses (the
 * chart calls its update and remove); the others and the constructor go. Throws when the file has
 * no class holding `LOGO_MARKER` or more than one, when that class holds more than plain methods,
 * or when the marker is left outside it.
 */
export function emptyAttributionLogo(code: string, id: string): string {
  const classes: SyntaxNode[] = [];
  walk(code, (node) => {
    if (
      (node.type === 'ClassDeclaration' || node.type === 'ClassExpression') &&
      code.slice(node.start, node.end).includes(LOGO_MARKER)
    )
      classes.push(node);
  });
  if (classes.length !== 1) {
    throw new Error(
      `${NAME}: expected one class holding "${LOGO_MARKER}" in ${id}, found ${classes.length}; check lightweight-charts' attribution logo code`,
    );
  }
  const cls = classes[0]!;
  const body = cls.body as SyntaxNode & { body: SyntaxNode[] };
  const outside = code.slice(0, cls.start) + code.slice(cls.end);
  const methods = body.body.filter((m) => m.kind !== 'constructor');
  if (
    !methods.every(
      (m) => m.type === 'MethodDefinition' && m.kind === 'method' && !m.static && !m.computed && nameOf(m.key),
    )
  )
    throw new Error(
      `${NAME}: the class holding "${LOGO_MARKER}" in ${id} has members other than plain methods; check it`,
    );
  const used = new Set([...outside.matchAll(/[.'"`]([\w$]+)/g)].map((m) => m[1]));
  const kept = methods.map((m) => nameOf(m.key)!).filter((key) => used.has(key));
  const out = applyEdits(code, [
    { start: body.start, end: body.end, text: `{${kept.map((key) => `${key}(){}`).join('')}}` },
  ])!.code;
  if (out.includes(LOGO_MARKER))
    throw new Error(`${NAME}: "${LOGO_MARKER}" is still in ${id} after emptying its class`);
  return out;
}

/**
 * Build only: empties lightweight-charts' attribution-logo widget, the one class holding the logo
 * (`tv-attr-logo`: its SVG, its `<style>` text, its link), about 0.9 KB gzip off the chart chunk.
 * The chart always turns that logo off (`layout.attributionLogo: false`, src/chart/price-chart.ts:
 * its `<style>` element breaks under a strict CSP), so the class only ever checked the option and
 * drew nothing; emptied, it still does nothing. The licence's attribution stays visible through our
 * own "TradingView" link (src/chart/attribution.ts; test/e2e/csp.spec.ts checks it in dist/, and
 * dist.spec.ts that the logo code is gone). The build fails when the class is not found as
 * `emptyAttributionLogo` expects it or lightweight-charts came from another file (`chartFilePlugin`),
 * so that an update cannot silently keep or break it.
 */
export function dropChartAttributionLogo(): Plugin {
  return chartFilePlugin(NAME, emptyAttributionLogo);
}
