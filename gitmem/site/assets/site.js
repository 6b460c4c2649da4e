// gitmem site: filters and search on the entry list, "/" to search. No network, no eval, no
// HTML built from strings: entries' text is only ever set as textContent.
(function () {
  "use strict";

  // Tokens as gitmem.recall.engine cuts them: letters and digits, joined by _ . - inside
  // identifiers.
  var TOKEN = /[\p{L}\p{N}]+(?:[_.\-]+[\p{L}\p{N}]+)*/gu;
  var COMPOUND = /[_.\-]|[a-z][A-Z]|[A-Z]{2}[a-z]/;
  var CAMEL_PART = /[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+/g;
  var ENDINGS = ["ing", "ed", "es", "s", "ly"];
  var MAX_QUERY_CHARS = 20000;
  var MAX_QUERY_TERMS = 32;

  function has(map, key) {
    return Object.prototype.hasOwnProperty.call(map, key);
  }

  // The terms the engine makes of one word typed in a query, from the index's word map;
  // a word the memory never holds is tried less a common ending, else kept as it is (a term
  // no entry holds: information the memory lacks).
  function termsOfWord(index, word) {
    var key = COMPOUND.test(word) ? word : word.toLowerCase();
    if (has(index.words, key)) return index.words[key];
    if (!COMPOUND.test(word)) return plainTerms(index, word.toLowerCase());
    var parts = [];
    word.split(/[_.\-]+/).forEach(function (piece) {
      var pieces = /[a-z][A-Z]|[A-Z]{2}[a-z]{2}/.test(piece) ? piece.match(CAMEL_PART) : [piece];
      (pieces || []).forEach(function (p) {
        parts = parts.concat(plainTerms(index, p.toLowerCase()));
      });
    });
    return parts;
  }

  // One plain lower-case word: its terms from the map, or less a common ending, or itself.
  function plainTerms(index, lower) {
    if (has(index.words, lower)) return index.words[lower];
    if (has(index.terms, lower) || index.common.indexOf(lower) >= 0) return [lower];
    for (var i = 0; i < ENDINGS.length; i++) {
      var end = ENDINGS[i];
      if (lower.length > end.length + 2 && lower.slice(-end.length) === end) {
        var stemmed = lower.slice(0, -end.length);
        if (has(index.words, stemmed)) return index.words[stemmed];
        if (has(index.terms, stemmed)) return [stemmed];
      }
    }
    return lower.length > 1 && lower.length <= 48 ? [lower] : [];
  }

  // The hits for a query: [[entry number, score], ...], best first, ties by id, as
  // gitmem.recall.engine.Index.search answers without the extra: each matched term adds
  // its weight (idf over the idf of a word in one entry) times its value; the score is that
  // evidence over what the query could reach (at most index.reach); the gate judges the best
  // hit's signals and keeps the hits within relative_floor of the best.
  function search(index, query) {
    var seen = {};
    var terms = [];
    var match;
    TOKEN.lastIndex = 0;
    var text = query.slice(0, MAX_QUERY_CHARS);
    var names = {};
    // the last character before the word but white space, from what lies between it and
    // the word before (looking back over the whole query at each word made a query of
    // stop words, which adds no term, take a second)
    var last = "";
    var end = 0;
    while ((match = TOKEN.exec(text)) !== null && terms.length < MAX_QUERY_TERMS) {
      var word = match[0];
      for (var at = match.index - 1; at >= end; at--) {
        if (!/\s/.test(text.charAt(at))) {
          last = text.charAt(at);
          break;
        }
      }
      end = match.index + word.length;
      var initial = !last || ".?!:".indexOf(last) >= 0;
      last = word.charAt(word.length - 1);
      var named = (/^\p{Lu}/u.test(word) && !initial) ||
        (word.length > 1 && word === word.toUpperCase() && word !== word.toLowerCase()) ||
        /\p{N}/u.test(word);
      termsOfWord(index, word).forEach(function (term) {
        if (named) names[term] = true;
        if (!has(seen, term) && terms.length < MAX_QUERY_TERMS) {
          seen[term] = true;
          terms.push(term);
        }
      });
    }
    var n = index.n;
    if (!n) return [];
    var unit = Math.log(1 + (n - 0.5) / 1.5);
    var reach = 0;
    var weighted = [];
    var counted = [];  // the terms that count towards the reach, as the engine's
    terms.forEach(function (term) {
      if (index.common.indexOf(term) >= 0) return;
      counted.push(term);
      var postings = has(index.terms, term) ? index.terms[term] : null;
      if (!postings) {
        reach += 1;
        return;
      }
      var df = postings.length / 2;
      var weight = Math.log(1 + (n - df + 0.5) / (df + 0.5)) / unit;
      reach += weight;
      weighted.push([weight, postings]);
    });
    if (!weighted.length) return [];
    reach = Math.min(index.reach, reach);
    weighted.sort(function (a, b) { return a[0] - b[0]; });
    var acc = new Map();
    weighted.forEach(function (pair) {
      var weight = pair[0], postings = pair[1];
      for (var i = 0; i < postings.length; i += 2) {
        var doc = postings[i];
        acc.set(doc, (acc.get(doc) || 0) + (postings[i + 1] * weight) / 255);
      }
    });
    var hits = [];
    acc.forEach(function (sum, doc) {
      var score = Math.round(Math.min(1, sum / reach) * 10000) / 10000;
      if (score > 0) hits.push([doc, score]);
    });
    if (!hits.length) return [];
    hits.sort(function (a, b) {
      if (b[1] !== a[1]) return b[1] - a[1];
      var ia = index.docs[a[0]][0], ib = index.docs[b[0]][0];
      return ia < ib ? -1 : ia > ib ? 1 : 0;
    });
    // The gate reads the best score, the share of the query's words in the best entry's
    // title or applies_when, the query's names no entry holds, and the best such share
    // among the first index.heads_of hits (engine.Signals).
    var gate = index.gate;
    var best = hits[0][1];
    function headShare(hit) {
      var head = index.heads[hit[0]];
      var held = counted.filter(function (term) { return head.indexOf(term) >= 0; }).length;
      return counted.length ? held / counted.length : 0;
    }
    var absent = Object.keys(names).filter(function (term) {
      return !has(index.terms, term) && index.common.indexOf(term) < 0;
    }).length;
    var share = headShare(hits[0]);
    var shares = Math.max.apply(null, hits.slice(0, index.heads_of).map(headShare));
    var logit = gate[0] * best + gate[1] * share + gate[2] * absent + gate[4] * shares + gate[3];
    if (logit < 0) return [];
    return hits.filter(function (hit) { return hit[1] >= index.relative_floor * best; });
  }

  function setUpList() {
    var form = document.getElementById("filters");
    var list = document.getElementById("entries");
    if (!form || !list) return;
    var rows = Array.prototype.slice.call(list.children);
    var shown = document.getElementById("shown");
    var controls = {
      q: document.getElementById("f-q"),
      type: document.getElementById("f-type"),
      tag: document.getElementById("f-tag"),
      source: document.getElementById("f-source"),
      status: document.getElementById("f-status"),
      stale: document.getElementById("f-stale")
    };
    var params = new URLSearchParams(window.location.search);
    ["q", "type", "tag", "source", "status"].forEach(function (name) {
      var value = params.get(name);
      if (value === null) return;
      var control = controls[name];
      if (control.tagName === "SELECT") {
        var known = Array.prototype.some.call(control.options, function (o) {
          return o.value === value;
        });
        if (known) control.value = value;
      } else {
        control.value = value;
      }
    });
    if (params.get("stale") === "1") controls.stale.checked = true;

    function apply() {
      var query = controls.q.value.trim();
      var ranked = null;
      var scores = {};
      if (query && window.GITMEM_SEARCH) {
        ranked = search(window.GITMEM_SEARCH, query);
        ranked.forEach(function (hit, place) {
          scores[hit[0]] = [place, hit[1]];
        });
      }
      var visible = [];
      rows.forEach(function (row) {
        var d = row.dataset;
        var ok =
          (!controls.type.value || d.type === controls.type.value) &&
          (!controls.status.value || d.status === controls.status.value) &&
          (!controls.source.value || d.source === controls.source.value) &&
          (!controls.tag.value || d.tags.split("\u001f").indexOf(controls.tag.value) >= 0) &&
          (!controls.stale.checked || d.stale === "1");
        var score = row.querySelector(".score");
        if (ranked !== null) {
          var hit = d.n !== undefined && has(scores, d.n) ? scores[d.n] : null;
          ok = ok && hit !== null;
          if (hit !== null) {
            score.textContent = "score " + hit[1].toFixed(2);
            score.hidden = false;
            row.dataset.place = String(hit[0]);
          }
        } else {
          score.hidden = true;
          score.textContent = "";
        }
        row.hidden = !ok;
        if (ok) visible.push(row);
      });
      if (ranked !== null) {
        visible.sort(function (a, b) { return Number(a.dataset.place) - Number(b.dataset.place); });
      } else {
        visible = rows.filter(function (row) { return !row.hidden; });
      }
      visible.forEach(function (row) { list.appendChild(row); });
      var count = visible.length;
      var noun = count === 1 ? "entry" : "entries";
      shown.textContent = ranked !== null
        ? count + " " + noun + " match, best first" + (count ? "" : ": no admitted entry matches the search")
        : count + " " + noun;
    }

    form.addEventListener("input", apply);
    form.addEventListener("change", apply);
    form.addEventListener("submit", function (event) { event.preventDefault(); apply(); });
    apply();
  }

  function setUpKeys() {
    document.addEventListener("keydown", function (event) {
      if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
      var target = event.target;
      if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
      var box = document.getElementById("f-q");
      if (box) {
        event.preventDefault();
        box.focus();
      } else {
        var link = document.querySelector('nav a[href$="entries.html"]');
        if (link) window.location.href = link.getAttribute("href");
      }
    });
  }

  window.gitmemSearch = search;
  document.addEventListener("DOMContentLoaded", function () {
    setUpList();
    setUpKeys();
  });
})();
