// In-page instrumentation of the bench, injected with page.addInitScript before any page script.
// Plain JS on purpose (evaluated in the browser as is). Exposes `window.__bench`. This is its core
// (first paint, takeover, timings); probe-chart.js, probe-live.js and probe-memory.js follow it in
// the same init script (bench/browser.ts) and use what it shares in `__bench.lib`.
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
  /** What the probe's other pieces (probe-chart.js, probe-live.js, probe-memory.js) share with this one. */
  var lib = (B.lib = { CELL_PARTS: CELL_PARTS, DIGIT: DIGIT });

  var raf = (lib.raf = window.requestAnimationFrame.bind(window));
  var now = (lib.now = function () {
    return performance.now();
  });

  var partsOf = (lib.partsOf = function (el) {
    var p = el.getAttribute && el.getAttribute('part');
    return p ? p.split(/\s+/) : null;
  });

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
            if (cfg.chartWatch) lib.watchChart(host, root, t);
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
})();
