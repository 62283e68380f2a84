// The floor page of the first-paint bench: one fetch of /v1/prices and one innerHTML of the same
// rows (title, price in toman, change, with Persian digits), nothing else. `window.__floor` gets
// the same marks as the probe's for a board: the request sent (the board's connection), rows in
// the DOM, the next frame, the task after it.
// The markup floor (`withMarkupFloor`, bench/visitor.ts) is this script after a line that
// sets `window.__MARKUP`: the board's own DOM and style sheets as its rows first showed, in the same
// run. The same fetch; then, instead of the rows below, one shadow root adopting those sheets (made
// before the fetch, as a board makes its own) and one innerHTML of that DOM: what the board's
// markup and styles cost with no framework and no data path.
(function () {
  'use strict';
  var script = document.currentScript;
  var t = (window.__floor = {});
  var markup = window.__MARKUP;
  var sheets =
    markup &&
    markup.sheets.map(function (text) {
      var sheet = new CSSStyleSheet();
      sheet.replaceSync(text);
      return sheet;
    });
  var fa = function (s) {
    return String(s).replace(/[0-9]/g, function (d) {
      return '۰۱۲۳۴۵۶۷۸۹'[d];
    });
  };
  var esc = function (s) {
    return String(s).replace(/[&<>"]/g, function (c) {
      return '&#' + c.charCodeAt(0) + ';';
    });
  };
  t.sentAt = performance.now();
  // No key (a keyless relay): no header, so a cross-origin request stays simple (no preflight).
  fetch(script.dataset.base + '/v1/prices?symbols=' + script.dataset.symbols, {
    headers: script.dataset.key ? { 'X-API-Key': script.dataset.key } : {},
  })
    .then(function (res) {
      return res.json();
    })
    .then(function (body) {
      var rows = document.getElementById('rows');
      if (markup) {
        var root = rows.attachShadow({ mode: 'open' });
        root.adoptedStyleSheets = sheets;
        root.innerHTML = markup.html;
        return marked();
      }
      var html = '';
      body.data.quotes.forEach(function (q) {
        html +=
          '<div data-symbol="' +
          esc(q.symbol) +
          '"><span>' +
          esc(q.title) +
          '</span> <span>' +
          fa(esc(q.price_toman || q.price)) +
          '</span> <span>' +
          fa(esc(q.change_pct)) +
          '٪</span></div>';
      });
      rows.innerHTML = html;
      marked();
    });
  /** Rows in the DOM: the marks as the probe takes them for a board. */
  function marked() {
    t.rowsAt = performance.now();
    requestAnimationFrame(function () {
      t.frameAt = performance.now();
      var done = function () {
        t.paintAt = performance.now();
        if (window.__bench && window.__bench.notifyPaint) window.__bench.notifyPaint();
      };
      // As the probe does for a board: the first task after that frame, at the highest priority.
      if (window.scheduler && scheduler.postTask) scheduler.postTask(done, { priority: 'user-blocking' });
      else {
        var channel = new MessageChannel();
        channel.port1.onmessage = done;
        channel.port2.postMessage(0);
      }
    });
  }
})();
