// The replay page of `referee replay`: step through the positions of a record.
// Every position is rebuilt from the SVG parts it is made of (stored once each in the page's
// data), so the page stays small however long the game. No network, no library.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var picture = document.getElementById("picture");
  var caption = document.getElementById("caption");
  var situation = document.getElementById("situation");
  var counter = document.getElementById("counter");
  var prev = document.getElementById("prev");
  var next = document.getElementById("next");
  var items = Array.prototype.slice.call(document.querySelectorAll("#moves li"));
  var markers = Array.prototype.slice.call(document.querySelectorAll("#charts .chart-now"));
  var current = -1;

  function svgOf(position) {
    var ids = position.parts;
    var out = data.parts[ids[0]];
    for (var i = 1; i < ids.length; i++) out += data.parts[ids[i]];
    return out + "</svg>";
  }

  function describe(entry) {
    var head = entry.head ? entry.head + ": " : "";  // "Move 3 (line 12)", in the page's language
    var first = entry.problems[0];
    var problem = first ? " \u2014 " + (first.label || first.severity) + ": " + first.message : "";
    return head + (entry.sentence || entry.text) + problem;
  }

  function show(index) {
    index = Math.max(0, Math.min(data.entries.length - 1, index));
    if (index === current) return;
    var entry = data.entries[index];
    var position = data.positions[entry.position];
    picture.innerHTML = svgOf(position);
    picture.setAttribute("data-position", String(entry.position));
    caption.textContent = describe(entry);
    situation.textContent = position.situation;
    counter.textContent = (index + 1) + " / " + data.entries.length;
    if (current >= 0) items[current].classList.remove("current");
    items[index].classList.add("current");
    items[index].scrollIntoView({block: "nearest"});
    markers.forEach(function (line, chart) {
      var x = data.chartX[chart][position.round];
      if (x !== undefined) { line.setAttribute("x1", x); line.setAttribute("x2", x); }
    });
    prev.disabled = index === 0;
    next.disabled = index === data.entries.length - 1;
    current = index;
  }

  prev.addEventListener("click", function () { show(current - 1); });
  next.addEventListener("click", function () { show(current + 1); });
  items.forEach(function (item) {
    item.addEventListener("click", function () { show(Number(item.getAttribute("data-index"))); });
  });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "ArrowRight" || event.key === "ArrowDown") { show(current + 1); event.preventDefault(); }
    else if (event.key === "ArrowLeft" || event.key === "ArrowUp") { show(current - 1); event.preventDefault(); }
    else if (event.key === "Home") { show(0); event.preventDefault(); }
    else if (event.key === "End") { show(data.entries.length - 1); event.preventDefault(); }
  });
  show(0);
})();
