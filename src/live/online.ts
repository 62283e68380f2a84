/**
 * Whether the browser believes it is online (`navigator.onLine` and the `online`/`offline`
 * events), injectable like page visibility. Without those APIs (Node) it is always online, and
 * offline is then inferred from persisting network errors alone.
 */

/** Online state and notice of changes. */
export interface OnlineSource {
  isOnline(): boolean;
  /** Calls `listener` on every change; returns the unsubscribe function. */
  subscribe(listener: (online: boolean) => void): () => void;
}

interface WindowLike {
  navigator?: { onLine?: boolean };
  addEventListener?(type: string, listener: () => void): void;
  removeEventListener?(type: string, listener: () => void): void;
}

/** The browser's view, or always online where there is none. */
export function navigatorOnline(): OnlineSource {
  const win = globalThis as WindowLike;
  const isOnline = (): boolean => win.navigator?.onLine !== false;
  if (typeof win.addEventListener !== 'function' || typeof win.removeEventListener !== 'function') {
    return { isOnline, subscribe: () => () => {} };
  }
  return {
    isOnline,
    subscribe(listener) {
      const onOnline = (): void => listener(true);
      const onOffline = (): void => listener(false);
      win.addEventListener!('online', onOnline);
      win.addEventListener!('offline', onOffline);
      return () => {
        win.removeEventListener!('online', onOnline);
        win.removeEventListener!('offline', onOffline);
      };
    },
  };
}
