/** The bench report's formats, shared by the row builders of each section (./report.ts). */
import type { Row, Verdict } from './row';
import { round, type Spread } from './util';

export const kb = (bytes: number) => `${round(bytes / 1024, 1)} KB`;
export const ms = (x: number | null) => (x === null || Number.isNaN(x) ? 'n/a' : `${round(x, 1)} ms`);
export const verdict = (ok: boolean): Verdict => (ok ? 'met' : 'NOT met');
/** A median with its interquartile range. */
export const iqr = (x: Spread, digits = 0) => `${ms(x.median)} (IQR ${round(x.q1, digits)}–${round(x.q3, digits)})`;
export const ratios = (x: Spread) => `per-round ratios ${round(x.q1, 2)}–${round(x.q3, 2)}`;
/** Counts as "2 in 7 of 7 loads", most frequent first. */
export function perLoad(xs: number[]): string {
  const by = new Map<number, number>();
  for (const x of xs) by.set(x, (by.get(x) ?? 0) + 1);
  return [...by]
    .sort((a, b) => b[1] - a[1])
    .map(([n, k]) => `${n} in ${k} of ${xs.length} loads`)
    .join(', ');
}

/**
 * The table's rows as the sections add them, in order; `failed` adds the row of a section with no
 * results: failed (with why: its bench step's failure, by default the section's) or skipped.
 */
export interface RowSink {
  rows: Row[];
  failed: (section: string, metric: string, target: string, step?: string) => void;
}
export function rowSink(failures: Record<string, string>): RowSink {
  const rows: Row[] = [];
  const failed = (section: string, metric: string, target: string, step = section) => {
    const why = failures[step] ?? failures.setup;
    rows.push({
      section,
      metric,
      measured: why ? `failed: ${why}` : 'skipped',
      baseline: '',
      target,
      verdict: why ? 'failed' : 'info',
    });
  };
  return { rows, failed };
}
