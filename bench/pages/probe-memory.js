// In-page instrumentation of the bench (bench/pages/probe.js has the rest): boards mounted and removed (`B.cycles`, `B.drawCharts`, `B.mount`, `B.unmountAll`).
// Injected after probe.js, in the same init script (bench/browser.ts). Plain JS, evaluated as is.
(function () {
  'use strict';
  var B = window.__bench;
  var lib = B.lib;
  var now = lib.now;

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
