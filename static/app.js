// Tysiacha scoresheet: a little help for thumbs. Every page works without it, and it never
// computes a score: the preview shows what the server's engine says (POST …/hands/preview).
"use strict";

(function () {
  function num(input) {
    if (!input || input.value.trim() === "") return null;
    var n = Number(input.value);
    return Number.isInteger(n) ? n : NaN;
  }

  // − / + buttons next to a number input: shown only when this script runs.
  function setUpSteppers(root) {
    root.querySelectorAll("button[data-step-for]").forEach(function (button) {
      var input = document.getElementById(button.getAttribute("data-step-for"));
      if (!input) return;
      button.hidden = false;
      button.addEventListener("click", function () {
        var step = Number(input.step) || 1;
        var min = input.min === "" ? -Infinity : Number(input.min);
        var max = input.max === "" ? Infinity : Number(input.max);
        var current = num(input);
        var delta = Number(button.getAttribute("data-step")) * step;
        var usual = input.getAttribute("data-usual");  // an empty box that means a score
        var next = current === null || isNaN(current)
          ? (usual !== null ? Number(usual) + delta : isFinite(min) ? min : 0) : current + delta;
        input.value = String(Math.min(max, Math.max(min, next)));
        input.dispatchEvent(new Event("input", { bubbles: true }));
      });
    });
    // The ± key: 15 typed on the numeric keypad (it has no minus) becomes −15, and back.
    root.querySelectorAll("button[data-sign-for]").forEach(function (button) {
      var input = document.getElementById(button.getAttribute("data-sign-for"));
      if (!input) return;
      button.hidden = false;
      button.addEventListener("click", function () {
        var current = num(input);
        if (current === null || isNaN(current) || current === 0) return;
        input.value = String(-current);
        input.dispatchEvent(new Event("input", { bubbles: true }));
      });
    });
  }

  // Quick bids: one tap sets the bid; the pressed one follows the box.
  function setUpQuickBids(root) {
    root.querySelectorAll("[data-quick-for]").forEach(function (row) {
      var input = document.getElementById(row.getAttribute("data-quick-for"));
      if (!input) return;
      var buttons = row.querySelectorAll("button[data-bid]");
      function mark() {
        buttons.forEach(function (b) {
          b.setAttribute("aria-pressed", String(b.getAttribute("data-bid") === input.value.trim()));
        });
      }
      buttons.forEach(function (button) {
        button.addEventListener("click", function () {
          input.value = button.getAttribute("data-bid");
          input.dispatchEvent(new Event("input", { bubbles: true }));
        });
      });
      input.addEventListener("input", mark);
      row.hidden = false;
      mark();
    });
  }

  // The keypad moves on, saving a tap each time (docs/performance.md, "Taps"): once the
  // contract is set (a declarer picked, a quick bid tapped, a bid typed to its third digit) the
  // first empty card-points box of a defender gets the keypad, and once a number cannot grow
  // any more (a third digit would pass 120) the next one. It only moves the keypad: nothing is
  // filled in for the player. A tap on the bid selects it, so the digits typed replace it.
  function setUpPointsAdvance(form) {
    var boxes = Array.prototype.slice.call(form.querySelectorAll("input[data-seat-points]"));
    var bid = form.querySelector("input[name=bid]");
    function declarer() {
      var checked = form.querySelector("input[name=declarer]:checked");
      return checked ? checked.value : null;
    }
    function moveOn(from) {
      var next = boxes.filter(function (b) {
        return b !== from && b.value.trim() === "" && b.getAttribute("data-seat-points") !== declarer() &&
          b.offsetParent !== null;  // a Rospisat' or a redeal hides the boxes: nothing to type
      })[0];
      if (next) next.focus();
    }
    boxes.forEach(function (box) {
      box.addEventListener("input", function () {
        var n = num(box);
        if (n === null || isNaN(n) || n * 10 <= 120 || box.value.trim().length < 2) return;
        moveOn(box);
      });
    });
    form.querySelectorAll("input[name=declarer]").forEach(function (radio) {
      radio.addEventListener("change", function () { moveOn(null); });
    });
    form.querySelectorAll("button[data-bid]").forEach(function (button) {
      button.addEventListener("click", function () { if (declarer() !== null) moveOn(null); });
    });
    if (!bid) return;
    var fresh = false;
    bid.addEventListener("focus", function () { fresh = true; bid.select(); });
    bid.addEventListener("click", function () { if (fresh) bid.select(); fresh = false; });
    bid.addEventListener("input", function (event) {
      if (event.inputType && /^[0-9]{3}$/.test(bid.value.trim()) && declarer() !== null) moveOn(null);
    });
  }

  // Preview (not the scoring): the draft hand goes to the server, which answers with the
  // engine's own result for it; nothing is stored until the form is saved.
  function setUpPreview(form) {
    var out = form.querySelector(".preview");
    var url = form.getAttribute("data-preview-url");
    if (!out || !url) return;
    var timer = null;
    var asked = 0;
    function show(answer) {
      out.classList.remove("made", "missed", "refused");
      out.textContent = "";
      var head = document.createElement("p");
      var label = form.getAttribute("data-preview-label") || "";
      head.textContent = answer.ok ? label + " " + answer.summary : answer.message;
      out.appendChild(head);
      if (!answer.ok) { out.classList.add("refused"); return; }
      if (answer.outcome === "made" || answer.outcome === "missed") out.classList.add(answer.outcome);
      var list = document.createElement("ul");
      answer.seats.forEach(function (line) {
        var item = document.createElement("li");
        item.textContent = line;
        list.appendChild(item);
      });
      out.appendChild(list);
    }
    function ask() {
      var mine = ++asked;
      fetch(url, { method: "POST", body: new FormData(form), credentials: "same-origin",
                   headers: { "Accept": "application/json" } })
        .then(function (r) { return r.json(); })
        .then(function (answer) { if (mine === asked) show(answer); })
        .catch(function () {
          // Offline or logged out: the form still saves; offline.js says why there is no preview.
          form.dispatchEvent(new CustomEvent("preview-failed"));
        });
    }
    function later() { clearTimeout(timer); timer = setTimeout(ask, 250); }
    form.addEventListener("input", later);
    form.addEventListener("change", later);
    // Saved: a preview still to ask would only share a slow link with the save.
    form.addEventListener("submit", function () { clearTimeout(timer); });
    ask();
  }

  // Live sheet. Where the server pushes (data-events-url) one EventSource hears each
  // new version, and an "alive" every few seconds while nothing changes; elsewhere ask whether
  // the match changed (ETag/304 keeps it tiny) every 1.5 s, whether the table plays or thinks: a
  // saved hand is on every phone within 2 s after any idle time (docs/performance.md has what
  // that costs the server). Only while the page is visible; on a change, fetch the live part
  // (data-live-url: the part alone, else the whole page) and swap it in.
  var POLL_MS = 1500;
  function setUpLive(live) {
    var url = live.getAttribute("data-version-url");
    var events = window.EventSource ? live.getAttribute("data-events-url") : null;
    var version = live.getAttribute("data-version");
    // A club night's page asks less often (data-poll-seconds): every player of the night has it open.
    var pollMs = Number(live.getAttribute("data-poll-seconds") || 0) * 1000 || POLL_MS;
    var timer = null;
    var busy = false;
    var source = null;
    var heardOf = null;   // the newest version the stream named
    var silence = null;
    function swap() {
      var part = live.getAttribute("data-live-url") || location.href;
      return fetch(part, { credentials: "same-origin", cache: "no-store" })
        .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
        .then(function (html) {
          var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("live");
          var current = document.getElementById("live");
          if (!fresh || !current) return Promise.reject("no sheet");
          current.replaceWith(fresh);
          live = fresh;
          version = fresh.getAttribute("data-version");
          liveSwapped(current, fresh);
          // A new version with the sheet's newest change the same: someone joined, left or took
          // a seat. Who is who and the members are outside the live part: fetch them too.
          if (fresh.getAttribute("data-change") === current.getAttribute("data-change")) return around();
        });
    }
    function around() {
      var parts = ["seats", "members"].filter(function (id) { return document.getElementById(id); });
      if (!parts.length) return null;
      return fetch(location.href, { credentials: "same-origin", cache: "no-store" })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          var page = html && new DOMParser().parseFromString(html, "text/html");
          parts.forEach(function (id) {
            var fresh = page && page.getElementById(id);
            if (fresh) document.getElementById(id).replaceWith(fresh);
          });
          // The page showed what was waiting for this player ("Anna gave you her seat"): shown here.
          var said = page && page.querySelector("main > [role=status]");
          if (said) {
            var main = document.querySelector("main");
            var before = main.querySelector(":scope > [role=status]");
            if (before) before.replaceWith(said); else main.insertBefore(said, main.firstChild);
          }
        })
        .catch(function () { /* the sheet is current; these boxes follow with the next change */ });
    }
    function poll() {
      if (busy || document.hidden) return Promise.resolve();
      busy = true;
      return fetch(url, { credentials: "same-origin", cache: "no-store",
                          headers: { "If-None-Match": '"' + version + '"' } })
        .then(function (r) { return r.status === 200 ? r.json() : null; })
        .then(function (answer) {
          if (answer && answer.version && answer.version !== version) return swap();
        })
        .then(function () { document.dispatchEvent(new Event("sheet-reached")); })
        .catch(function () {
          // Offline for a moment: ask again later; offline.js says since when the sheet is old.
          document.dispatchEvent(new Event("sheet-unreachable"));
        })
        .then(function () { busy = false; });
    }
    function schedule() { clearTimeout(timer); timer = setTimeout(tick, pollMs); }
    function tick() { poll().then(function () { if (timer !== null) schedule(); }); }
    var tries = 0;
    function catchUp() {  // swap until the page shows the newest version the stream named
      if (busy || document.hidden || !heardOf || heardOf === version) return;
      busy = true;
      swap().then(function () { tries = 0; }, function () {
        tries += 1;  // not there (logged out, no such match) or unreachable: a few more tries
        document.dispatchEvent(new Event("sheet-unreachable"));
      }).then(function () {
        busy = false;
        if (heardOf !== version && tries < 5) setTimeout(catchUp, 1000 * (tries + 1));
      });
    }
    function heard() {  // the server spoke: the sheet is current; 8 s of silence say it may not be
      clearTimeout(silence);
      silence = setTimeout(function () {
        document.dispatchEvent(new Event("sheet-unreachable"));
      }, 8000);
      document.dispatchEvent(new Event("sheet-reached"));
    }
    function listen() {
      if (source || document.hidden) return;
      source = new EventSource(events);
      source.onmessage = function (e) { heard(); heardOf = e.data; catchUp(); };
      source.addEventListener("alive", heard);
      // The stream's time is up: open the next one at once rather than after the browser's
      // pause for a lost connection (a hand saved in between is named by the next one first).
      source.addEventListener("reopen", function () { hush(); listen(); });
      source.onerror = function () {
        if (source && source.readyState === EventSource.CLOSED) {
          // Refused (logged out, or no stream here): ask for the version as before.
          hush();
          events = null;
          start();
        }
      };
    }
    function hush() {
      if (source) source.close();
      source = null;
      clearTimeout(silence);
    }
    function start() {
      if (events) { listen(); return; }
      if (timer === null) schedule();
    }
    function stop() { clearTimeout(timer); timer = null; hush(); }
    document.addEventListener("visibilitychange", function () {
      if (document.hidden) { stop(); } else { if (!events) poll(); start(); }
    });
    window.addEventListener("online", function () {  // back online: catch up at once
      if (events) { hush(); listen(); } else { poll(); }
    });
    if (!document.hidden) start();
  }

  // The watch page and the board (no account, so no offline.js) say when their live
  // updates fail, with the time of the last one that worked; the next that works clears it.
  function setUpStaleLine(line) {
    var since = new Date();
    function show(stale) {
      line.hidden = !stale;
      if (!stale) return;
      var time = since.toLocaleTimeString(document.documentElement.lang || undefined,
                                          { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
      line.textContent = line.getAttribute("data-stale-words").replace("{time}", time);
    }
    document.addEventListener("sheet-reached", function () { since = new Date(); show(false); });
    document.addEventListener("sheet-unreachable", function () { show(true); });
    window.addEventListener("offline", function () { show(true); });
  }

  // After a live update, say what another phone corrected, deleted or restored (the
  // fresh page names its newest change), and clear the messages that no longer apply.
  function liveSwapped(previous, fresh) {
    document.querySelectorAll("ul.flashes").forEach(function (old) { old.remove(); });
    var news = fresh.querySelector(".news");
    var seen = Number(previous.getAttribute("data-change")) || 0;
    if (news && Number(fresh.getAttribute("data-change")) > seen) news.hidden = false;
    setUpToasts(fresh);
    // A script the fresh part names (the won match's static/result.js) is loaded once: parsed
    // from fetched HTML it would never run.
    fresh.querySelectorAll("script[src]").forEach(function (inert) {
      var src = inert.getAttribute("src");
      if (document.querySelector("script[data-loaded='" + src + "']")) return;
      var script = document.createElement("script");
      script.src = src;
      script.setAttribute("data-loaded", src);
      document.head.appendChild(script);
    });
  }

  // "Undo hand n" and "Take it back" stand for the seconds the server gave them.
  function setUpToasts(root) {
    root.querySelectorAll("[data-toast-seconds]").forEach(function (toast) {
      var seconds = Number(toast.getAttribute("data-toast-seconds")) || 0;
      setTimeout(function () { toast.hidden = true; }, seconds * 1000);
    });
  }

  // Tichu: the other team's card points are 100 minus these; a double victory counts none,
  // so its card points are put away while it is ticked (the server ignores them then).
  function setUpRound(form) {
    var points = form.querySelector("[data-card-points]");
    var rest = form.querySelector("output[data-complement-of]");
    var double = form.querySelector("input[name=double_victory]");
    var box = form.querySelector(".card-points");
    function update() {
      var n = num(points);
      if (rest) rest.textContent = n === null || isNaN(n) ? "—" : String(100 - n);
      if (box && double) box.hidden = double.checked;
    }
    form.addEventListener("input", update);
    form.addEventListener("change", update);
    update();
  }

  // Times: the page shows them in UTC and says so; here they become the phone's own time
  // zone, written the way the page's language writes dates.
  function setUpTimes(root) {
    var times = root.querySelectorAll("time[data-local]");
    if (!times.length || typeof Intl === "undefined") return;
    var format;
    try {
      format = new Intl.DateTimeFormat(document.documentElement.lang || undefined,
                                       { dateStyle: "short", timeStyle: "short" });
    } catch (e) { return; }
    times.forEach(function (time) {
      var moment = new Date(time.getAttribute("datetime"));
      if (!isNaN(moment.getTime())) time.textContent = format.format(moment);
    });
    root.querySelectorAll("[data-zone=utc]").forEach(function (n) { n.hidden = true; });
    root.querySelectorAll("[data-zone=local]").forEach(function (n) { n.hidden = false; });
  }

  // Invite: the phone's share sheet (Web Share API) where there is one, else the link copied
  // and said so; where neither works, the link's own target (the written-out link, the QR code).
  function setUpShare(link) {
    var url = link.getAttribute("data-share-url");
    var status = link.parentNode.querySelector("[data-share-status]");
    function say(text) { if (status) status.textContent = text; }
    link.addEventListener("click", function (event) {
      if (navigator.share) {
        event.preventDefault();
        navigator.share({ title: link.getAttribute("data-share-title") || document.title, url: url })
          .catch(function () { /* closed without sharing: nothing to say */ });
      } else if (navigator.clipboard && window.isSecureContext) {
        event.preventDefault();
        navigator.clipboard.writeText(url)
          .then(function () { say(link.getAttribute("data-copied")); })
          .catch(function () { location.hash = link.hash || ""; });
      }
    });
  }

  // Start form: the house rules' words name the barrel's figures of the target and the barrel
  // gap chosen (1880 at 2000; 900 with the barrel 100 below); the page gives each pair's words,
  // as the server writes them, keyed "target/gap".
  function setUpBarrelWords(form) {
    var target = form.querySelector("select[name=target]");
    var gap = form.querySelector("select[name=barrel_gap]");
    function update() {
      var key = (target ? target.value : "") + "/" + (gap ? gap.value : "");
      form.querySelectorAll("[data-by-barrel]").forEach(function (node) {
        var text = JSON.parse(node.getAttribute("data-by-barrel"))[key];
        if (text === undefined) return;  // no barrel plays to that target: the words stay
        if (node.tagName === "OPTION") node.textContent = text;
        else if (node.nextSibling) node.nextSibling.textContent = " " + text;  // a switch's label
      });
    }
    [target, gap].forEach(function (select) { if (select) select.addEventListener("change", update); });
  }

  // Start form: the dump's choices name the score typed for it (the page gives each choice's
  // words with 9999 for the score; an empty box is the usual score).
  function setUpDumpWords(input) {
    var form = input.form;
    function update() {
      var n = num(input);
      var score = n === null || isNaN(n) ? input.getAttribute("data-usual") : String(n);
      form.querySelectorAll("[data-by-dump]").forEach(function (option) {
        option.textContent = option.getAttribute("data-by-dump").split("9999").join(score);
      });
    }
    input.addEventListener("input", update);
    update();
  }

  // Start form: "First dealer" offers the names typed above it, as they are typed ("Player 3"
  // for a seat with no name yet: the page gives that phrase with 9999 for the number).
  function setUpDealerNames(select) {
    var form = select.form;
    var unnamed = select.getAttribute("data-dealer-names");
    function update() {
      Array.prototype.forEach.call(select.options, function (option) {
        var input = form.querySelector("[data-player='" + option.value + "']");
        var name = input ? input.value.trim() : "";
        option.textContent = name || unnamed.replace("9999", String(Number(option.value) + 1));
      });
    }
    form.addEventListener("input", update);
    update();
  }

  // Keep the screen on during a match and on the scoreboard, where the browser allows it (the
  // Screen Wake Lock API; nothing happens where there is none). The browser lets the lock go
  // whenever the page is hidden: it is asked for again each time the page is shown.
  function setUpWakeLock() {
    if (!("wakeLock" in navigator)) return;
    var held = null;
    function ask() {
      if (document.hidden || (held && !held.released)) return;
      navigator.wakeLock.request("screen").then(function (lock) { held = lock; },
                                                 function () { /* not allowed: fine */ });
    }
    document.addEventListener("visibilitychange", ask);
    ask();
  }

  document.addEventListener("DOMContentLoaded", function () {
    setUpSteppers(document);
    setUpTimes(document);
    setUpQuickBids(document);
    setUpToasts(document);
    document.querySelectorAll("form.hand:not(.round)").forEach(setUpPointsAdvance);
    document.querySelectorAll("form[data-preview-url]").forEach(setUpPreview);
    document.querySelectorAll("form.round").forEach(setUpRound);
    document.querySelectorAll("[data-share-url]").forEach(setUpShare);
    document.querySelectorAll("select[data-dealer-names]").forEach(setUpDealerNames);
    var barrel = document.querySelector("form [data-by-barrel]");
    if (barrel) setUpBarrelWords(barrel.form || barrel.closest("form"));
    var dump = document.querySelector("form input[name=dump_at][data-usual]");
    if (dump) setUpDumpWords(dump);
    var live = document.getElementById("live");
    var stale = document.querySelector("[data-stale-words]");
    if (stale && !document.getElementById("offline-words")) setUpStaleLine(stale);
    if (live && live.getAttribute("data-version-url")) setUpLive(live);
    if (document.querySelector("[data-wake]")) setUpWakeLock();
  });

  if ("serviceWorker" in navigator) {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register("/sw.js").catch(function () { /* not offered: fine */ });
    });
  }
})();
