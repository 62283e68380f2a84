/**
 * Registers `element` as `tag`; does nothing when the tag is already defined, so loading a
 * widget's script twice is harmless. A class can back one tag only: another tag gets a subclass.
 */
export function defineOnce(tag: string, element: CustomElementConstructor): void {
  const registry: CustomElementRegistry = customElements;
  if (registry.get(tag)) return;
  const taken = registry.getName?.(element) ?? null;
  registry.define(tag, taken === null ? element : class extends element {});
}
