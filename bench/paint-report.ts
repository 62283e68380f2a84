/** The first-paint rows of the bench report: the board's own marks (./paint.ts), the visitor rounds against the floor (./visitor.ts), the keyless snippet (./keyless.ts), the rendered board (./rendered-report.ts). */
import type { Sections } from './sections';
import { iqr, ms, perLoad, ratios, verdict, type RowSink } from './report-format';
import { renderedRows } from './rendered-report';
import { round } from './util';
import { FLOOR_RATIO_TARGET } from './visitor';

export function paintRows(s: Sections, failures: Record<string, string>, { rows, failed }: RowSink): void {
  const floor = s.visitor?.find((v) => v.condition.name === 'no throttling');
  for (const p of [s.paint, s.paintCors]) {
    if (!p) continue;
    const main = p.variant === 'same-origin';
    const tag = main ? '' : ' [cross-origin, CORS]';
    rows.push({
      section: 'paint',
      metric: `10 rows painted, from the element's connection (upgrade)${tag}`,
      measured: `${ms(p.fromUpgradeMs)} (${round(p.ratio, 1)} × RTT)`,
      // The floor page (one fetch, one innerHTML) from its fetch to its rows painted, same run: what
      // this machine needs at least, beside it.
      baseline: `bare fetch /v1/prices RTT ${ms(p.rttMs)}${main && floor ? `; floor page from its fetch ${ms(floor.floorFromStartMs)}` : ''}`,
      // DESIGN.md §6: the target is the ratio to the floor from navigation start (the rows below);
      // this absolute one is retired, its figure kept as information.
      target: `(information; the old ≤ 1.5 × RTT + 16.7 = ${ms(p.targetMs)} is retired)`,
      verdict: 'info',
    });
    rows.push({
      section: 'paint',
      metric: `10 rows painted, from navigation start (page + module load included)${tag}`,
      measured: `${ms(p.rowsPaintedMs)} (${round(p.navRatio, 1)} × RTT)`,
      baseline: `RTT ${ms(p.rttMs)}`,
      target: '(information)',
      verdict: 'info',
    });
    if (main)
      rows.push({
        section: 'paint',
        metric: 'chart: first candles drawn, from navigation start',
        measured: p.chartCandlesMs === null ? 'no candles seen' : ms(p.chartCandlesMs),
        baseline: `rows ${ms(p.rowsPaintedMs)}`,
        target: '(no target)',
        verdict: 'info',
      });
  }
  if (!s.paint) failed('paint', "10 rows painted, from the element's connection", '(information)');
  for (const v of s.visitor ?? []) {
    const target = FLOOR_RATIO_TARGET * v.floorMs;
    rows.push({
      section: 'paint',
      metric: `first paint: 10 rows painted, from navigation start, ${v.condition.name}, ${v.boardRuns.length} runs`,
      measured: `${iqr(v.board)}, ${round(v.ratio, 2)} × floor (${ratios(v.pairRatio)}); from the connection ${ms(v.boardFromStartMs)}`,
      baseline:
        `floor page (one fetch + innerHTML) ${iqr(v.floor)}; from its fetch ${ms(v.floorFromStartMs)}` +
        (v.markup
          ? ` · markup floor (the board's own DOM and styles, no script of ours) ${iqr(v.markup.spread)}, ${round(v.markup.ratio, 2)} × floor`
          : ''),
      target: `≤ ${FLOOR_RATIO_TARGET} × floor = ${ms(target)}`,
      verdict: verdict(v.ratio <= FLOOR_RATIO_TARGET),
    });
  }
  if (!s.visitor)
    failed(
      'paint',
      'first paint: 10 rows painted, from navigation start, against the floor page',
      `≤ ${FLOOR_RATIO_TARGET} × floor`,
      'visitor',
    );
  for (const v of s.keyless?.conditions ?? []) {
    const requests = v.pricesPerBoardLoad ?? [];
    const used = requests.length > 0 && requests.every((n) => n === 1);
    rows.push({
      section: 'paint',
      metric: `keyless relay snippet with its preload: 10 rows painted, from navigation start, ${v.condition.name}, ${v.boardRuns.length} runs`,
      measured:
        `${iqr(v.board)}, ${round(v.ratio, 2)} × floor (${ratios(v.pairRatio)}); /v1/prices requests at the relay per page load: ` +
        (requests.length
          ? `${perLoad(requests)} (${used ? 'the preload used' : 'the preload NOT used: the board made its own request'})`
          : 'not counted'),
      baseline: `floor page on the same relay (one fetch, no key) ${iqr(v.floor)}`,
      target: '(may beat the floor: reported)',
      verdict: 'info',
    });
  }
  if (!s.keyless)
    failed(
      'paint',
      'keyless relay snippet with its preload: 10 rows painted, from navigation start',
      '(may beat the floor: reported)',
      'keyless',
    );
  rows.push(...renderedRows(s.visitor, failures.rendered ?? failures.visitor));
}
