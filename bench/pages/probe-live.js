// In-page instrumentation of the bench (bench/pages/probe.js has the rest): what a board writes under live load (`B.liveStart`, `B.liveStop`, `B.prices`).
// Injected after probe.js, in the same init script (bench/browser.ts). Plain JS, evaluated as is.
(function () {
  'use strict';
  var B = window.__bench;
  var lib = B.lib;
  var CELL_PARTS = lib.CELL_PARTS,
    partsOf = lib.partsOf,
    raf = lib.raf,
    now = lib.now;

  function unitOf(node, root) {
    var el = node.nodeType === 1 ? node : node.parentNode;
    var cell = null;
    for (var e = el; e && e !== root; e = e.parentNode) {
      var parts = partsOf(e);
      if (!parts) continue;
      if (parts.indexOf('chart') >= 0) return { kind: 'chart', el: e };
      if (
        !cell &&
        CELL_PARTS.some(function (p) {
          return parts.indexOf(p) >= 0;
        })
      )
        cell = e;
      if (parts.indexOf('row') >= 0) return cell ? { kind: 'cell', el: cell, row: e } : { kind: 'row', el: e, row: e };
    }
    return { kind: 'other', el: el && el !== root ? el : root };
  }
  function signature(unit) {
    var el = unit.el;
    var s = unit.kind === 'row' ? '' : el.textContent || '';
    if (el.attributes)
      for (var i = 0; i < el.attributes.length; i++) s += '|' + el.attributes[i].name + '=' + el.attributes[i].value;
    return s;
  }
  function describe(unit) {
    var p = unit.el.getAttribute ? unit.el.getAttribute('part') || unit.el.localName : '#root';
    var sym = unit.row ? unit.row.getAttribute('data-symbol') : '';
    return unit.kind + ':' + p + (sym ? '@' + sym : '');
  }

  var win = null;
  B.liveStart = function (el) {
    var root = B.rootOf(el);
    var w = {
      t0: now(),
      records: 0,
      byType: { characterData: 0, childList: 0, attributes: 0 },
      byKind: { cell: 0, row: 0, chart: 0, other: 0 },
      writes: { cell: 0, row: 0, chart: 0, other: 0 }, // distinct units touched per observer callback
      changed: { cell: 0, row: 0, chart: 0, other: 0 },
      redundant: { cell: 0, row: 0, chart: 0, other: 0 },
      structural: 0, // rows or cells added/removed (re-created instead of updated)
      innerElements: 0, // other elements added/removed inside a cell or the status line
      samples: [],
      innerSamples: [],
      quotesEvents: 0,
      appliedQuotes: 0,
      longTasks: [],
      loafs: [],
      frames: 0,
      intervals: [],
      sig: new WeakMap(),
      stop: false,
    };
    var cells = root.querySelectorAll('[part]');
    for (var i = 0; i < cells.length; i++) {
      var u = unitOf(cells[i], root);
      if (u.el === cells[i]) w.sig.set(u.el, signature(u));
    }
    w.mo = new MutationObserver(function (records) {
      var touched = new Map();
      for (var i = 0; i < records.length; i++) {
        var r = records[i];
        w.records++;
        w.byType[r.type]++;
        var u = unitOf(r.target, root);
        w.byKind[u.kind]++;
        if (r.type === 'childList' && u.kind !== 'chart') {
          var nodes = Array.prototype.slice.call(r.addedNodes).concat(Array.prototype.slice.call(r.removedNodes));
          for (var k = 0; k < nodes.length; k++) {
            var n = nodes[k];
            if (n.nodeType !== 1) continue;
            // A row or a cell added/removed while the symbol list is unchanged = re-created, not updated.
            var np = partsOf(n) || [];
            var recreated =
              np.indexOf('row') >= 0 ||
              CELL_PARTS.some(function (p) {
                return np.indexOf(p) >= 0;
              }) ||
              (n.querySelector && n.querySelector('[part~="row"]'));
            if (recreated) {
              w.structural++;
              if (w.samples.length < 12)
                w.samples.push('re-created ' + describe(u) + ' <' + n.localName + ' part=' + np.join(' ') + '>');
            } else {
              w.innerElements++;
              if (w.innerSamples.length < 4) w.innerSamples.push(describe(u) + ' <' + n.localName + '>');
            }
          }
        }
        var prev = touched.get(u.el);
        if (prev) prev.types[r.type] = (prev.types[r.type] || 0) + 1;
        else {
          var types = {};
          types[r.type] = 1;
          touched.set(u.el, { unit: u, types: types });
        }
      }
      touched.forEach(function (entry, el) {
        var u = entry.unit;
        w.writes[u.kind]++;
        var s = signature(u);
        if (w.sig.get(el) === s) {
          w.redundant[u.kind]++;
          if (w.samples.length < 12) w.samples.push('unchanged ' + describe(u) + ' ' + JSON.stringify(entry.types));
        } else w.changed[u.kind]++;
        w.sig.set(el, s);
      });
    });
    w.mo.observe(root, {
      childList: true,
      subtree: true,
      characterData: true,
      characterDataOldValue: true,
      attributes: true,
      attributeOldValue: true,
    });
    w.onQuotes = function (e) {
      w.quotesEvents++;
      var q = e.detail && e.detail.quotes;
      w.appliedQuotes += q && q.length ? q.length : 0;
    };
    el.addEventListener('price-board-quotes', w.onQuotes);
    try {
      w.po = new PerformanceObserver(function (list) {
        list.getEntries().forEach(function (e) {
          w.longTasks.push({ start: e.startTime, duration: e.duration });
        });
      });
      w.po.observe({ type: 'longtask', buffered: false });
    } catch {
      w.po = null;
    }
    try {
      w.lo = new PerformanceObserver(function (list) {
        list.getEntries().forEach(function (e) {
          if (e.blockingDuration > 0 && w.loafs.length < 50)
            w.loafs.push({
              start: e.startTime,
              duration: e.duration,
              blocking: e.blockingDuration,
              render: e.renderStart ? e.startTime + e.duration - e.renderStart : 0,
              scripts: (e.scripts || []).slice(0, 5).map(function (s) {
                return {
                  invoker: s.invoker,
                  source: (s.sourceURL || '').split('/').pop() + ':' + s.sourceCharPosition,
                  duration: s.duration,
                };
              }),
            });
        });
      });
      w.lo.observe({ type: 'long-animation-frame', buffered: false });
    } catch {
      w.lo = null;
    }
    var last = now();
    (function loop() {
      if (w.stop) return;
      raf(function () {
        var t = now();
        w.frames++;
        w.intervals.push(t - last);
        last = t;
        loop();
      });
    })();
    w.el = el;
    win = w;
    return true;
  };

  B.liveStop = function () {
    var w = win;
    win = null;
    w.stop = true;
    w.mo.disconnect();
    if (w.po) w.po.disconnect();
    if (w.lo) w.lo.disconnect();
    w.el.removeEventListener('price-board-quotes', w.onQuotes);
    var frameMs = 1000 / 60;
    var dropped = 0;
    var maxInterval = 0;
    for (var i = 0; i < w.intervals.length; i++) {
      if (w.intervals[i] > 1.5 * frameMs) dropped += Math.max(1, Math.round(w.intervals[i] / frameMs) - 1);
      if (w.intervals[i] > maxInterval) maxInterval = w.intervals[i];
    }
    var sorted = w.intervals.slice().sort(function (a, b) {
      return a - b;
    });
    return {
      durationMs: now() - w.t0,
      records: w.records,
      byType: w.byType,
      byKind: w.byKind,
      writes: w.writes,
      changed: w.changed,
      redundant: w.redundant,
      structural: w.structural,
      innerElements: w.innerElements,
      samples: w.samples,
      innerSamples: w.innerSamples,
      quotesEvents: w.quotesEvents,
      appliedQuotes: w.appliedQuotes,
      longTasks: w.longTasks,
      loafs: w.loafs
        .sort(function (a, b) {
          return b.blocking - a.blocking;
        })
        .slice(0, 8),
      frames: w.frames,
      slowFrames: w.intervals.filter(function (x) {
        return x > 1.5 * frameMs;
      }).length,
      droppedFrames: dropped,
      maxFrameInterval: maxInterval,
      medianFrameInterval: sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0,
    };
  };

  /** Last price each symbol shows through the element's `quotes` property (Map or record). */
  B.prices = function (el, symbols) {
    var q = el.quotes;
    var out = {};
    for (var i = 0; i < symbols.length; i++) {
      var v = q instanceof Map ? q.get(symbols[i]) : q && q[symbols[i]];
      out[symbols[i]] = v ? v.price : null;
    }
    return out;
  };
})();
