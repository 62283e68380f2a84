// Layout shifts as the browser reports them (PerformanceObserver 'layout-shift'), kept to those
// moving a box inside an area of the page: a source's node is null inside a shadow root, so its
// boxes say where it was.

type Box = { x: number; y: number; width: number; height: number };
type Shift = PerformanceEntry & {
  value: number;
  hadRecentInput: boolean;
  sources: Array<{ previousRect: Box; currentRect: Box }>;
};

const inside = (box: Box, area: DOMRect): boolean =>
  box.width > 0 &&
  box.x >= area.left - 1 &&
  box.x + box.width <= area.right + 1 &&
  box.y >= area.top - 1 &&
  box.y + box.height <= area.bottom + 1;

const text = (box: Box) =>
  `${Math.round(box.x)},${Math.round(box.y)} ${Math.round(box.width)}x${Math.round(box.height)}`;

/**
 * Records the layout shifts from now on; `inside(area)` returns those (none with recent input)
 * with a moved box inside `area` before or after it moved, each as `value: from → to, …`.
 */
export function watchLayoutShifts(): { inside(area: () => DOMRect): string[]; stop(): void } {
  const shifts: Shift[] = [];
  const observer = new PerformanceObserver((list) => shifts.push(...(list.getEntries() as Shift[])));
  observer.observe({ type: 'layout-shift' });
  return {
    inside(area) {
      shifts.push(...(observer.takeRecords() as Shift[]));
      const box = area();
      return shifts
        .filter((shift) => !shift.hadRecentInput)
        .map((shift) => shift.sources.filter((s) => inside(s.previousRect, box) || inside(s.currentRect, box)))
        .filter((sources) => sources.length > 0)
        .map((sources) => sources.map((s) => `${text(s.previousRect)} → ${text(s.currentRect)}`).join(', '));
    },
    stop: () => observer.disconnect(),
  };
}
