/**
 * Which tab leads the tabs that follow one connection (DESIGN.md §12): a Web Lock held while it
 * leads, a beat while it leads, and, in a follower that hears nothing from its leader for
 * {@link SILENT_LEADER_MS}, the lock taken from that leader (a frozen tab). What the tabs say to
 * each other is `tabs.ts`'s.
 */
import { startTimer } from '../api/timer';

/** How often a leader says it is alive. */
export const LEADER_BEAT_MS = 1_000;
/** Silence of a leader after which a follower takes the lead from it. */
export const SILENT_LEADER_MS = 6_000;
/** A leader whose stream stopped, or that hands the lead on, keeps the lock this long, so followers hear why before one leads. */
const STOP_LINGER_MS = 500;

/** The part of `navigator.locks` used here. */
export interface LockManagerLike {
  request(
    name: string,
    options: { signal?: AbortSignal; steal?: boolean },
    callback: (lock: unknown) => Promise<void>,
  ): Promise<unknown>;
}

/** The part of a `BroadcastChannel` used here. */
export interface ChannelLike {
  onmessage: ((event: MessageEvent) => void) | null;
  postMessage(message: unknown): void;
  close(): void;
}

/** Where the locks and channels come from (the browser's, or a test's). */
export interface TabsEnv {
  locks: LockManagerLike;
  channel(name: string): ChannelLike;
}

/** What tells connections apart. The key is hashed: a name never carries it. */
export interface TabsScope {
  streamUrl: string;
  apiKey?: string;
  mode: string;
}

/** The lock and channel name of a connection (the stream address as the widgets give it: absolute). */
export function tabsName(scope: TabsScope): string {
  const key = scope.apiKey === undefined ? '-' : hashText(scope.apiKey);
  return `price-board/stream/1 ${scope.mode} ${key} ${scope.streamUrl}`;
}

/**
 * A 32-bit FNV-1a digest in hex: tells keys apart in a name without carrying them (two keys of one
 * service on one site would share tabs by mistake once in 4 billion pairs).
 */
function hashText(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16);
}

/**
 * What the lock says: this tab leads now (`lead`), another took the lead from it (`lost`), there
 * is no lock to be had (`alone`: each tab streams on its own), or a beat is due while it leads.
 */
export type LeadershipEvent = 'lead' | 'lost' | 'alone' | 'beat';

/** Settings of a {@link TabLeadership}. */
export interface LeadershipOptions {
  /** The lock's name ({@link tabsName}). */
  name: string;
  locks: LockManagerLike;
  /** Default {@link LEADER_BEAT_MS}. */
  beatMs?: number;
  /** Default {@link SILENT_LEADER_MS}. */
  silentMs?: number;
}

/** This tab's place in the line for the lock, and the beat. */
export class TabLeadership {
  readonly #options: LeadershipOptions;
  readonly #listener: (event: LeadershipEvent) => void;
  /** Ends the lock's hold. */
  #release: (() => void) | undefined;
  /** Cancels a queued lock request. */
  #pending: AbortController | undefined;
  /** The request whose lock this tab holds. */
  #holding: AbortController | undefined;
  #leading = false;
  #heardAt = 0;
  #cancelTimer: (() => void) | undefined;

  constructor(options: LeadershipOptions, listener: (event: LeadershipEvent) => void) {
    this.#options = options;
    this.#listener = listener;
  }

  /** Gets in line for the lock and starts the beat. */
  join(): void {
    this.#heardAt = Date.now();
    this.#tick();
    this.#queue(false);
  }

  /** The leader was heard from: it is alive. */
  heard(): void {
    this.#heardAt = Date.now();
  }

  /**
   * Lost the lock to a tab that found this one silent, or hands it on (its connection fails where
   * another tab's may not): last in the line for the lock again.
   */
  handOn(): void {
    this.#holding = undefined;
    this.#leading = false;
    this.#heardAt = Date.now();
    this.letGo();
    this.#queue(false);
  }

  /** Gives the lock up a moment later, so that the tab that leads next has heard why this one stopped. */
  letGo(): void {
    const release = this.#release;
    this.#release = undefined;
    if (release) startTimer(release, STOP_LINGER_MS);
  }

  /** Out of the line: no timer, no lock asked for; a lock held is given up now. */
  leave(): void {
    this.#stopAsking();
    this.#leading = false;
    this.#release?.();
  }

  #stopAsking(): void {
    this.#cancelTimer?.();
    this.#pending?.abort();
    this.#pending = undefined;
  }

  /** Asks for the lock (`steal`: take it from a silent leader). */
  #queue(steal: boolean): void {
    const pending = new AbortController();
    this.#pending = pending;
    let granted = false;
    const held = (): Promise<void> => {
      granted = true;
      if (this.#pending !== pending) return Promise.resolve();
      return new Promise((resolve) => {
        this.#release = resolve;
        this.#holding = pending;
        this.#pending = undefined;
        this.#leading = true;
        this.#listener('lead');
      });
    };
    let request: Promise<unknown>;
    try {
      request = this.#options.locks.request(
        this.#options.name,
        steal ? { steal: true } : { signal: pending.signal },
        held,
      );
    } catch {
      return this.#alone();
    }
    request.then(
      () => {},
      () => {
        if (granted) {
          // Another tab took the lock from this one (it found this one silent).
          if (this.#holding === pending) this.#listener('lost');
        } else if (this.#pending === pending) this.#alone(); // the lock manager refuses (an opaque origin, say)
      },
    );
  }

  #alone(): void {
    this.#stopAsking();
    this.#listener('alone');
  }

  /** Every beat: a leader says it is alive; a follower checks that its leader does. */
  #tick(): void {
    this.#cancelTimer?.();
    this.#cancelTimer = startTimer(() => {
      if (this.#leading) this.#listener('beat');
      // Followers do not all give up on the leader at the same moment.
      else if (Date.now() - this.#heardAt > (this.#options.silentMs ?? SILENT_LEADER_MS) * (1 + Math.random() / 2)) {
        this.#heardAt = Date.now();
        this.#pending?.abort();
        this.#queue(true);
      }
      this.#tick();
    }, this.#options.beatMs ?? LEADER_BEAT_MS);
  }
}
