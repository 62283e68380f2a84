/**
 * Holds the board's first render until something to show arrives (the prices answer, a status, an
 * error), or for at most `SKELETON_DELAY_MS`. On a fast network the answer comes first and the rows
 * are rendered and laid out once, instead of after a skeleton that would be shown for a few
 * milliseconds and keep the main thread busy just when the answer arrives: its render, style and
 * layout cost about as much as the rows' (`bench/trace.ts`), and the rows must then be laid out
 * again. On a slow network the skeleton appears after that delay, a common one before showing a
 * loading state, too short to read as a wait; and only after the tasks already queued then, since
 * on a busy main thread the answer may be among them. A hidden page renders at once (it paints nothing).
 * (Rendering the skeleton at once but out of layout was measured too: on a fast network its render
 * then delays the answer's, and the rows came later.)
 */
export const SKELETON_DELAY_MS = 100;

interface Scheduler {
  postTask(callback: () => void, options: { priority: 'background' }): Promise<unknown>;
}

/**
 * Runs `fn` after the tasks already queued: on a busy main thread (a slow phone) the prices
 * answer may have arrived and wait in the queue when the skeleton's delay runs out; it goes first,
 * so the board does not render and lay out a skeleton just before its rows.
 */
function afterQueuedTasks(fn: () => void): void {
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler;
  if (scheduler?.postTask) void scheduler.postTask(fn, { priority: 'background' });
  else setTimeout(fn);
}

export class RenderGate {
  #open!: () => void;
  #waiting = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #opened = new Promise<void>((resolve) => (this.#open = resolve));

  /**
   * Resolves when opened, or after the skeleton delay (at once on a hidden page). `skeleton` false:
   * rows are on screen already (the relay's render), so no skeleton replaces them before the answer.
   */
  wait(skeleton = true): Promise<void> {
    if (!this.#waiting) {
      this.#waiting = true;
      if (globalThis.document?.visibilityState === 'hidden') this.open();
      else if (skeleton) this.#timer = setTimeout(() => afterQueuedTasks(() => this.open()), SKELETON_DELAY_MS);
    }
    return this.#opened;
  }

  /** Something to show arrived: render now. */
  open(): void {
    clearTimeout(this.#timer);
    this.#open();
  }
}
