/**
 * Work the first rows do not need runs after them: once the frame showing them is painted, when
 * the main thread is next idle. A hidden page paints nothing and runs no animation frames, so
 * there (and without a document) it only waits for the current task to end. `atFrame` runs as
 * that frame begins (on a hidden page, at once): what the page holds then is what the frame paints.
 */
export function afterPaint(fn: () => void, atFrame?: () => void): () => void {
  let frame = 0;
  let idle: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const whenIdle = () => {
    atFrame?.();
    if (typeof requestIdleCallback === 'function') idle = requestIdleCallback(fn, { timeout: 100 });
    else timer = setTimeout(fn, 0);
  };
  // A hidden page, or no page at all (another runtime).
  if (globalThis.document?.visibilityState !== 'visible') {
    atFrame?.();
    timer = setTimeout(fn, 0);
  } else frame = requestAnimationFrame(whenIdle);
  return () => {
    if (frame) cancelAnimationFrame(frame);
    if (idle !== undefined) cancelIdleCallback(idle);
    clearTimeout(timer);
  };
}
