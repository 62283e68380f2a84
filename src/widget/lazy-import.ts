/** An import done once per page, and its module once loaded (`loaded`, used at once from then on). */
export interface ImportOnce<T> {
  (): Promise<T>;
  /** The module, once the import succeeded: a board made later (or the relay's renderer) uses it in the same task. */
  loaded?: T;
}

/** An import done once per page; a failed one may be tried again later (the next call imports anew). */
export function importOnce<T>(load: () => Promise<T>): ImportOnce<T> {
  let loading: Promise<T> | undefined;
  const once: ImportOnce<T> = () =>
    (loading ??= load().then(
      (module) => (once.loaded = module),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  return once;
}
