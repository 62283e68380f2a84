// In-page instrumentation of the bench (bench/pages/probe.js has the rest): a chart's candles drawn (`B.chartState`, `chartWatch`).
// Injected after probe.js, in the same init script (bench/browser.ts). Plain JS, evaluated as is.
(function () {
  'use strict';
  var B = window.__bench;
  var lib = B.lib;
  var raf = lib.raf,
    now = lib.now,
    DIGIT = lib.DIGIT;

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

  lib.watchChart = function (host, root, t) {
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
  };
})();
