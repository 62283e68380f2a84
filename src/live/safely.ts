/** A listener that throws must not break delivery to the others, nor the hub. */
export function safely(call: () => void): void {
  try {
    call();
  } catch (error) {
    const report = (globalThis as { reportError?: (e: unknown) => void }).reportError;
    if (report) report(error);
    else console.error(error);
  }
}
