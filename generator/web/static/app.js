// sheetsmith serve: the little JavaScript the pages use. Every page also works without it.
(function () {
  "use strict";

  function debounce(fn, ms) {
    var t = null;
    return function () { clearTimeout(t); var args = arguments; t = setTimeout(function () { fn.apply(null, args); }, ms); };
  }

  // Buttons that delete something ask first.
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest("[data-confirm]");
    if (b && !window.confirm(b.getAttribute("data-confirm"))) { ev.preventDefault(); }
  });

  // A photo form, once sent, shows the photo's place in the server's line until the answer comes.
  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.hasAttribute || !form.hasAttribute("data-line")) { return; }
    var ticket = form.querySelector("input[name=ticket]");
    var status = form.querySelector(".line-status");
    if (!ticket || !status) { return; }
    ticket.value = Date.now().toString(36) + Math.random().toString(36).slice(2, 12);
    status.hidden = false;
    status.textContent = "Sending the photo…";
    var ask = function () {
      fetch("/photos/line?ticket=" + encodeURIComponent(ticket.value), { credentials: "same-origin" })
        .then(function (r) { return r.json(); })
        .then(function (r) {
          if (!r.known) { return; }
          if (r.reading) { status.textContent = "Reading the photo…"; return; }
          status.textContent = r.ahead === 0 ? "Your photo is next (about " + r.wait_s + " s)"
            : r.ahead + " photo" + (r.ahead === 1 ? "" : "s") + " ahead of yours (about " + r.wait_s + " s)";
        })
        .catch(function () { /* the answer is on its way */ });
    };
    setInterval(ask, 1000);
  });

  // ---------------------------------------------------------------- the layout editor
  var code = document.getElementById("code");
  if (code) {
    var back = document.getElementById("code-back");
    var img = document.getElementById("preview-img");
    var box = document.getElementById("preview");
    var messages = document.getElementById("messages");
    var paper = document.getElementById("paper");
    var form = document.getElementById("editor-form");
    var bad = {};
    var lastUrl = null;

    var esc = function (s) { return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"); };
    var paintBack = function () {
      var lines = code.value.split("\n");
      back.innerHTML = lines.map(function (ln, i) {
        var cls = bad[i + 1] ? ' class="' + bad[i + 1] + '"' : "";
        return "<span" + cls + ">" + (esc(ln) || " ") + "</span>";
      }).join("\n") + "\n";
      back.scrollTop = code.scrollTop; back.scrollLeft = code.scrollLeft;
    };
    var goTo = function (line, col) {
      var lines = code.value.split("\n"), pos = 0;
      for (var i = 0; i < line - 1 && i < lines.length; i++) { pos += lines[i].length + 1; }
      var end = pos + (lines[line - 1] || "").length;
      code.focus();
      code.setSelectionRange(pos + Math.max(0, (col || 1) - 1), end);
      var lh = parseFloat(getComputedStyle(code).lineHeight) || 18;
      code.scrollTop = Math.max(0, (line - 4) * lh);
    };
    var show = function (r) {
      bad = {};
      var html = r.ok ? '<p class="ok">✓ ' + esc(r.title || "") + ": " + esc(r.summary || "") + "</p>" : "";
      html += '<ul class="problems">';
      r.problems.forEach(function (p) {
        if (p.line) { bad[p.line] = p.severity === "error" ? "err" : (bad[p.line] || "warn"); }
        var where = p.line ? "line " + p.line + (p.col ? ", col " + p.col : "") : "";
        html += '<li class="' + p.severity + '" data-line="' + p.line + '" data-col="' + p.col + '"><span class="where">' +
          where + "</span> " + esc(p.message) + "</li>";
      });
      messages.innerHTML = html + "</ul>";
      paintBack();
      if (r.svg) {
        if (lastUrl) { URL.revokeObjectURL(lastUrl); }
        lastUrl = URL.createObjectURL(new Blob([r.svg], { type: "image/svg+xml" }));
        img.src = lastUrl;
        box.classList.remove("stale");
      } else {
        box.classList.add("stale");
      }
    };
    var seq = 0;
    var refresh = debounce(function () {
      var mine = ++seq;
      var body = new FormData();
      body.append("text", code.value);
      body.append("paper", paper.value);
      box.classList.add("busy");
      fetch("/editor/preview", { method: "POST", body: body, credentials: "same-origin" })
        .then(function (res) { return res.json(); })
        .then(function (r) { if (mine === seq) { show(r); } })
        .catch(function () {})
        .then(function () { if (mine === seq) { box.classList.remove("busy"); } });
    }, 400);
    code.addEventListener("input", function () { paintBack(); refresh(); });
    code.addEventListener("scroll", function () { back.scrollTop = code.scrollTop; back.scrollLeft = code.scrollLeft; });
    paper.addEventListener("change", refresh);
    messages.addEventListener("click", function (ev) {
      var li = ev.target.closest("li[data-line]");
      if (li && +li.getAttribute("data-line")) { goTo(+li.getAttribute("data-line"), +li.getAttribute("data-col")); }
    });
    document.getElementById("preview-button").addEventListener("click", function (ev) { ev.preventDefault(); refresh(); });
    Array.prototype.forEach.call(messages.querySelectorAll("li[data-line]"), function (li) {
      var n = +li.getAttribute("data-line");
      if (n) { bad[n] = li.classList.contains("error") ? "err" : "warn"; }
    });
    paintBack();
    form.setAttribute("data-ready", "1");
  }

  // ---------------------------------------------------------------- Flip 7: scores while tapping
  var round = document.getElementById("round-form");
  if (round) {
    var update = debounce(function () {
      fetch(round.getAttribute("data-preview"), { method: "POST", body: new FormData(round), credentials: "same-origin" })
        .then(function (res) { return res.json(); })
        .then(function (r) {
          Object.keys(r.players).forEach(function (i) {
            var p = r.players[i];
            var s = document.getElementById("score-" + i);
            s.textContent = p.bust ? "bust · 0" : (p.score === null || p.score === undefined ? "" : p.score + " pts");
            s.className = "round-score" + (p.problems.length ? " bad" : "");
            var fl = round.querySelector('input[name="f' + i + '"]').parentNode;
            fl.classList.toggle("lit", !!p.flip7);
            document.getElementById("problems-" + i).innerHTML = p.problems.map(function (m) {
              return '<p class="cell-problem">' + m.replace(/</g, "&lt;") + "</p>";
            }).join("");
          });
          var rp = r.round_problems.concat(r.error || []);
          document.getElementById("round-problems").innerHTML = rp.map(function (m) {
            return '<p class="message">' + m.replace(/</g, "&lt;") + "</p>";
          }).join("");
          round.setAttribute("data-previewed", String(Date.now()));
        })
        .catch(function () {});
    }, 120);
    round.addEventListener("change", function (ev) {
      var t = ev.target;
      var m = /^([pbf])(\d+)$/.exec(t.name || "");
      if (m && t.checked) {
        if (m[1] === "b") {  // bust: the cards no longer count
          Array.prototype.forEach.call(round.querySelectorAll('input[name="p' + m[2] + '"], input[name="f' + m[2] + '"]'),
            function (x) { x.checked = false; });
        } else {
          var b = round.querySelector('input[name="b' + m[2] + '"]');
          if (b) { b.checked = false; }
        }
      }
      update();
    });
    update();
  }

  // ---------------------------------------------------------------- Flip 7 tick pads: a name box per photo
  var padPhotos = document.getElementById("pad-photos");
  var padNames = document.getElementById("pad-names");
  if (padPhotos && padNames) {
    padPhotos.addEventListener("change", function () {
      var kept = Array.prototype.map.call(padNames.querySelectorAll("input"), function (x) { return x.value; });
      padNames.textContent = "";
      Array.prototype.forEach.call(padPhotos.files, function (file, k) {
        var label = document.createElement("label");
        label.textContent = "Player of photo " + (k + 1) + " ";
        var small = document.createElement("small");
        small.textContent = "(" + file.name + ")";
        label.appendChild(small);
        var input = document.createElement("input");
        input.name = "player";
        input.maxLength = 30;
        input.placeholder = "Player " + (k + 1);
        input.value = kept[k] || "";
        input.autocomplete = "off";
        label.appendChild(input);
        padNames.appendChild(label);
      });
      padNames.hidden = padPhotos.files.length === 0;
      document.getElementById("pad-list").hidden = padPhotos.files.length > 0;
    });
  }

  // ---------------------------------------------------------------- All In: tap a field to correct it
  var picker = document.getElementById("picker");
  var readback = document.getElementById("readback");
  if (picker && readback && typeof picker.showModal === "function") {
    var field = document.getElementById("picker-field");
    readback.addEventListener("click", function (ev) {
      var a = ev.target.closest("a.field");
      if (!a) { return; }
      ev.preventDefault();
      var kind = a.getAttribute("data-kind");
      field.value = a.getAttribute("data-field");
      document.getElementById("picker-title").textContent = a.getAttribute("data-field");
      document.getElementById("picker-reason").textContent = a.getAttribute("data-reason") || "";
      picker.querySelector(".pick-cards").hidden = kind !== "cell";
      picker.querySelector(".pick-chips").hidden = kind !== "chips";
      document.getElementById("picker-empty").hidden = kind !== "cell";
      Array.prototype.forEach.call(picker.querySelectorAll("input[type=radio]"), function (x) { x.checked = false; });
      picker.showModal();
    });
    document.getElementById("picker-cancel").addEventListener("click", function () { picker.close(); });
  }
})();
