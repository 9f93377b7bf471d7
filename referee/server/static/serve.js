// referee serve: a tap swaps the part of the page it changes; another phone's move arrives
// as a server-sent event and the page fetches the game as it is. Without this script the
// links and forms work as plain pages.
(function () {
  "use strict";
  var root = document.getElementById("play");
  if (!root) return;
  var busy = false;

  function version() {
    var state = root.querySelector("[data-version]");
    return state ? state.getAttribute("data-version") : null;
  }

  function swap(response) {
    return response.text().then(function (html) {
      root.innerHTML = html;
      root.setAttribute("data-status", String(response.status));
    });
  }

  function load(url) {
    busy = true;
    return fetch(url, { headers: { "X-Partial": "1" }, credentials: "same-origin" })
      .then(swap)
      .finally(function () { busy = false; });
  }

  root.addEventListener("click", function (event) {
    var link = event.target.closest("a[data-tap]");
    if (!link) return;
    event.preventDefault();
    load(link.href);
  });

  root.addEventListener("submit", function (event) {
    var form = event.target.closest("form[data-tap]");
    if (!form) return;
    event.preventDefault();
    var body = new URLSearchParams(new FormData(form));
    if (event.submitter && event.submitter.name) body.append(event.submitter.name, event.submitter.value);
    busy = true;
    fetch(form.action, { method: "POST", body: body, headers: { "X-Partial": "1" }, credentials: "same-origin" })
      .then(swap)
      .finally(function () { busy = false; });
  });

  if (window.EventSource) {
    var events = new EventSource(root.getAttribute("data-events"));
    events.addEventListener("version", function (event) {
      if (event.data !== version() && !busy) load(root.getAttribute("data-base"));
    });
  }
})();
