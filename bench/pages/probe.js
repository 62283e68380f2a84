// In-page instrumentation of the bench, injected with page.addInitScript before any page script.
// Plain JS on purpose (evaluated in the browser as is). Exposes `window.__bench`.
// `window.__BENCH_CFG` (set just before this script): { watch: boolean, rows: number, chartWatch: boolean, snapshot: boolean, takeover: boolean }
(function () {
  'use strict';
  var cfg = window.__BENCH_CFG || {};
  // Every cell a row may show (DESIGN.md §10 `columns`), and the title.
  var CELL_PARTS = ['title', 'price', 'change', 'change-amount', 'high', 'low', 'time', 'spark', 'bubble'];
  var DIGIT = /[0-9\u06F0-\u06F9\u0660-\u0669]/;
  var rootOf = new WeakMap(); // host → shadow root (also for closed roots); weak: no leak in the memory run
  var times = new WeakMap(); // host → { attachAt, rowsAt, frameAt, paintAt, chartCanvasAt, chartTextAt, chartCandlesAt }
  var B = (window.__bench = { cfg: cfg });

  var raf = window.requestAnimationFrame.bind(window);
  var now = function () {
    return performance.now();
  };

  function partsOf(el) {
    var p = el.getAttribute && el.getAttribute('part');
    return p ? p.split(/\s+/) : null;
  }

  /** Rows that show a price (digits in part=price). */
  function readyRows(root) {
    var n = 0;
    var rows = root.querySelectorAll('[part~="row"]');
    for (var i = 0; i < rows.length; i++) {
      var p = rows[i].querySelector('[part~="price"]');
      if (p && DIGIT.test(p.textContent || '')) n++;
    }
    return n;
  }
  B.readyRows = function (el) {
    var root = B.rootOf(el);
    return root ? readyRows(root) : 0;
  };
  B.rootOf = function (el) {
    return rootOf.get(el) || el.shadowRoot || null;
  };

  /** Candle pixels: strongly saturated, opaque pixels on the chart's canvases (grid, text and background are grey). */
  function chartState(root) {
    var chart = root.querySelector('[part~="chart"]');
    if (!chart) return { canvas: false, text: false, candles: 0 };
    var text = chart.getAttribute('aria-label') || '';
    var labelled = chart.querySelectorAll('[aria-label]');
    for (var k = 0; k < labelled.length; k++) text += ' ' + labelled[k].getAttribute('aria-label');
    text += ' ' + (chart.textContent || '');
    var canvases = chart.querySelectorAll('canvas');
    var sized = false;
    var saturated = 0;
    for (var i = 0; i < canvases.length; i++) {
      var c = canvases[i];
      if (!c.width || !c.height) continue;
      sized = true;
      var ctx = c.getContext('2d');
      if (!ctx) continue;
      var data;
      try {
        data = ctx.getImageData(0, 0, c.width, c.height).data;
      } catch {
        continue;
      }
      for (var j = 0; j < data.length; j += 12) {
        if (data[j + 3] < 200) continue;
        var r = data[j],
          g = data[j + 1],
          b = data[j + 2];
        var max = r > g ? (r > b ? r : b) : g > b ? g : b;
        var min = r < g ? (r < b ? r : b) : g < b ? g : b;
        if (max - min > 80) saturated++;
      }
    }
    return { canvas: sized, text: DIGIT.test(text), candles: saturated };
  }
  B.chartState = function (el) {
    var root = B.rootOf(el);
    return root ? chartState(root) : null;
  };

  function watchChart(host, root, t) {
    var started = now();
    function tick() {
      if (!host.isConnected || now() - started > 15000) return;
      var s = chartState(root);
      var at = now();
      if (s.canvas && t.chartCanvasAt === undefined) t.chartCanvasAt = at;
      if (s.text && t.chartTextAt === undefined) t.chartTextAt = at;
      if (s.candles >= 30 && t.chartCandlesAt === undefined) t.chartCandlesAt = at;
      if (t.chartCandlesAt === undefined || t.chartTextAt === undefined) raf(tick);
    }
    raf(tick);
  }

  /**
   * First-paint watcher: rows with prices observed (MutationObserver, `rowsAt`), then the next
   * animation frame (`frameAt`: its rAF callbacks run before that frame's style, layout and paint),
   * then the first task after that frame (`paintAt`: the frame with the rows has been rendered by
   * the main thread; only compositing and display follow). That task is posted at the highest
   * priority (`scheduler.postTask` user-blocking), so that other queued work (e.g. a lazy chunk's
   * evaluation) does not run before it and count as paint; a posted message where unsupported.
   */
  var channel = new MessageChannel();
  var afterFrame = [];
  channel.port1.onmessage = function () {
    var fn = afterFrame.shift();
    if (fn) fn();
  };
  function nextTask(fn) {
    if (window.scheduler && typeof window.scheduler.postTask === 'function') {
      window.scheduler.postTask(fn, { priority: 'user-blocking' });
    } else {
      afterFrame.push(fn);
      channel.port2.postMessage(0);
    }
  }
  /**
   * Resolves with the marks of the first rows painted on the page: the first board's, or the floor
   * page's (`window.__floor`, which calls `__bench.notifyPaint()`). One promise instead of polling
   * from the bench, so that nothing but the page itself runs on its main thread meanwhile.
   */
  var paintWaiters = [];
  function paintedMarks() {
    var f = window.__floor;
    if (f && f.paintAt !== undefined) return Object.assign({}, f);
    var el = document.querySelector('price-board');
    var t = el && times.get(el);
    return t && t.paintAt !== undefined ? Object.assign({}, t) : null;
  }
  B.notifyPaint = function () {
    var marks = paintedMarks();
    if (marks)
      paintWaiters.splice(0).forEach(function (fn) {
        fn(marks);
      });
  };
  B.whenPainted = function () {
    return new Promise(function (resolve) {
      var marks = paintedMarks();
      if (marks) resolve(marks);
      else paintWaiters.push(resolve);
    });
  };

  /** `price-board-error` details seen on the page (code and message), at most 20. */
  B.errors = [];
  window.addEventListener(
    'price-board-error',
    function (e) {
      var d = e.detail || {};
      if (B.errors.length < 20) B.errors.push({ code: String(d.code), message: String(d.message) });
    },
    true,
  );

  /**
   * The board's DOM and style sheets as its rows first show (for the markup floor, bench/visitor.ts):
   * the shadow root's HTML without Lit's comment markers, and each adopted sheet's text.
   */
  function snapshot(root) {
    return {
      html: root.innerHTML.replace(/<!--[^]*?-->/g, ''),
      sheets: Array.prototype.map.call(root.adoptedStyleSheets, function (sheet) {
        return Array.prototype.map
          .call(sheet.cssRules, function (rule) {
            return rule.cssText;
          })
          .join('\n');
      }),
    };
  }

  function watch(host, root) {
    var t = { attachAt: now() };
    times.set(host, t);
    var want = cfg.rows || 1;
    if (cfg.takeover) followTakeover(host, root, t, want);
    var mo = new MutationObserver(check);
    // A declarative root streams in as the parser goes: its rows are whole once the parser has
    // closed the last of them (the last row's later cells may come after its price), that is once
    // the root's last node is past that row, or the parser has left the element. The parser may
    // yield there and a frame paint the whole rows before it goes on to the element's end.
    var whole = cfg.takeover
      ? function () {
          if (host.nextSibling !== null || document.readyState !== 'loading') return true;
          var rows = root.querySelectorAll('[part~="row"]');
          var last = root.lastChild;
          while (last && last.lastChild) last = last.lastChild;
          return rows.length > 0 && last !== null && !rows[rows.length - 1].contains(last);
        }
      : function () {
          return true;
        };
    checks.set(host, check);
    function check() {
      if (t.rowsAt !== undefined) return;
      if (readyRows(root) >= want && whole()) {
        t.rowsAt = now();
        mo.disconnect();
        if (cfg.snapshot && !B.markup) B.markup = snapshot(root);
        raf(function () {
          t.frameAt = now();
          nextTask(function () {
            t.paintAt = now();
            if (cfg.chartWatch) watchChart(host, root, t);
            B.notifyPaint();
          });
        });
      }
    }
    mo.observe(root, { childList: true, subtree: true, characterData: true, attributes: true });
    // A declarative root may hold its rows already when first seen.
    check();
  }

  /**
   * A relay's rendered board (`cfg.takeover`, DESIGN.md §13): its root is declarative, attached by
   * the parser (no attachShadow call), so a document observer watches each board as it is parsed.
   * From its rows painted until it is live, the probe counts the frames (rAF) and the mutation
   * batches in which fewer than `want` rows show a price, and the layout shifts; `whenLive`.
   */
  var live = { shifts: [], streamAt: undefined, waiters: [] };
  var checks = new WeakMap(); // host → its rows' check (run again as the parser moves on)
  if (cfg.takeover) {
    var parsed = function () {
      var els = document.querySelectorAll('price-board');
      for (var i = 0; i < els.length; i++) {
        if (!times.has(els[i]) && els[i].shadowRoot) {
          rootOf.set(els[i], els[i].shadowRoot);
          watch(els[i], els[i].shadowRoot);
        } else if (checks.has(els[i])) checks.get(els[i])();
      }
    };
    new MutationObserver(parsed).observe(document, { childList: true, subtree: true });
    document.addEventListener('readystatechange', parsed);
    try {
      new PerformanceObserver(function (list) {
        list.getEntries().forEach(function (e) {
          if (!e.hadRecentInput) live.shifts.push({ at: e.startTime, value: e.value, sources: shiftSources(e) });
        });
      }).observe({ type: 'layout-shift', buffered: true });
    } catch {
      live.shifts = null;
    }
    // The stream is a fetch (src/live/sse.ts): live once its response has come.
    var realFetch = window.fetch;
    window.fetch = function (input) {
      var p = realFetch.apply(this, arguments);
      var url = typeof input === 'string' ? input : input && input.url;
      if (url && String(url).indexOf('/v1/stream') >= 0)
        p.then(
          function () {
            if (live.streamAt === undefined) live.streamAt = now();
            settleLive();
          },
          function () {},
        );
      return p;
    };
  }
  /** An element as the report names it: its tag and class, and the nearest part around it. */
  function describeElement(el) {
    var name =
      el.localName + (typeof el.className === 'string' && el.className ? '.' + el.className.split(' ')[0] : '');
    for (var e = el; e && e.getAttribute; e = e.parentNode) {
      var parts = partsOf(e);
      if (parts) return name + (e === el ? '' : ' in ') + '[part=' + parts.join(' ') + ']';
    }
    return name;
  }
  /**
   * What moved in a layout shift, for the report: each source's element and its rects. A node in a
   * shadow root is not given (null): it is looked up in the board's root at its current rect.
   */
  function shiftSources(e) {
    var board = document.querySelector('price-board');
    var root = board && B.rootOf(board);
    return (e.sources || []).slice(0, 4).map(function (src) {
      var n = src.node;
      var c = src.currentRect;
      if (!n && root && root.elementsFromPoint && c.width > 0 && c.height > 0) {
        var hits = root.elementsFromPoint(c.x + c.width / 2, c.y + c.height / 2);
        n =
          hits.filter(function (h) {
            var b = h.getBoundingClientRect();
            return Math.abs(b.x - c.x) < 2 && Math.abs(b.y - c.y) < 2 && Math.abs(b.height - c.height) < 2;
          })[0] || null;
      }
      var name = n ? (n.nodeType === 1 ? describeElement(n) : '#text') : '?';
      var r = function (x) {
        return Math.round(x.x) + ',' + Math.round(x.y) + ' ' + Math.round(x.width) + '×' + Math.round(x.height);
      };
      return name + ' ' + r(src.previousRect) + ' → ' + r(c);
    });
  }
  function followTakeover(host, root, t, want) {
    live.t = t;
    live.blankFrames = 0;
    live.blankBatches = 0;
    live.frames = 0;
    live.partialFrames = 0;
    live.statuses = [];
    customElements.whenDefined('price-board').then(function () {
      live.definedAt = now();
    });
    host.addEventListener('price-board-status', function (e) {
      live.statuses.push(e.detail && e.detail.status);
    });
    // The element's first render over the server's nodes empties the root (replaceChildren).
    new MutationObserver(function (records) {
      if (t.rowsAt !== undefined && readyRows(root) < want) live.blankBatches++;
      for (var i = 0; i < records.length; i++)
        if (records[i].target === root && records[i].removedNodes.length > 0 && live.tookOverAt === undefined) {
          live.tookOverAt = now();
          settleLive();
        }
    }).observe(root, { childList: true, subtree: true, characterData: true, attributes: true });
    (function frame() {
      raf(function () {
        if (live.done) return;
        var ready = readyRows(root);
        if (t.rowsAt !== undefined) {
          live.frames++;
          if (ready < want) live.blankFrames++;
        } else if (ready > 0) live.partialFrames++;
        frame();
      });
    })();
  }
  function settleLive() {
    if (live.liveAt !== undefined || live.tookOverAt === undefined || live.streamAt === undefined) return;
    live.liveAt = Math.max(live.tookOverAt, live.streamAt);
    // Two more frames: the live render's own frame and its layout shifts are counted.
    raf(function () {
      raf(function () {
        finishLive();
      });
    });
  }
  function finishLive() {
    if (live.done) return;
    live.done = true;
    // From the rows in the DOM: shifts in the frame that paints them (against a frame before it,
    // which showed part of the parsed rows), then those after it.
    var t = live.t || {};
    var sum = function (from, to) {
      return live.shifts
        ? live.shifts
            .filter(function (s) {
              return s.at >= from && s.at < to;
            })
            .reduce(function (total, s) {
              return total + s.value;
            }, 0)
        : null;
    };
    var shifts = live.shifts
      ? live.shifts.filter(function (s) {
          return s.at >= t.rowsAt;
        })
      : [];
    var out = {
      liveAt: live.liveAt,
      tookOverAt: live.tookOverAt,
      streamAt: live.streamAt,
      cls: sum(t.paintAt, Infinity),
      clsRowsFrame: sum(t.rowsAt, t.paintAt),
      shifts: shifts.slice(0, 5),
      partialFrames: live.partialFrames,
      definedAt: live.definedAt,
      rowsAt: t.rowsAt,
      paintAt: t.paintAt,
      blankFrames: live.blankFrames,
      blankBatches: live.blankBatches,
      frames: live.frames,
      statuses: live.statuses,
    };
    live.waiters.splice(0).forEach(function (fn) {
      fn(out);
    });
    live.result = out;
  }
  /** Resolves with the takeover's marks once the board is live (or after `timeoutMs`, without `liveAt`). */
  B.whenLive = function (timeoutMs) {
    return new Promise(function (resolve) {
      if (live.result) return resolve(live.result);
      live.waiters.push(resolve);
      setTimeout(finishLive, timeoutMs);
    });
  };

  var attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    var root = attach.call(this, init);
    if (this.localName === 'price-board') {
      rootOf.set(this, root);
      if (cfg.watch) watch(this, root);
    }
    return root;
  };

  /** Times of every board in the document, in document order. */
  B.times = function () {
    var out = [];
    var els = document.querySelectorAll('price-board');
    for (var i = 0; i < els.length; i++)
      out.push(Object.assign({}, times.get(els[i]) || {}, { ready: B.readyRows(els[i]) }));
    return out;
  };

  /** Resolves true once `el` shows `n` rows with prices, false after `timeoutMs`. Leaves nothing behind. */
  B.waitRows = function (el, n, timeoutMs) {
    return new Promise(function (resolve) {
      var root = B.rootOf(el);
      if (root && readyRows(root) >= n) return resolve(true);
      var done = false;
      var mo = new MutationObserver(check);
      var timer = setTimeout(function () {
        finish(false);
      }, timeoutMs);
      function finish(ok) {
        if (done) return;
        done = true;
        mo.disconnect();
        clearTimeout(timer);
        resolve(ok);
      }
      function check() {
        var r = B.rootOf(el);
        if (r && readyRows(r) >= n) finish(true);
      }
      if (root) mo.observe(root, { childList: true, subtree: true, characterData: true, attributes: true });
      else finish(false);
    });
  };

  B.frame = function () {
    return new Promise(function (r) {
      raf(function () {
        r(undefined);
      });
    });
  };

  /** Bare fetch round trips (ms), after `warm` unmeasured ones: fetch + body parsed, as the widget needs it. */
  B.rtt = async function (url, key, warm, n) {
    var out = [];
    for (var i = 0; i < warm + n; i++) {
      var t0 = now();
      var res = await fetch(url, { headers: { 'X-API-Key': key }, cache: 'no-store' });
      await res.json();
      var dt = now() - t0;
      if (!res.ok) throw new Error('rtt fetch ' + res.status);
      if (i >= warm) out.push(dt);
    }
    return out;
  };

  // ---------------------------------------------------------------- live-load window
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

  // ---------------------------------------------------------------- memory
  /** `n` mount/unmount cycles: append a board, wait for its rows (or `timeoutMs`), one frame, remove. */
  B.cycles = async function (n, opts) {
    var host = document.getElementById('boards') || document.body;
    var timeouts = 0;
    var t0 = now();
    for (var i = 0; i < n; i++) {
      var el = document.createElement('price-board');
      el.setAttribute('symbols', opts.symbols);
      el.setAttribute('api-key', opts.keys[i % opts.keys.length]);
      el.setAttribute('base-url', opts.base);
      el.setAttribute('chart', opts.chart);
      host.appendChild(el);
      var ok = await B.waitRows(el, opts.rows, opts.timeoutMs);
      if (!ok) timeouts++;
      await B.frame();
      if (timeouts > (opts.maxTimeouts || 20)) {
        el.remove();
        return { timeouts: timeouts, ms: now() - t0, done: i + 1, aborted: true };
      }
      el.remove();
    }
    return { timeouts: timeouts, ms: now() - t0, done: n, aborted: false };
  };

  /**
   * One board per key in `opts.keys`, each kept until its chart shows candles (or `timeoutMs`),
   * then removed: the history of each key is then cached and the chart's drawing code has run.
   * Resolves to the number of charts that drew candles.
   */
  B.drawCharts = async function (opts, timeoutMs) {
    var host = document.getElementById('boards') || document.body;
    var drawn = 0;
    for (var i = 0; i < opts.keys.length; i++) {
      var el = document.createElement('price-board');
      el.setAttribute('symbols', opts.symbols);
      el.setAttribute('api-key', opts.keys[i]);
      el.setAttribute('base-url', opts.base);
      el.setAttribute('chart', opts.chart);
      host.appendChild(el);
      var until = now() + timeoutMs;
      await B.waitRows(el, opts.rows, timeoutMs);
      for (;;) {
        var s = B.chartState(el);
        if (s && s.candles >= 30) {
          drawn++;
          break;
        }
        if (now() > until) break;
        await B.frame();
      }
      el.remove();
    }
    return drawn;
  };

  B.mount = function (attrs) {
    var el = document.createElement('price-board');
    for (var k in attrs) el.setAttribute(k, attrs[k]);
    (document.getElementById('boards') || document.body).appendChild(el);
    return true;
  };
  B.unmountAll = function () {
    var els = document.querySelectorAll('price-board');
    for (var i = 0; i < els.length; i++) els[i].remove();
    return els.length;
  };
})();
