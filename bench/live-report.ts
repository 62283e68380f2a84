/** The live rows of the bench report: the board under a stream of changes (./live.ts), the ticker (./widgets.ts). */
import type { Sections } from './sections';
import { ms, verdict, type RowSink } from './report-format';
import { round } from './util';

/** Long tasks, busy time, frames and DOM writes of a board under load, with its columns. */
export function liveRows(s: Sections, { rows, failed }: RowSink): void {
  if (s.live) {
    const { load, idle } = s.live;
    rows.push({
      section: 'live',
      metric: `long tasks, ${s.live.symbols} symbols, ${s.live.pushed} updates in ${round(s.live.pushWallMs / 1000, 1)} s`,
      measured: `${load.longTaskCount} (max ${ms(load.longTaskMaxMs)})`,
      baseline: `idle ${idle.longTaskCount} (max ${ms(idle.longTaskMaxMs)})`,
      target: 'none > 50 ms',
      verdict: verdict(load.longTaskCount === 0),
    });
    rows.push({
      section: 'live',
      metric: 'main-thread busy (CDP TaskDuration)',
      measured: `${round(load.busyMsPerSec, 0)} ms/s (script ${round(load.scriptMsPerSec, 0)}, style ${round(load.styleMsPerSec, 0)}, layout ${round(load.layoutMsPerSec, 0)})`,
      baseline: `idle ${round(idle.busyMsPerSec, 0)} ms/s`,
      target: '(no target)',
      verdict: 'info',
    });
    rows.push({
      section: 'live',
      metric: 'dropped frames (rAF gaps > 25 ms)',
      measured: `${load.droppedFrames} of ${load.frames + load.droppedFrames} (max gap ${ms(load.maxFrameInterval)})`,
      baseline: `idle ${idle.droppedFrames} of ${idle.frames + idle.droppedFrames}`,
      target: '(no target)',
      verdict: 'info',
    });
    const perQuote = load.appliedQuotes ? load.records / load.appliedQuotes : NaN;
    const unexpected = load.redundant.cell + load.redundant.row + load.structural;
    rows.push({
      section: 'live',
      metric: 'DOM writes vs changed cells',
      measured:
        `${load.records} mutation records for ${load.appliedQuotes} applied quotes (${round(perQuote, 2)}/quote); ` +
        `${load.writes.cell} cell writes (${round(load.writes.cell / Math.max(1, load.appliedQuotes), 2)}/quote), ` +
        `to unchanged cells ${load.redundant.cell}, unchanged rows ${load.redundant.row}, re-created rows/cells ${load.structural}`,
      baseline: `idle ${idle.records} records`,
      target: 'writes only to changed cells',
      verdict: verdict(unexpected === 0 && load.appliedQuotes > 0),
    });
    const rm = s.liveReduced;
    if (rm)
      rows.push({
        section: 'live',
        metric: 'same load, prefers-reduced-motion (no price flash): long tasks, busy',
        measured: `${rm.load.longTaskCount} (max ${ms(rm.load.longTaskMaxMs)}), ${round(rm.load.busyMsPerSec, 0)} ms/s, dropped ${rm.load.droppedFrames}`,
        baseline: `with flash: ${load.longTaskCount} (max ${ms(load.longTaskMaxMs)}), ${round(load.busyMsPerSec, 0)} ms/s`,
        target: '(diagnostic)',
        verdict: 'info',
      });
  } else {
    failed('live', 'long tasks / DOM writes under 200 updates/s', 'none > 50 ms; only changed cells');
  }
  const lc = s.liveColumns;
  if (lc?.columns) {
    const { load } = lc;
    const c = lc.columns;
    const shown = c.missing.length
      ? `; the board shows no ${c.missing.join(', ')} cell${c.missing.length > 1 ? 's' : ''}${c.boardErrors.length ? ` (${c.boardErrors.join('; ')})` : ' and reported no error'}`
      : '';
    const base = s.live?.load;
    rows.push({
      section: 'live',
      metric: `long tasks, same load, columns="${c.asked}"`,
      measured:
        `${load.longTaskCount} (max ${ms(load.longTaskMaxMs)}); ${round(load.busyMsPerSec, 0)} ms/s busy (script ${round(load.scriptMsPerSec, 0)}, ` +
        `style ${round(load.styleMsPerSec, 0)}, layout ${round(load.layoutMsPerSec, 0)}); dropped ${load.droppedFrames} of ${load.frames + load.droppedFrames} frames; ` +
        `${load.writes.cell} cell writes for ${load.appliedQuotes} applied quotes, to unchanged cells ${load.redundant.cell}; ` +
        `spark lines drawn ${c.sparks} of ${lc.symbols}${shown}`,
      baseline: base
        ? `default columns: ${base.longTaskCount} (max ${ms(base.longTaskMaxMs)}), ${round(base.busyMsPerSec, 0)} ms/s`
        : `idle ${lc.idle.longTaskCount} (max ${ms(lc.idle.longTaskMaxMs)})`,
      target: 'none > 50 ms',
      // Without the asked cells the load was not measured on them: the row cannot say met.
      verdict: c.missing.length ? 'failed' : verdict(load.longTaskCount === 0),
    });
  } else if (!lc) {
    failed('live', 'long tasks, same load, columns with spark and bubble', 'none > 50 ms', 'columns');
  }
}

/** <price-ticker> under the same load: long tasks, and layouts per frame. */
export function tickerLiveRows(s: Sections, { rows, failed }: RowSink): void {
  if (s.tickerLive) {
    const { idle, load, symbols, pushed } = s.tickerLive;
    const perFrame = (w: { layouts: number; frames: number }) => (w.frames ? w.layouts / w.frames : Infinity);
    rows.push({
      section: 'live',
      metric: `<price-ticker>, ${symbols} symbols, ${pushed} updates in ${round(load.seconds, 1)} s: long tasks (> 50 ms)`,
      measured: `${load.longTasks} (max ${ms(load.longTaskMaxMs)}); script ${round(load.scriptMsPerSec, 0)}, style ${round(load.styleMsPerSec, 0)}, layout ${round(load.layoutMsPerSec, 0)} ms/s`,
      baseline: `no load: ${idle.longTasks}; script ${round(idle.scriptMsPerSec, 0)}, style ${round(idle.styleMsPerSec, 0)}, layout ${round(idle.layoutMsPerSec, 0)} ms/s`,
      target: '0',
      verdict: verdict(load.longTasks === 0),
    });
    rows.push({
      section: 'live',
      metric:
        '<price-ticker> under the same load: layouts per animation frame (text updates at most twice a second; the tape moves by transform)',
      measured: `${load.layouts} layouts in ${load.frames} frames (${round(perFrame(load), 3)}/frame); animation ${load.running ? 'running' : 'NOT running'}, rebuilt ${load.restarts}×`,
      baseline: `no load: ${idle.layouts} in ${idle.frames} frames`,
      target: 'no layout per frame (≤ 0.1/frame)',
      verdict: verdict(perFrame(load) <= 0.1 && load.running),
    });
  } else {
    failed('live', 'ticker under the live load', 'no long task, no layout per frame');
  }
}
