// The floor page of the first-paint bench: one fetch of /v1/prices and one innerHTML of the same
// rows (title, price in toman, change, with Persian digits), nothing else. `window.__floor` gets
// the same marks as the probe's for a board: the request sent (the board's connection), rows in
// the DOM, the next frame, the task after it.
(function () {
  'use strict';
  var script = document.currentScript;
  var t = (window.__floor = {});
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
      document.getElementById('rows').innerHTML = html;
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
    });
})();
