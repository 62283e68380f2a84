/**
 * A chunk's styles beside those its widget's shadow root has (the board's extras, its columns, its
 * chart area). On a server there is no shadow root to adopt into: the renderer writes every style
 * the widget will have into its declarative shadow root.
 */
import { adoptStyles, isServer, supportsAdoptingStyleSheets, type CSSResultOrNative } from 'lit';

export function addStyles(host: { renderRoot: HTMLElement | DocumentFragment }, styles: CSSResultOrNative[]): void {
  if (isServer) return;
  // Without adopted style sheets Lit appends a <style> per sheet: only the new ones then.
  const root = host.renderRoot as ShadowRoot;
  adoptStyles(root, supportsAdoptingStyleSheets ? [...root.adoptedStyleSheets, ...styles] : styles);
}
