// Helpers of the <price-ticker> and <price-converter> tests: shadow lookups and frame sampling.

export const q = <T extends HTMLElement = HTMLElement>(el: HTMLElement, selector: string): T | null =>
  el.shadowRoot!.querySelector<T>(selector);

/** The ticker's items of the real group (not the moving copies). */
export const tickerItems = (el: HTMLElement): HTMLElement[] => [
  ...el.shadowRoot!.querySelectorAll<HTMLElement>('.group:first-child [part~="item"]'),
];

export const tickerItem = (el: HTMLElement, symbol: string): HTMLElement | null =>
  el.shadowRoot!.querySelector<HTMLElement>(`.group:first-child [part~="item"][data-symbol="${symbol}"]`);

export interface Sample {
  /** requestAnimationFrame's timestamp, ms. */
  t: number;
  /** The sampled element's left edge on screen, px. */
  x: number;
}

/**
 * `element`'s left edge at each animation frame: `frames` of them, or when `done` is given, until
 * `done()` holds and then `frames` more (so that the change `done` waits for lies inside).
 */
export function sampleFrames(element: () => Element | null, frames: number, done?: () => boolean): Promise<Sample[]> {
  const samples: Sample[] = [];
  let doneAt = done ? -1 : 0;
  return new Promise((resolve) => {
    const step = (t: number) => {
      const el = element();
      if (el) samples.push({ t, x: el.getBoundingClientRect().left });
      if (doneAt < 0 && done!()) doneAt = samples.length;
      if (doneAt >= 0 && samples.length >= doneAt + frames) resolve(samples);
      else requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  });
}

/** Waits for `n` animation frames (a state change to reach the screen). */
export function frames(n: number): Promise<void> {
  return new Promise((resolve) => {
    let left = n;
    const step = () => (--left <= 0 ? resolve() : requestAnimationFrame(step));
    requestAnimationFrame(step);
  });
}
