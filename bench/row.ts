/** One row of the bench's table: what was measured, beside its same-run baseline and its target (DESIGN.md §6). */
export type Verdict = 'met' | 'NOT met' | 'info' | 'failed';
export interface Row {
  section: string;
  metric: string;
  measured: string;
  baseline: string;
  target: string;
  verdict: Verdict;
}
