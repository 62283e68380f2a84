// Every widget registers itself through the element base's one define(): its own tag by default,
// harmless when the tag is taken, and another tag backed by a subclass (a class backs one tag).
import { describe, expect, it } from 'vitest';
import { PriceBoard } from '../../src/price-board';
import { PriceConverter } from '../../src/price-converter';
import { PriceTicker } from '../../src/price-ticker';

describe('define()', () => {
  it.each([
    ['price-board', PriceBoard],
    ['price-ticker', PriceTicker],
    ['price-converter', PriceConverter],
  ] as const)('registers <%s> once, and another tag with a subclass', (tag, element) => {
    expect(customElements.get(tag)).toBe(element);
    expect(() => element.define()).not.toThrow();
    expect(customElements.get(tag)).toBe(element);
    const other = `${tag}-again`;
    element.define(other);
    const again = customElements.get(other)!;
    expect(again).not.toBe(element);
    expect(Object.getPrototypeOf(again)).toBe(element);
    expect(document.createElement(other)).toBeInstanceOf(element);
  });
});
