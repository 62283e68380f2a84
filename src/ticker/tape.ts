/**
 * The ticker's motion, as a Lit ReactiveController: a Web Animations API `translateX` loop on the
 * track (transform only: the compositor moves it, no layout per frame). The track holds the item
 * group and enough copies to cover the viewport plus one group, and moves right by one group's
 * width per cycle, so the loop is seamless and items enter at the left edge (RTL reading order).
 *
 * The cycle's duration comes from the measured group width and the speed; when either changes
 * (live prices widen a cell, the page resizes, `speed` is set) the animation is rebuilt at the
 * same offset. A cell that widens pushes the items after it back (and one that narrows pulls them
 * on): the new offset also takes the largest such step of an item in view, so that no item in
 * view moves back and those beyond the changed cell move on by its change, once. Hover, keyboard focus and the pause button pause it; under
 * `prefers-reduced-motion` there is no animation at all (the strip scrolls by hand).
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

const REDUCED = '(prefers-reduced-motion: reduce)';

/**
 * The track's class once its items were laid out at their own width: only then do they skip
 * layout off screen (`content-visibility: auto`). An item that never was laid out would take its
 * placeholder width in its first frame, then its own: every item after it would move (a layout
 * shift), for instance when the client renders over the relay's render with new nodes.
 */
const SIZED = 'sized';

/** The items the track holds: the group's, in each copy. */
const itemsOf = (track: HTMLElement): number =>
  track.childElementCount * (track.firstElementChild?.childElementCount ?? 0);

/** Where the tape lives in the host's shadow DOM. */
export interface TapeParts {
  viewport(): HTMLElement | null | undefined;
  track(): HTMLElement | null | undefined;
  /** The first (real) group of items; the others are copies of it. */
  group(): HTMLElement | null | undefined;
}

export class Tape implements ReactiveController {
  /** Groups to render: the real one and its copies (1 when still). */
  copies = 2;
  /** `prefers-reduced-motion: reduce`: a still strip. */
  reduced = false;
  /** Paused by the user's button (hover and focus pause it too, without this flag). */
  userPaused = false;

  #speed = 40;
  #width = 0;
  /** The widths of the group's items at the last measure (fractional: a cycle of rounded ones drifts). */
  #widths: number[] = [];
  #animation: Animation | undefined;
  #hovered = false;
  #focused = false;
  #media: MediaQueryList | undefined;
  /** Made at the first update (a server's render makes the element but never updates it in a DOM). */
  #resize: ResizeObserver | undefined;
  #observed: HTMLElement[] = [];
  /** How many items the track held when it was last seen laid out (see {@link SIZED}). */
  #laidOut = 0;

  readonly #host: ReactiveControllerHost;
  readonly #parts: TapeParts;

  constructor(host: ReactiveControllerHost, parts: TapeParts) {
    this.#host = host;
    this.#parts = parts;
    host.addController(this);
  }

