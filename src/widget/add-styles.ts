/**
 * A chunk's styles beside those its widget's shadow root has (the board's extras, its columns, its
 * chart area). On a server there is no shadow root to adopt into: they are kept per element, and
 * the relay's renderer writes them into its declarative shadow root beside the widget's own
 * (`addedStyles`), so the render has every style the element has once its chunks are there.
 */
import { adoptStyles, isServer, supportsAdoptingStyleSheets, type CSSResult, type CSSResultOrNative } from 'lit';

/** Per element rendered on a server, the chunks' styles added to it, in order. */
const added = new WeakMap<object, CSSResultOrNative[]>();

export function addStyles(host: { renderRoot: HTMLElement | DocumentFragment }, styles: CSSResultOrNative[]): void {
  if (isServer) {
    added.set(host, [...(added.get(host) ?? []), ...styles]);
    return;
  }
  // Without adopted style sheets Lit appends a <style> per sheet: only the new ones then.
  const root = host.renderRoot as ShadowRoot;
  adoptStyles(root, supportsAdoptingStyleSheets ? [...root.adoptedStyleSheets, ...styles] : styles);
}

/** The styles chunks added to `host` on a server (a server's styles are `css` results, never sheets). */
export function addedStyles(host: object): readonly CSSResult[] {
  return (added.get(host) ?? []) as CSSResult[];
}
