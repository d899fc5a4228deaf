// A served page of the report (arena serve) reloads itself when a game is saved: it polls the
// database's latest save order (a tiny JSON document) and reloads when it differs from the one
// the page was rendered at. A page opened from disk has no data-live and never polls.
(function () {
  "use strict";
  var body = document.body;
  var endpoint = body.dataset.live;
  if (!endpoint) return;
  var rendered = body.dataset.seq;
  var everyMs = 2000;
  function poll() {
    fetch(endpoint, { cache: "no-store" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (latest) {
        if (latest && String(latest.seq) !== rendered) {
          window.location.reload();
          return;
        }
        window.setTimeout(poll, everyMs);
      })
      .catch(function () { window.setTimeout(poll, everyMs * 5); }); // server gone: retry slowly
  }
  window.setTimeout(poll, everyMs);
})();
