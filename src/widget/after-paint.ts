/**
 * Work the first rows do not need runs after them: once the frame showing them is painted, when
 * the main thread is next idle. A hidden page paints nothing and runs no animation frames, so
 * there it only waits for the current task to end.
 */
export function afterPaint(fn: () => void): () => void {
  let frame = 0;
  let idle: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const whenIdle = () => {
    if (typeof requestIdleCallback === 'function') idle = requestIdleCallback(fn, { timeout: 100 });
    else timer = setTimeout(fn, 0);
  };
  if (globalThis.document?.visibilityState === 'hidden') timer = setTimeout(fn, 0);
  else frame = requestAnimationFrame(whenIdle);
  return () => {
    cancelAnimationFrame(frame);
    if (idle !== undefined) cancelIdleCallback(idle);
    clearTimeout(timer);
  };
}
