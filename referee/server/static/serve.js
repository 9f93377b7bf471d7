// referee serve: a tap swaps the part of the page it changes; another phone's move arrives
// as a server-sent event and the page fetches the game as it is. Without this script the
// links and forms work as plain pages.
(function () {
  "use strict";
  var root = document.getElementById("play");
  if (!root) return;
  var busy = false;
  var latest = null; // the game's version an event told last

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

  // An event that came while a tap was on its way is not lost: once the answer is in, a
  // page older than the game is fetched again.
  function done() {
    busy = false;
    var told = latest;
    latest = null; // once: a fetch that fails is not tried again and again
    if (told !== null && Number(told) > Number(version())) load(root.getAttribute("data-base"));
  }

  function load(url) {
    busy = true;
    return fetch(url, { headers: { "X-Partial": "1" }, credentials: "same-origin" })
      .then(swap)
      .finally(done);
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
      .finally(done);
  });

  if (window.EventSource) {
    var events = new EventSource(root.getAttribute("data-events"));
    events.addEventListener("version", function (event) {
      latest = event.data;
      if (latest !== version() && !busy) load(root.getAttribute("data-base"));
    });
  }
})();
