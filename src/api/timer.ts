/** Runs `fn` after `ms`; returns a function that cancels it: the one shape of every data-layer timer. */
export function startTimer(fn: () => void, ms: number): () => void {
  const id = setTimeout(fn, Math.max(0, ms));
  return () => clearTimeout(id);
}
