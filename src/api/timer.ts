import { clampWait } from '../shared/waits';

/**
 * Runs `fn` after `ms` (clamped to [0, 1 h]: a longer `setTimeout` fires at once); returns a
 * function that cancels it: the one shape of every data-layer timer.
 */
export function startTimer(fn: () => void, ms: number): () => void {
  const id = setTimeout(fn, clampWait(ms));
  return () => clearTimeout(id);
}
