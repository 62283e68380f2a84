// Counts pending timers (setTimeout not yet fired or cleared, setInterval not cleared), with the
// call site that created each. Injected before any page script on the memory page only.
(function () {
  'use strict';
  var pending = new Map();
  var oST = window.setTimeout,
    oCT = window.clearTimeout,
    oSI = window.setInterval,
    oCI = window.clearInterval;
  function site() {
    var lines = (new Error().stack || '').split('\n');
    // [0] "Error", [1] site(), [2] the patched function, [3] its caller
    return (lines[3] || '?')
      .trim()
      .replace(/^at /, '')
      .replace(/https?:\/\/[^/]+\//, '');
  }
  window.setTimeout = function (fn, ms) {
    var args = Array.prototype.slice.call(arguments, 2);
    var id;
    var wrapped =
      typeof fn === 'function'
        ? function () {
            pending.delete(id);
            return fn.apply(this, arguments);
          }
        : fn;
    id = oST.apply(window, [wrapped, ms].concat(args));
    pending.set(id, { kind: 'timeout', ms: ms, site: site() });
    return id;
  };
  window.setInterval = function (fn, ms) {
    var id = oSI.apply(window, arguments);
    pending.set(id, { kind: 'interval', ms: ms, site: site() });
    return id;
  };
  window.clearTimeout = function (id) {
    pending.delete(id);
    return oCT.call(window, id);
  };
  window.clearInterval = function (id) {
    pending.delete(id);
    return oCI.call(window, id);
  };
  window.__benchTimers = function () {
    var bySite = {};
    pending.forEach(function (t) {
      var k = t.kind + ' ' + t.ms + 'ms ' + t.site;
      bySite[k] = (bySite[k] || 0) + 1;
    });
    var top = Object.keys(bySite)
      .map(function (k) {
        return { site: k, count: bySite[k] };
      })
      .sort(function (a, b) {
        return b.count - a.count;
      })
      .slice(0, 8);
    return { pending: pending.size, top: top };
  };
})();
