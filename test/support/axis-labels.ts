/**
 * Where lightweight-charts draws its time-axis labels, read at the draw call itself: the chart
 * browser tests and the end-to-end iframe test check with it that no label is cut at an edge.
 */

/** A label as drawn: its text, its extent and the axis width (CSS px), whether its font had loaded. */
export interface AxisLabel {
  text: string;
  left: number;
  right: number;
  axis: number;
  webFont: boolean;
  /** The paint it was drawn in: every label of one paint of the axis shares it. */
  paint: number;
}

/**
 * Records every label drawn on a time axis (lightweight-charts' last table row, text centred) into
 * `window.__axisLabels`; returns the undo. Self-contained, so Playwright can run it as an init script.
 */
export function recordAxisLabels(): () => void {
  const drawn: AxisLabel[] = [];
  (window as unknown as { __axisLabels: AxisLabel[] }).__axisLabels = drawn;
  // A paint of the axis draws all its labels in one task: the next task's labels are another paint.
  let paint = 0;
  let painting = false;
  const proto = CanvasRenderingContext2D.prototype;
  const fillText = proto.fillText;
  proto.fillText = function (text: string, x: number, y: number, maxWidth?: number) {
    if (this.canvas.closest('tr:last-of-type') && this.textAlign === 'center') {
      const half = this.measureText(text).width / 2;
      const axis = this.canvas.getBoundingClientRect().width;
      if (!painting) {
        painting = true;
        paint += 1;
        setTimeout(() => (painting = false));
      }
      drawn.push({
        text,
        left: x - half,
        right: x + half,
        axis,
        webFont: document.fonts.check(this.font, text),
        paint,
      });
    }
    fillText.call(this, text, x, y, maxWidth);
  };
  return () => {
    proto.fillText = fillText;
  };
}

/** The labels recorded so far in this window. */
export function axisLabels(): AxisLabel[] {
  return (window as unknown as { __axisLabels: AxisLabel[] }).__axisLabels;
}

/** Labels reaching past the axis by more than the pixel lightweight-charts rounds an aligned label to. */
export function cutLabels(labels: AxisLabel[]): AxisLabel[] {
  return labels.filter(({ left, right, axis }) => left <= -1 || right >= axis + 1);
}

/** Pairs of labels of the latest paint that overlap or touch (less than 4 px apart): `a | b`. */
export function overlappingLabels(labels: AxisLabel[]): string[] {
  const last = labels.at(-1);
  // A paint may draw the axis twice in one task (at a new width): each label as last drawn.
  const drawn = new Map(labels.filter((l) => l.paint === last?.paint && l.axis === last.axis).map((l) => [l.text, l]));
  const shown = [...drawn.values()].sort((a, b) => a.left - b.left);
  return shown.slice(1).flatMap((l, i) => (l.left < shown[i]!.right + 4 ? [`${shown[i]!.text} | ${l.text}`] : []));
}
