// The shelf page: renders the embedded catalogue, filters it, scales the live previews.
// Reads nothing but the JSON script tag in the page; requests nothing.
(function () {
  "use strict";

  var data = JSON.parse(document.getElementById("shelf-data").textContent);
  var ledger = document.getElementById("ledger");
  var empty = document.getElementById("empty");
  var tally = document.getElementById("tally");
  var search = document.getElementById("q");
  var selects = { line: document.getElementById("f-line") };
  // One select per facet the site names (domain, era), placed before the tally.
  data.facets.forEach(function (facet) {
    var label = el("label", "field");
    label.appendChild(el("span", null, facet.charAt(0).toUpperCase() + facet.slice(1)));
    var select = el("select");
    select.id = "f-" + facet;
    select.name = facet;
    var any = el("option", null, "any " + facet);
    any.value = "";
    select.appendChild(any);
    label.appendChild(select);
    tally.parentNode.insertBefore(label, tally);
    selects[facet] = select;
  });
  var PREVIEW_W = 1440;
  var PREVIEW_H = 900;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text != null) node.textContent = text;
    return node;
  }

  function fold(text) {
    return String(text).toLowerCase().replace(/\s+/g, " ").trim();
  }

  function plural(line, count) {
    return count + " " + (count === 1 ? line.noun : line.name);
  }

  function holdings() {
    var parts = data.lines.filter(function (l) { return l.count; }).map(function (l) {
      return plural(l, l.count);
    });
    var node = document.getElementById("holdings");
    node.textContent = parts.length ? "Holdings: " + parts.join(" and ") + "." : "The shelf is empty so far.";
    if (data.items.length) {
      var latest = el("time", null, data.items[0].created);
      latest.dateTime = data.items[0].created;
      node.appendChild(document.createTextNode(" Latest entry "));
      node.appendChild(latest);
      node.appendChild(document.createTextNode("."));
    }
  }

  function fillSelect(select, values, label) {
    values.forEach(function (value) {
      var option = el("option", null, label ? label(value) : value);
      option.value = value;
      select.appendChild(option);
    });
  }

  function distinct(key) {
    var seen = {};
    data.items.forEach(function (item) {
      var value = item.facets[key];
      if (value) seen[value] = true;
    });
    return Object.keys(seen).sort();
  }

  function entry(item) {
    var li = el("li", "entry");
    li.id = item.line + "-" + item.slug;
    li.dataset.line = item.line;

    var stub = el("div", "stub");
    stub.appendChild(el("span", "no", "No. " + item.number));
    stub.appendChild(el("span", "noun", item.noun));
    var time = el("time", "date", item.created);
    time.dateTime = item.created;
    stub.appendChild(time);
    li.appendChild(stub);

    var body = el("div", "body");
    var h2 = el("h2", "name");
    var title = el("a", "title", item.name);
    title.href = item.pages[0].href;
    h2.appendChild(title);
    body.appendChild(h2);

    var headline = el("p", "headline");
    item.headline.forEach(function (fact) {
      headline.appendChild(el("span", null, fact));
    });
    body.appendChild(headline);
    body.appendChild(el("p", "tagline", item.tagline));

    if (item.palette.length) {
      var swatches = el("ul", "swatches");
      swatches.setAttribute("aria-label", "Palette");
      item.palette.forEach(function (colour) {
        var chip = el("li", "swatch");
        chip.style.setProperty("--c", colour);
        chip.title = colour;
        chip.appendChild(el("span", "hex", colour));
        swatches.appendChild(chip);
      });
      body.appendChild(swatches);
    }

    var pages = el("p", "pages");
    item.pages.forEach(function (page) {
      var a = el("a", "page", page.label);
      a.href = page.href;
      pages.appendChild(a);
    });
    body.appendChild(pages);

    var details = el("details", "particulars");
    details.appendChild(el("summary", null, "Particulars"));
    var dl = el("dl");
    item.facts.forEach(function (fact) {
      dl.appendChild(el("dt", null, fact[0]));
      dl.appendChild(el("dd", null, fact[1]));
    });
    dl.appendChild(el("dt", null, "Folder"));
    dl.appendChild(el("dd", "mono", "shelf/" + item.line + "/" + item.slug + "/"));
    details.appendChild(dl);
    body.appendChild(details);
    li.appendChild(body);

    var plate = el("figure", "plate");
    var frame = el("div", "frame");
    frame.inert = true;
    frame.setAttribute("aria-hidden", "true");
    frame.dataset.src = item.preview;
    frame.dataset.title = item.name + " (preview)";
    plate.appendChild(frame);
    plate.appendChild(el("figcaption", null, "Live, at 1440 \u00d7 900, scaled"));
    li.appendChild(plate);

    li._text = fold([item.name, item.slug, item.tagline, item.noun, item.line]
      .concat(item.headline)
      .concat(item.facts.map(function (f) { return f[1]; }))
      .join(" "));
    li._item = item;
    return li;
  }

  // A preview runs only while it is near the screen: a long shelf must not keep
  // a hundred simulations ticking out of sight. Leaving unloads it.
  var nearby = new IntersectionObserver(function (records) {
    records.forEach(function (record) {
      var frame = record.target;
      var iframe = frame.querySelector("iframe");
      if (record.isIntersecting && !iframe) {
        iframe = el("iframe");
        iframe.title = frame.dataset.title;
        iframe.tabIndex = -1;
        iframe.width = PREVIEW_W;
        iframe.height = PREVIEW_H;
        iframe.src = frame.dataset.src;
        frame.appendChild(iframe);
      } else if (!record.isIntersecting && iframe) {
        frame.removeChild(iframe);
      }
    });
  }, { rootMargin: "50% 0px" });

  // Scale each 1440-wide preview to its frame; one observer for all frames.
  var scaler = new ResizeObserver(function (records) {
    records.forEach(function (record) {
      var width = record.contentRect.width;
      if (width) record.target.style.setProperty("--s", String(width / PREVIEW_W));
    });
  });

  function current() {
    var state = { q: search.value };
    Object.keys(selects).forEach(function (key) { state[key] = selects[key].value; });
    return state;
  }

  function matches(li, state, terms) {
    var item = li._item;
    if (state.line && item.line !== state.line) return false;
    for (var i = 0; i < data.facets.length; i++) {
      var facet = data.facets[i];
      if (state[facet] && item.facets[facet] !== state[facet]) return false;
    }
    return terms.every(function (term) { return li._text.indexOf(term) !== -1; });
  }

  function apply() {
    var state = current();
    var terms = fold(state.q).split(" ").filter(Boolean);
    var shown = 0;
    Array.prototype.forEach.call(ledger.children, function (li) {
      var ok = matches(li, state, terms);
      li.hidden = !ok;
      if (ok) shown++;
    });
    var total = data.items.length;
    if (!total) tally.textContent = "";
    else if (shown === total) tally.textContent = "Showing all " + total;
    else tally.textContent = "Showing " + shown + " of " + total;
    empty.hidden = shown > 0;
    remember(state);
  }

  // Filters live in the hash (#line=games&q=maze) so a filtered shelf can be linked.
  function remember(state) {
    var params = new URLSearchParams();
    Object.keys(state).forEach(function (key) { if (state[key]) params.set(key, state[key]); });
    var hash = params.toString();
    var url = location.pathname + location.search + (hash ? "#" + hash : "");
    if (("#" + hash) !== location.hash && !(hash === "" && location.hash === "")) {
      history.replaceState(null, "", url);
    }
  }

  function restore() {
    var hash = location.hash.slice(1);
    if (hash.indexOf("=") === -1) return;
    var params = new URLSearchParams(hash);
    search.value = params.get("q") || "";
    Object.keys(selects).forEach(function (key) {
      var value = params.get(key) || "";
      var known = Array.prototype.some.call(selects[key].options, function (o) { return o.value === value; });
      selects[key].value = known ? value : "";
    });
  }

  function visibleTitles() {
    return Array.prototype.filter.call(ledger.children, function (li) { return !li.hidden; })
      .map(function (li) { return li.querySelector(".title"); });
  }

  function onKey(event) {
    var target = event.target;
    var typing = target === search || target.tagName === "SELECT";
    if (event.key === "/" && !typing && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      search.focus();
      search.select();
      return;
    }
    if (event.key === "Escape" && target === search && search.value) {
      search.value = "";
      apply();
      return;
    }
    if ((event.key === "ArrowDown" || event.key === "ArrowUp") && !typing) {
      var titles = visibleTitles();
      if (!titles.length) return;
      var li = target.closest && target.closest(".entry");
      var at = li ? titles.indexOf(li.querySelector(".title")) : -1;
      var next = event.key === "ArrowDown" ? at + 1 : at - 1;
      if (at === -1 && event.key === "ArrowUp") return;
      if (next < 0 || next >= titles.length) return;
      event.preventDefault();
      titles[next].focus();
      titles[next].scrollIntoView({ block: "nearest" });
    }
  }

  holdings();
  if (!data.items.length) {
    // An empty shelf says so once, without a filter bar that has nothing to filter.
    empty.querySelector("p").textContent = "Nothing has been made yet.";
    document.getElementById("clear").hidden = true;
    document.getElementById("finder").hidden = true;
  }
  fillSelect(selects.line, data.lines.filter(function (l) { return l.count; }).map(function (l) {
    return l.name;
  }));
  data.facets.forEach(function (facet) { fillSelect(selects[facet], distinct(facet)); });
  var fragment = document.createDocumentFragment();
  data.items.forEach(function (item) { fragment.appendChild(entry(item)); });
  ledger.appendChild(fragment);
  Array.prototype.forEach.call(ledger.querySelectorAll(".frame"), function (frame) {
    scaler.observe(frame);
    nearby.observe(frame);
  });
  restore();
  apply();

  document.getElementById("finder").addEventListener("submit", function (event) {
    event.preventDefault();
  });
  search.addEventListener("input", apply);
  Object.keys(selects).forEach(function (key) { selects[key].addEventListener("change", apply); });
  document.getElementById("clear").addEventListener("click", function () {
    search.value = "";
    Object.keys(selects).forEach(function (key) { selects[key].value = ""; });
    apply();
    search.focus();
  });
  window.addEventListener("hashchange", function () { restore(); apply(); });
  document.addEventListener("keydown", onKey);
})();
