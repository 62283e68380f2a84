// ?count=N: N identical boards in the document before the element is defined (0: none).
// ?attr-NAME=VALUE: one more attribute on each (e.g. attr-columns=price,spark), as if written in the HTML.
(function () {
  var params = new URLSearchParams(location.search);
  var count = Number(params.get('count') || '1');
  var first = document.querySelector('price-board');
  if (!first) return;
  params.forEach(function (value, name) {
    if (name.indexOf('attr-') === 0) first.setAttribute(name.slice(5), value);
  });
  if (count === 0) first.remove();
  for (var i = 1; i < count; i++) first.parentNode.appendChild(first.cloneNode(false));
})();
