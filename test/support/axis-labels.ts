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
}

/**
 * Records every label drawn on a time axis (lightweight-charts' last table row, text centred) into
 * `window.__axisLabels`; returns the undo. Self-contained, so Playwright can run it as an init script.
 */
export function recordAxisLabels(): () => void {
  const drawn: AxisLabel[] = [];
  (window as unknown as { __axisLabels: AxisLabel[] }).__axisLabels = drawn;
  const proto = CanvasRenderingContext2D.prototype;
  const fillText = proto.fillText;
  proto.fillText = function (text: string, x: number, y: number, maxWidth?: number) {
    if (this.canvas.closest('tr:last-of-type') && this.textAlign === 'center') {
      const half = this.measureText(text).width / 2;
      const axis = this.canvas.getBoundingClientRect().width;
      drawn.push({ text, left: x - half, right: x + half, axis, webFont: document.fonts.check(this.font, text) });
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
