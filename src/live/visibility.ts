/**
 * Page visibility, injectable: polling pauses while the page is hidden. Node has no document, so
 * there the page is always visible; tests inject their own (test/helpers/manual-sources.ts).
 */

/** Whether the page is visible, and notice of changes. */
export interface VisibilitySource {
  isVisible(): boolean;
  /** Calls `listener` on every change; returns the unsubscribe function. */
  subscribe(listener: (visible: boolean) => void): () => void;
}

interface DocumentLike {
  visibilityState?: string;
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
}

/** Never hidden (Node, workers). */
export const ALWAYS_VISIBLE: VisibilitySource = {
  isVisible: () => true,
  subscribe: () => () => {},
};

/** `document.visibilityState` when there is a document, else {@link ALWAYS_VISIBLE}. */
export function documentVisibility(): VisibilitySource {
  const doc = (globalThis as { document?: DocumentLike }).document;
  if (!doc || typeof doc.addEventListener !== 'function') return ALWAYS_VISIBLE;
  const isVisible = (): boolean => doc.visibilityState !== 'hidden';
  return {
    isVisible,
    subscribe(listener) {
      const onChange = (): void => listener(isVisible());
      doc.addEventListener('visibilitychange', onChange);
      return () => doc.removeEventListener('visibilitychange', onChange);
    },
  };
}