  /** Pixels per second; the tape keeps its position when it changes. */
  set speed(value: number) {
    if (value === this.#speed) return;
    const offset = this.#offset(); // at the old speed
    this.#speed = value;
    this.#restart(this.#width, offset);
  }

  /** True while the tape stands still for any reason. */
  get paused(): boolean {
    return this.reduced || this.userPaused || this.#hovered || this.#focused;
  }

  hostConnected(): void {
    this.#media = globalThis.matchMedia?.(REDUCED);
    this.#media?.addEventListener('change', this.#onMedia);
    this.#onMedia();
  }

  hostDisconnected(): void {
    this.#media?.removeEventListener('change', this.#onMedia);
    this.#resize?.disconnect();
    this.#observed = [];
    this.#animation?.cancel();
    this.#animation = undefined;
    this.#width = 0;
    this.#widths = [];
  }

  hostUpdated(): void {
    // New text may change the items' widths: the offset follows in this task, before any frame
    // shows the new layout (the resize observer would be one frame late).
    if (this.#animation) this.#measure();
    const track = this.#parts.track();
    // New items (more symbols or copies) are laid out once at their own width before they may skip.
    if (track && itemsOf(track) > this.#laidOut) track.classList.remove(SIZED);
    // The track too: new copies change its size alone.
    const observe = [this.#parts.viewport(), this.#parts.group(), track].filter((el): el is HTMLElement => !!el);
    if (observe.length === this.#observed.length && observe.every((el, i) => el === this.#observed[i])) return;
    this.#resize?.disconnect();
    this.#resize ??= new ResizeObserver(() => {
      this.#sized();
      this.#measure();
    });
    for (const el of observe) this.#resize.observe(el);
    this.#observed = observe;
  }

  setUserPaused(paused: boolean): void {
    this.userPaused = paused;
    this.#applyPause();
    this.#host.requestUpdate();
  }

  setHovered(hovered: boolean): void {
    this.#hovered = hovered;
    this.#applyPause();
  }

  /**
   * Focus inside the tape pauses it; the browser scrolls the viewport to show the focused item.
   * When focus leaves, that scroll is folded back into the animation's offset: no jump.
   */
  setFocused(focused: boolean): void {
    this.#focused = focused;
    const viewport = this.#parts.viewport();
    if (!focused && viewport && viewport.scrollLeft !== 0 && !this.reduced) {
      const offset = this.#offset() - viewport.scrollLeft;
      viewport.scrollLeft = 0;
      this.#seek(offset);
    }
    this.#applyPause();
  }

  readonly #onMedia = (): void => {
    const reduced = this.#media?.matches ?? false;
    if (reduced === this.reduced && this.#animation) return;
    this.reduced = reduced;
    if (reduced) {
      this.#animation?.cancel();
      this.#animation = undefined;
      this.copies = 1;
    }
    this.#host.requestUpdate();
    this.#measure();
  };

  /**
   * After a layout (the resize observer's turn, when the browser has recorded each item's size):
   * the items may skip layout from now on, off screen, keeping that size.
   */
  #sized(): void {
    const track = this.#parts.track();
    if (!track) return;
    this.#laidOut = itemsOf(track);
    track.classList.add(SIZED);
  }

  #measure(): void {
    const viewport = this.#parts.viewport();
    const group = this.#parts.group();
    if (!viewport || !group || this.reduced) return;
    const width = group.offsetWidth;
    if (width === 0) return;
    const copies = Math.ceil(viewport.clientWidth / width) + 1;
    if (copies !== this.copies) {
      this.copies = copies;
      this.#host.requestUpdate();
    }
    // A new track (the client's own nodes over the relay's render, or the tape back after an error) moves anew.
    const moving = (this.#animation?.effect as KeyframeEffect | null | undefined)?.target === this.#parts.track();
    if (width !== this.#width || !moving) this.#restart(width, this.#offset() + this.#shift(viewport, group));
  }

  /**
   * How far back (towards the track's end) the change of the items' widths moved the edge of an
   * item in view that moved back most (negative: every one moved on). Each copy of the group moves
   * by what the groups before it grew, and each item by what the items before it in its group grew.
   */
  #shift(viewport: HTMLElement, group: HTMLElement): number {
    const old = this.#widths;
    const widths = [...group.children].map((item) => item.getBoundingClientRect().width);
    this.#widths = widths;
    if (!this.#animation || old.length === 0 || old.length !== widths.length) return 0; // other symbols: no item to keep
    const from = this.#offset();
    const to = from + viewport.clientWidth;
    let shift = -Infinity;
    // Where each item starts, from the track's start (its right edge), before and after the change;
    // it ends its width later. Neither edge of an item in view moves back.
    for (let before = 0, after = 0, i = 0; before < to; i = (i + 1) % old.length) {
      if (before + old[i]! > from) shift = Math.max(shift, after - before, after + widths[i]! - before - old[i]!);
      before += old[i]!;
      after += widths[i]!;
    }
    return Number.isFinite(shift) ? shift : 0;
  }

  /** The current distance moved within one cycle, in pixels. */
  #offset(): number {
    const time = Number(this.#animation?.currentTime ?? 0);
    return this.#width > 0 ? ((time * this.#speed) / 1000) % this.#width : 0;
  }

  /** Rebuilds the loop for `width` at `offset` pixels into it (default: where it is). */
  #restart(width: number, offset: number): void {
    const track = this.#parts.track();
    if (!track || width === 0 || this.reduced) return;
    this.#animation?.cancel();
    this.#width = width;
    this.#animation = track.animate([{ transform: 'translateX(0)' }, { transform: `translateX(${width}px)` }], {
      duration: (width / this.#speed) * 1000,
      iterations: Infinity,
    });
    this.#seek(offset);
    this.#applyPause();
  }

  #seek(offset: number): void {
    if (!this.#animation || this.#width === 0) return;
    const within = ((offset % this.#width) + this.#width) % this.#width;
    this.#animation.currentTime = (within / this.#speed) * 1000;
  }

  #applyPause(): void {
    const animation = this.#animation;
    if (!animation) return;
    if (this.paused) animation.pause();
    else if (animation.playState !== 'running') animation.play();
  }
}
