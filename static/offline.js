// Tysiacha scoresheet: never lose a hand to a bad connection (docs/offline.md).
// A saved hand is written to this phone's IndexedDB before anything else happens, shown on the
// sheet as waiting, and sent in order (with its expected_hand and a CSRF token of now: the
// form's own, or one fetched when it goes out) when the server answers again. The server's
// answer is the truth: a conflict or a refusal is shown, never settled here. Like app.js, this
// file never computes a score.
"use strict";

(function () {
  var DB = "tysiacha-offline";
  var STORE = "hands";
  var PAGES = "tysiacha-pages-1";  // static/sw.js keeps the sheets there
  var OWNER = "tysiacha-offline-account";  // localStorage: whose sheets and hands these are
  var ENDING = "tysiacha-ending";            // sessionStorage: this account is being deleted
  var words = {};
  var user = null;     // the username, for the words
  var account = null;  // the account's id: the hands and kept sheets on this phone are its own
  var recorded = [];   // hands sent from this page, shown as recorded until the sheet has them
  var sending = null;  // the id of the hand on its way

  // ---- The queue: one IndexedDB store, in the order the hands were saved -------------------

  // One connection per page, opened at the first use: a save on a slow phone waits for no
  // further opening. Let go when a newer version asks or the browser closes it, and opened
  // again when next needed.
  var opened = null;
  var connection = null;
  function letGo(db) {
    if (connection !== db) return;
    connection = null;
    opened = null;
  }
  function open() {
    if (!opened) {
      opened = new Promise(function (resolve, reject) {
        var request = indexedDB.open(DB, 1);
        request.onupgradeneeded = function () {
          request.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
        };
        request.onsuccess = function () {
          var db = request.result;
          connection = db;
          db.onversionchange = function () { db.close(); letGo(db); };
          db.onclose = function () { letGo(db); };
          resolve(db);
        };
        request.onerror = function () { opened = null; reject(request.error); };
      });
    }
    return opened;
  }

  function run(mode, work, again) {
    return open().then(function (db) {
      var tx;
      try {
        tx = db.transaction(STORE, mode);
      } catch (e) {
        // Closed before its event came: open once more (a hand sent must still be dropped).
        if (again || e.name !== "InvalidStateError") throw e;
        letGo(db);
        return run(mode, work, true);
      }
      return new Promise(function (resolve, reject) {
        var result = work(tx.objectStore(STORE));
        tx.oncomplete = function () { resolve(result && "result" in result ? result.result : result); };
        tx.onerror = function () { reject(tx.error); };
        tx.onabort = function () { reject(tx.error); };
      });
    });
  }

  function everything() {
    return run("readonly", function (store) { return store.getAll(); }).then(function (all) {
      return all.sort(function (a, b) { return a.id - b.id; });
    });
  }

  // A hand of this account (hands kept before accounts were told apart by id: by username).
  function isMine(e) {
    return e.account ? e.account === account : e.user === user;
  }

  function waitingHands() {
    return everything().then(function (all) { return all.filter(isMine); });
  }

  function keep(entry) { return run("readwrite", function (store) { return store.put(entry); }); }
  function drop(id) { return run("readwrite", function (store) { return store["delete"](id); }); }
  function dropAll(keep) {
    return everything().then(function (all) {
      return Promise.all(all.filter(function (e) { return !(keep && keep(e)); })
        .map(function (e) { return drop(e.id); }));
    });
  }

  // Nothing of an account stays on the phone once it ends here (or another account logs in):
  // its waiting hands and the sheets kept for offline use.
  function forgetAll() {
    var forget = [dropAll().catch(function () {})];
    if (window.caches) forget.push(caches["delete"](PAGES).catch(function () {}));
    if (navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage({ type: "forget" });
    }
    try { localStorage.removeItem(OWNER); } catch (e) { /* storage refused: nothing kept */ }
    return Promise.all(forget);
  }

  function owner() {
    try { return JSON.parse(localStorage.getItem(OWNER) || "null"); } catch (e) { return null; }
  }

  // The phone's account changed (another player logged in after a session ran out, or the
  // data are from before the phone noted whose they are): the earlier account's hands and kept
  // sheets are dropped, never shown to this one. The same account logging in again keeps them.
  function claim() {
    var before = owner();
    try {
      localStorage.setItem(OWNER, JSON.stringify({ account: account, user: user }));
    } catch (e) { /* storage refused: nothing can be kept either */ }
    if (before && before.account === account) return Promise.resolve();
    var forget = [dropAll(isMine)];
    if (window.caches) forget.push(caches["delete"](PAGES));
    return Promise.all(forget);
  }

  function matchOf(path) {
    var m = /^\/matches\/([^/]+)/.exec(path);
    return m ? m[1] : null;
  }

  // Later hands of a match after a conflict was settled: numbered on from `start`.
  function renumber(match, afterId, start) {
    return waitingHands().then(function (all) {
      var next = start;
      return Promise.all(all.filter(function (e) {
        return e.match === match && e.kind === "add" && e.id > afterId;
      }).map(function (e) {
        e.number = next++;
        return keep(e);
      }));
    });
  }

  // ---- The next hand: its number and who deals it --------------------------------------------
  // The server names the next hand and its dealer on the sheet's banner and on the hand form
  // (with each seat's deal sentence, in the page's language). Offline, the phone goes on from
  // the newest of those it knows (the form kept for offline use may be older than the sheet it
  // last heard of) and past the hands waiting on it: after every hand but a redeal the next
  // seat deals (RULES.md §6). Whether the server agrees is its to say when the hand goes out.

  function dealOf(el, handName, dealerName) {
    var hand = Number(el.getAttribute(handName));
    var dealer = Number(el.getAttribute(dealerName));
    var deals = null;
    try { deals = JSON.parse(el.getAttribute("data-deals") || "null"); } catch (e) { deals = null; }
    if (!hand || isNaN(dealer) || !deals || !deals.length) return null;
    return { hand: hand, dealer: dealer, deals: deals };
  }

  function isRedeal(entry) {
    return entry.fields.some(function (f) { return f[0] === "kind" && f[1] === "redeal"; });
  }

  function fieldOf(entry, name) {  // a kept field's value ("" when the form had none)
    var found = entry.fields.filter(function (f) { return f[0] === name; })[0];
    return found ? found[1] : "";
  }

  // The hand after `deal` and the hands of this match waiting on the phone that follow it.
  function dealAfter(deal, entries, match) {
    var adds = entries.filter(function (e) {
      return e.match === match && e.kind === "add" && e.state === "waiting";
    }).sort(function (a, b) { return a.number - b.number || a.id - b.id; });
    var hand = deal.hand;
    var dealer = deal.dealer;
    adds.forEach(function (e) {
      if (e.number !== hand) return;  // taken meanwhile, or out of order: the server will say
      hand += 1;
      if (!isRedeal(e)) dealer = (dealer + 1) % deal.deals.length;
    });
    return { hand: hand, dealer: dealer, deals: deal.deals };
  }

  // The next hand as the sheet this phone last kept says it (the copy static/sw.js keeps of
  // every version the sheet heard of), or null.
  function keptSheetDeal(match) {
    if (!window.caches) return Promise.resolve(null);
    return caches.open(PAGES).then(function (cache) {
      return cache.match("/matches/" + match);
    }).then(function (hit) {
      return hit ? hit.text() : null;
    }).then(function (html) {
      if (!html) return null;
      var banner = new DOMParser().parseFromString(html, "text/html")
        .querySelector("#live .banner[data-next-hand]");
      return banner ? dealOf(banner, "data-next-hand", "data-next-dealer") : null;
    }).catch(function () { return null; });
  }

  // Not in touch with the server: offline, or this page is the copy kept for offline use and
  // the server has not answered since (the sheet's updates say when it does: "sheet-reached").
  var unreachable = document.documentElement.hasAttribute("data-kept-at");
  function cutOff() {
    return !navigator.onLine || unreachable;
  }

  // ---- Saving: the hand form --------------------------------------------------------------

  function summaryOf(form) {
    var parts = [];
    form.querySelectorAll("label.choice").forEach(function (label) {
      var input = label.querySelector("input");
      if (input && input.checked && input.name !== "kind") parts.push(label.textContent.trim());
    });
    var bid = form.querySelector("input[name=bid]");
    if (bid && bid.value.trim()) parts.push(bid.value.trim());
    var kind = form.querySelector("input[name=kind]:checked");
    if (kind && kind.value !== "played") {
      parts.unshift(kind.closest("label").textContent.trim());
    }
    return parts.join(" · ");
  }

  function fieldsOf(form) {
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrf_token") fields.push([name, String(value)]);
    });
    return fields;
  }

  function setUpForm(form) {
    var path = location.pathname;
    var match = matchOf(path);
    var adding = /\/hands\/new$/.test(path);
    var queuedId = Number((/#queued=(\d+)/.exec(location.hash) || [])[1]) || null;
    var expected = form.querySelector("input[name=expected_hand]");
    var shown = expected ? Number(expected.value) : null;

    var own = adding ? dealOf(form, "data-hand", "data-dealer") : null;

    // This form for the hand after the newest sheet this phone knows and the hands waiting on
    // it (the page may be the copy kept for offline use, made for an earlier hand): its number,
    // who deals, and with four at the table whose boxes it shows.
    function renumberForm(next) {
      if (!expected || (next.hand === shown && next.dealer === own.dealer)) return;
      [document.querySelector("h1"), form.querySelector("button[type=submit]")].forEach(function (el) {
        if (el) el.textContent = el.textContent.replace(String(shown), String(next.hand));
      });
      document.title = document.title.replace(String(shown), String(next.hand));
      expected.value = String(next.hand);
      form.setAttribute("data-hand", String(next.hand));
      form.setAttribute("data-dealer", String(next.dealer));
      var deal = document.querySelector(".form-deal, h1 + p");
      if (deal) {
        var note = cutOff() && words.formOffline ? " " + words.formOffline : "";
        deal.textContent = next.deals[next.dealer] + note;
      }
      var four = Boolean(form.querySelector(".sitting-out"));  // the dealer sits out
      form.querySelectorAll(four ? "[data-seat]" : "none").forEach(function (el) {
        var out = Number(el.getAttribute("data-seat")) === next.dealer;
        el.hidden = el.classList.contains("sitting-out") ? !out : out;
      });
      form.querySelectorAll("[data-seat-choice]").forEach(function (el) {
        var out = Number(el.getAttribute("data-seat-choice")) === next.dealer;
        el.hidden = out;
        if (out) el.querySelector("input").checked = false;
      });
      shown = next.hand;
    }

    Promise.all([
      waitingHands(),
      own && cutOff() ? keptSheetDeal(match) : null
    ]).then(function (both) {
      var mine = both[0].filter(function (e) { return e.match === match; });
      var again = queuedId && mine.filter(function (e) { return e.id === queuedId; })[0];
      if (again) { fill(form, again); return; }
      if (!own) return;
      var sheet = both[1];
      var base = sheet && sheet.hand > own.hand && sheet.deals.length === own.deals.length ? sheet : own;
      renumberForm(dealAfter({ hand: base.hand, dealer: base.dealer, deals: own.deals }, mine, match));
    }).catch(function () { /* no IndexedDB: the form still posts */ });

    var saving = false;  // a second tap on save while the first is kept: the same hand
    form.addEventListener("submit", function (event) {
      if (form.hasAttribute("data-post-as-page")) return;
      event.preventDefault();
      if (saving) return;
      saving = true;
      everything().then(function (all) {
        // At most `limit` hands on the phone: they are all this account's (claim()).
        var limit = Number(words.limit) || 100;
        var again = queuedId && all.filter(function (e) { return e.id === queuedId; })[0];
        if (!again && all.length >= limit) { saving = false; refuse(form, words.full); return null; }
        var entry = again || { user: user, match: match, savedAt: new Date().toISOString() };
        entry.account = account;
        entry.kind = adding ? "add" : "correct";
        entry.action = path;
        entry.number = adding ? Number(expected && expected.value) : Number(path.split("/")[4]);
        entry.fields = fieldsOf(form);
        entry.summary = summaryOf(form);
        entry.state = "waiting";
        entry.message = "";
        return keep(entry).then(function (id) {
          entry.id = id;
          if (again && adding) return renumber(match, entry.id, entry.number + 1).then(function () { return entry; });
          return entry;
        });
      }).then(function (entry) {
        if (!entry) return;
        if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(function () {});
        if (!navigator.onLine) { toSheet(match); return; }
        // Sent with the others waiting, in order, with the form's own token: no round trip for
        // a fresh one on a slow connection. If the server refuses it (this phone logged out
        // and in since the form was made, say) flush() fetches one and sends again.
        var own = form.querySelector("input[name=csrf_token]");
        return (flushing || Promise.resolve()).then(function () {
          return flush(own && own.value);
        }).then(function (outcome) {
          if (outcome.refused && outcome.refused.id === entry.id) {
            // Online and refused: the page shows why, next to the field, as it always did.
            return drop(entry.id).then(function () {
              form.setAttribute("data-post-as-page", "");
              HTMLFormElement.prototype.submit.call(form);
            });
          }
          toSheet(match);
        });
      }).catch(function () {
        // No IndexedDB at all (a private window of some browsers): post the page as before.
        form.setAttribute("data-post-as-page", "");
        HTMLFormElement.prototype.submit.call(form);
      });
    });

    // The preview needs the server: offline it says so instead of showing old numbers.
    var preview = form.querySelector(".preview");
    function cannotPreview() {
      if (!preview || !words.previewOffline) return;
      preview.classList.remove("made", "missed", "refused");
      preview.textContent = "";
      var p = document.createElement("p");
      p.className = "offline-preview";
      p.textContent = words.previewOffline;
      preview.appendChild(p);
    }
    form.addEventListener("preview-failed", cannotPreview);
    form.addEventListener("input", function () { if (!navigator.onLine) cannotPreview(); });
    form.addEventListener("change", function () { if (!navigator.onLine) cannotPreview(); });
    window.addEventListener("offline", cannotPreview);
    window.addEventListener("online", function () {
      form.dispatchEvent(new Event("change", { bubbles: true }));  // app.js asks again
    });
    if (!navigator.onLine) cannotPreview();
  }

  // A waiting hand back in its form ("add as the next hand", "correct it again"): the page's
  // own fields (the new deal, the current version) stay; the player's entries come back.
  function fill(form, entry) {
    var skip = { expected_hand: true, version: true, uid: true };
    var values = {};
    entry.fields.forEach(function (f) {
      if (!skip[f[0]]) (values[f[0]] = values[f[0]] || []).push(f[1]);
    });
    form.querySelectorAll("input, select, textarea").forEach(function (input) {
      if (skip[input.name] || input.name === "csrf_token" || !input.name) return;
      // the seat out of this hand (four at the table) takes nothing, whatever the kept hand had
      var given = input.closest("[hidden]") ? [] : values[input.name] || [];
      if (input.type === "radio" || input.type === "checkbox") {
        input.checked = given.indexOf(input.value) >= 0;
      } else if (input.type !== "hidden" && input.type !== "submit") {
        input.value = given.length ? given[0] : "";
      }
    });
    form.dispatchEvent(new Event("change", { bubbles: true }));  // app.js previews it again
  }

  function refuse(form, message) {
    form.dispatchEvent(new Event("change", { bubbles: true }));  // the preview app.js let go
    var box = form.querySelector(".offline-refusal");
    if (!box) {
      box = document.createElement("p");
      box.className = "form-errors offline-refusal";
      box.setAttribute("role", "alert");
      form.insertBefore(box, form.firstChild);
    }
    box.textContent = message;
  }

  function toSheet(match) { location.assign("/matches/" + match); }

  // ---- Sending, in order ----------------------------------------------------------------

  // The log-in page came instead of an answer: "ended" if it says the server ended this
  // phone's session (the waiting hands can then never go out: the next page drops them, see
  // setUpLoggedOut), else "login" (the session only ran out: logging in again sends them).
  function loggedOut(r) {
    return r.text().then(function (page) {
      return page.indexOf("data-session-ended") >= 0 ? "ended" : "login";
    }, function () { return "login"; }).then(function (why) { return Promise.reject(why); });
  }

  function token() {
    return fetch("/csrf-token", { credentials: "same-origin", cache: "no-store",
                                  headers: { "Accept": "application/json" } })
      .then(function (r) {
        if (r.redirected || r.status === 401) return loggedOut(r);
        return r.ok ? r.json() : Promise.reject("later");
      })
      .then(function (answer) { return answer.csrf_token; });
  }

  // Our server answers a kept hand in JSON (scoresheet/queued.py); anything else (a Wi-Fi
  // sign-in page, a proxy) is not its word on the hand: null.
  function answerOf(r) {
    var type = r.headers.get("Content-Type") || "";
    if (type.indexOf("application/json") !== 0) return Promise.resolve(null);
    return r.json().catch(function () { return null; });
  }

  // One hand out: "sent", "conflict", "refused" or "gone" (kept, for the player to settle),
  // or a rejection: "login" (log in again), "csrf" (the token was refused: fetch another),
  // "later" (the hand keeps waiting and goes out on the next try).
  function sendOne(entry, csrf) {
    sending = entry.id;
    render();
    return csrf.then(function (csrf) {
      var body = new URLSearchParams();
      entry.fields.forEach(function (f) {
        if (!(f[0] === "expected_hand" && entry.kind === "add")) body.append(f[0], f[1]);
      });
      if (entry.kind === "add") body.append("expected_hand", String(entry.number));
      body.append("csrf_token", csrf);
      return fetch(entry.action, { method: "POST", body: body, credentials: "same-origin",
                                   headers: { "Accept": "application/json" } });
    }).then(function (r) {
      // Logged out meanwhile: the page form's login_required sends the phone to log in.
      if (r.redirected || r.status === 401) return loggedOut(r);
      return answerOf(r).then(function (answer) {
        if (!answer) return Promise.reject("later");
        if (r.status === 201) {
          recorded.push({ match: entry.match, number: answer.number, summary: entry.summary });
          return drop(entry.id).then(function () { return "sent"; });
        }
        if (r.status === 400 && answer.csrf) return Promise.reject("csrf");
        if (r.status === 404) {
          // The match or the hand a correction was for is gone (another phone deleted it):
          // the player can only drop it, and it must not hold back any other match's hands.
          entry.state = "gone";
          entry.message = (answer.deleted && answer.message) || words.gone || "";
        } else if (r.status === 409) {
          entry.state = "conflict";
          entry.message = answer.message || "";
        } else if (r.status === 422 || r.status === 400 || r.status === 413) {
          // The rules (or the server) refuse the hand as typed: sending it again cannot help.
          entry.state = "refused";
          entry.message = answer.message || "";
        } else {
          // 403, 408, 429, 5xx: nothing said about the hand itself; it is sent again later.
          return Promise.reject("later");
        }
        entry.next = r.status === 409 ? answer.next || null : null;
        entry.closed = r.status === 409 && answer.closed === true;  // the match takes nothing more
        return keep(entry).then(function () { return entry.state; });
      });
    }, function (why) {
      return Promise.reject(why === "login" || why === "ended" ? why : "later");
    });
  }

  var flushing = null;

  // Every waiting hand of this player, oldest first; a match whose hand was not sent holds
  // its later hands back until the player settles it. The CSRF token is the one the form just
  // saved carries (`formToken`), or else fetched now, when the hands go out (GET /csrf-token);
  // never one kept from when they were typed. A token the server refuses (the phone logged out
  // meanwhile) is fetched again once.
  function flush(formToken) {
    if (flushing) return flushing;
    var outcome = { sent: 0, refused: null, stopped: null };
    var fresh = formToken ? Promise.resolve(formToken) : null;
    function tokenNow() {
      if (!fresh) fresh = token();
      return fresh;
    }
    function send(entry, retried) {
      return sendOne(entry, tokenNow()).catch(function (why) {
        if (why !== "csrf") return Promise.reject(why);
        if (retried) return Promise.reject("later");
        fresh = null;
        return send(entry, true);
      });
    }
    function work() {
      return waitingHands().then(function (all) {
        var held = {};
        return all.reduce(function (chain, entry) {
          return chain.then(function () {
            if (outcome.stopped) return;
            if (entry.state !== "waiting" || held[entry.match]) { held[entry.match] = true; return; }
            return send(entry, false).then(function (result) {
              if (result === "sent") { outcome.sent += 1; return; }
              held[entry.match] = true;
              if (result === "refused") outcome.refused = entry;
            }, function (why) { outcome.stopped = why; });
          });
        }, Promise.resolve());
      });
    }
    var locked = navigator.locks && navigator.locks.request
      ? navigator.locks.request("tysiacha-queue", work) : work();
    flushing = locked.then(function () { return outcome; }, function () { return outcome; })
      .then(function (result) {
        flushing = null;
        sending = null;
        loginNeeded = result.stopped === "login" || result.stopped === "ended" ? result.stopped : null;
        render();
        return result;
      });
    return flushing;
  }

  var loginNeeded = null;  // "login" or "ended" (loggedOut) once a send found the phone logged out

  // ---- The sheet: waiting hands in their place, the offline line ----------------------------

  // The ids of a match's waiting entries behind one to settle (a conflict, a refusal, a gone
  // one): they go out only after it, in order (flush's `held`), so the sheet says so.
  function heldBehind(entries) {
    var held = {};
    entries.reduce(function (blocked, e) {
      if (blocked && e.state === "waiting") held[e.id] = true;
      return blocked || e.state !== "waiting";
    }, false);
    return held;
  }

  function stateWord(entry, held) {
    if (entry.id === sending) return words.sending;
    if (entry.state === "waiting") return held[entry.id] ? words.held : words.waiting;
    return words.notSent;
  }

  function button(label, className, action) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = className;
    b.textContent = label;
    b.addEventListener("click", action);
    return b;
  }

  function settle(entry) {
    var box = document.createElement("div");
    box.className = "queued-choice actions";
    var message = document.createElement("p");
    message.className = "queued-message";
    message.textContent = entry.message;
    box.appendChild(message);
    // A correction's form is asked for by the hand it meant (its uid): the server sends it to
    // that hand's number now, never to the hand that took its number meanwhile.
    var formUrl = entry.kind === "add" ? "/matches/" + entry.match + "/hands/new"
      : entry.action + "?uid=" + encodeURIComponent(fieldOf(entry, "uid"));
    var label = entry.state === "refused" ? words.openForm
      : entry.kind === "add" ? words.addNext : words.correctAgain;
    if (entry.state !== "gone" && !entry.closed) {  // a closed match: only dropping it is left
      box.appendChild(button(label, "", function () {
        location.assign(formUrl + "#queued=" + entry.id);
      }));
    }
    box.appendChild(button(words.drop, "secondary", function () {
      var start = entry.state === "refused" ? entry.number : entry.next;
      drop(entry.id).then(function () {
        return entry.kind === "add" && start ? renumber(entry.match, entry.id, start) : null;
      }).then(function () { return flush(); });
    }));
    return box;
  }

  function row(entry, columns, held) {
    var tr = document.createElement("tr");
    tr.className = "queued state-" + (entry.id === sending ? "sending" : entry.state || "recorded");
    if (entry.id) tr.setAttribute("data-queued", String(entry.id));
    var th = document.createElement("th");
    th.className = "hand";
    th.scope = "row";
    th.textContent = entry.kind === "correct" ? entry.number + " ✎" : String(entry.number);
    var td = document.createElement("td");
    td.colSpan = columns;
    var what = document.createElement("span");
    what.className = "entry";
    what.textContent = entry.summary;
    var state = document.createElement("strong");
    state.className = "queued-state";
    state.textContent = entry.state ? stateWord(entry, held) : words.recorded;
    td.appendChild(what);
    td.appendChild(document.createTextNode(" "));
    td.appendChild(state);
    if (entry.state === "conflict" || entry.state === "refused" || entry.state === "gone") {
      td.appendChild(settle(entry));
    }
    tr.appendChild(th);
    tr.appendChild(td);
    return tr;
  }

  function sheetHands(live) {
    return live.querySelectorAll("table.sheet tbody tr:not(.queued)").length;
  }

  function render() {
    var live = document.getElementById("live");
    if (!live || !user) return;
    var match = matchOf(location.pathname);
    waitingHands().then(function (all) {
      var mine = all.filter(function (e) { return e.match === match; });
      var held = heldBehind(mine);
      live.querySelectorAll(".queued, .queued-list").forEach(function (n) { n.remove(); });
      var known = sheetHands(live);
      recorded = recorded.filter(function (r) { return r.number > known; });
      var rows = recorded.filter(function (r) { return r.match === match; }).concat(mine);
      var note = document.querySelector(".log-in-to-send");
      if (note) note.remove();
      if (loginNeeded && mine.length) {
        note = document.createElement("p");
        note.className = "flash flash-warning log-in-to-send";
        note.textContent = loginNeeded === "ended"
          ? words.sessionEndedSheet.replace("{name}", user || "").replace("{count}", String(mine.length))
          : words.logIn;
        live.parentNode.insertBefore(note, live);
      }
      nextHandBanner(live, mine, match);
      if (!rows.length) return;
      var table = live.querySelector("table.sheet tbody");
      if (table) {
        // The sheet shows the newest hand first: the waiting ones go on top, the last on top.
        var columns = live.querySelectorAll("table.sheet thead th").length - 1;
        rows.forEach(function (e) { table.insertBefore(row(e, columns, held), table.firstChild); });
      } else {
        var wrap = document.createElement("table");
        wrap.className = "sheet queued-list";
        var body = document.createElement("tbody");
        rows.forEach(function (e) { body.insertBefore(row(e, 1, held), body.firstChild); });
        wrap.appendChild(body);
        live.appendChild(wrap);
      }
    }).catch(function () { /* no IndexedDB: nothing can be waiting */ });
  }

  // The banner names the next hand the server expects and who deals it; with hands waiting on
  // the phone the next one is after them (dealAfter). Offline it says that the server checks the
  // deal when the hand goes out; back in touch, a hand not sent (a conflict, a refusal) is for
  // the player to settle and moves no number on.
  function nextHandBanner(live, mine, match) {
    var banner = live.querySelector(".banner[data-next-hand]");
    var link = banner && banner.querySelector("a.button[href$='/hands/new']");
    var deal = banner && dealOf(banner, "data-next-hand", "data-next-dealer");
    if (!link || !deal) return;
    var big = banner.querySelector("p.big");
    if (!link.hasAttribute("data-server-text")) {
      link.setAttribute("data-server-text", link.textContent);
      if (big) big.setAttribute("data-server-text", big.textContent);
    }
    var next = dealAfter(deal, mine, match);
    var moved = next.hand !== deal.hand;
    var note = banner.querySelector(".offline-deal");
    banner.querySelectorAll("p").forEach(function (p) {
      if (!p.contains(link) && p !== note && p !== big) p.hidden = moved;
    });
    var serverText = link.getAttribute("data-server-text");
    link.textContent = moved ? serverText.replace(String(deal.hand), String(next.hand)) : serverText;
    if (big) {
      big.textContent = moved ? next.deals[next.dealer].replace("9999", String(next.hand))
        : big.getAttribute("data-server-text");
    }
    var offline = moved && cutOff() && words.formOffline;
    if (!offline) {
      if (note) note.remove();
      return;
    }
    if (!note) {
      note = document.createElement("p");
      note.className = "offline-deal";
      note.textContent = words.formOffline;
      banner.insertBefore(note, big ? big.nextSibling : banner.firstChild);
    }
  }

  // "as of 14:32 — offline": shown while the server cannot be reached; the time is when this
  // sheet was last known to be current.
  function setUpOfflineLine(live) {
    var kept = document.documentElement.getAttribute("data-kept-at");
    var asOf = kept ? new Date(kept) : new Date();
    var line = document.createElement("p");
    line.className = "offline-line";
    line.setAttribute("role", "status");
    live.parentNode.insertBefore(line, live);
    if (kept) document.querySelectorAll(".flashes").forEach(function (n) { n.remove(); });
    function show() {
      var off = unreachable || !navigator.onLine;
      line.hidden = !off;
      if (!off) return;
      var time = isNaN(asOf.getTime()) ? "" : asOf.toLocaleTimeString(
        document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
      line.textContent = (words.asOf || "").replace("{time}", time);
    }
    function reached(now) {
      var changed = unreachable !== !now;
      unreachable = !now;
      show();
      if (changed) render();  // the banner's "Offline: …" comes or goes
    }
    document.addEventListener("sheet-reached", function () { asOf = new Date(); reached(true); });
    document.addEventListener("sheet-unreachable", function () { reached(false); });
    window.addEventListener("offline", function () { show(); render(); });
    window.addEventListener("online", function () { show(); render(); });
    show();
  }

  // The sheet's live part is replaced by app.js when the match changes: put the waiting hands
  // back into the new one.
  function watchLive(live) {
    new MutationObserver(function (changes) {
      var replaced = changes.some(function (c) {
        return Array.prototype.some.call(c.addedNodes, function (n) { return n.id === "live"; });
      });
      if (replaced) render();
    }).observe(live.parentNode, { childList: true });
  }

  // ---- The account ends on this phone: nothing of it stays -----------------------------------
  // Log out (/logout), log out everywhere and delete the account (the account page) each say
  // first how many hands are still waiting, since ending the account drops them. Logging out
  // cannot be refused, so the phone forgets before the form goes; deleting the account asks
  // for the password again, so the phone forgets only on the page after it worked (the log-in
  // page), and keeps everything when the account page comes back refused.

  function warnBefore(form, sentence) {
    waitingHands().then(function (all) {
      if (!all.length || !sentence) return;
      var warning = document.createElement("p");
      warning.className = "flash flash-warning log-out-drops";
      warning.setAttribute("role", "alert");
      warning.textContent = sentence.replace("{count}", String(all.length));
      form.parentNode.insertBefore(warning, form);
    }).catch(function () {});
  }

  function setUpLogOut(form) {
    warnBefore(form, words.logOutDrops);
    form.addEventListener("submit", function (event) {
      if (form.hasAttribute("data-forgotten")) return;
      event.preventDefault();
      forgetAll().then(function () {
        form.setAttribute("data-forgotten", "");
        HTMLFormElement.prototype.submit.call(form);
      });
    });
  }

  function setUpDelete(form) {
    warnBefore(form, words.deleteDrops);
    form.addEventListener("submit", function () {
      try { sessionStorage.setItem(ENDING, String(account)); } catch (e) { /* see below */ }
    });
  }

  // The log-in (and register) page: after the account was deleted, forget it; when the server
  // says it ended this phone's session (log out everywhere or a new password on another phone,
  // the account deleted there), forget it too and say how many hands were dropped; otherwise
  // say whose hands are waiting, since logging in as someone else drops them (claim()).
  function setUpLoggedOut() {
    var ending = null;
    try {
      ending = sessionStorage.getItem(ENDING);
      sessionStorage.removeItem(ENDING);
    } catch (e) { /* no storage: nothing marked */ }
    if (ending) { forgetAll(); return; }
    var password = document.getElementById("password");
    var form = password && password.form;
    var before = owner();
    if (words.sessionEnded !== undefined && before) {
      account = before.account;
      user = before.user;
      waitingHands().catch(function () { return []; }).then(function (all) {
        return forgetAll().then(function () {
          if (!all.length || !words.sessionEndedDrops || !form) return;
          var warning = document.createElement("p");
          warning.className = "flash flash-warning session-ended-drops";
          warning.setAttribute("role", "alert");
          warning.textContent = words.sessionEndedDrops.replace("{name}", before.user || "")
            .replace("{count}", String(all.length));
          form.parentNode.insertBefore(warning, form);
        });
      });
      return;
    }
    if (!form || !before || !words.othersDrop) return;
    account = before.account;
    user = before.user;
    waitingHands().then(function (all) {
      if (!all.length) return;
      var warning = document.createElement("p");
      warning.className = "flash flash-warning log-in-drops";
      warning.setAttribute("role", "alert");
      warning.textContent = words.othersDrop.replace("{name}", before.user || "")
        .replace("{count}", String(all.length));
      form.parentNode.insertBefore(warning, form);
    }).catch(function () {});
  }

  // ---- Start --------------------------------------------------------------------------------

  // The offline page (a page the phone never kept, the home page among them: the app opened
  // from the home screen with no connection): links to the sheets it did keep, by their titles.
  function listKeptSheets(section) {
    if (!window.caches) return;
    caches.open(PAGES).then(function (cache) {
      return cache.keys().then(function (requests) {
        var sheets = requests.map(function (r) { return new URL(r.url).pathname; })
          .filter(function (path) { return /^\/matches\/[^/]+$/.test(path); });
        return Promise.all(sheets.map(function (path) {
          return cache.match(path).then(function (hit) { return hit ? hit.text() : ""; })
            .then(function (html) {
              var title = new DOMParser().parseFromString(html, "text/html").title;
              return { path: path, title: title || path };
            });
        }));
      });
    }).then(function (sheets) {
      if (!sheets.length) return;
      var list = section.querySelector("ul");
      sheets.forEach(function (sheet) {
        var item = document.createElement("li");
        var link = document.createElement("a");
        link.href = sheet.path;
        link.className = "button secondary";
        link.textContent = sheet.title;
        item.appendChild(link);
        list.appendChild(item);
      });
      section.hidden = false;
    }).catch(function () {});
  }

  document.addEventListener("DOMContentLoaded", function () {
    var kept = document.getElementById("kept-sheets");
    if (kept) listKeptSheets(kept);
    var holder = document.getElementById("offline-words");
    if (!holder || !("indexedDB" in window)) return;
    Object.keys(holder.dataset).forEach(function (k) { words[k] = holder.dataset[k]; });
    if (!words.account) { setUpLoggedOut(); return; }
    user = words.user;
    account = words.account;
    try {
      // Still logged in after asking to delete the account: it was refused, nothing is lost.
      sessionStorage.removeItem(ENDING);
    } catch (e) { /* no storage */ }
    claim().catch(function () {});  // another account's hands are never shown meanwhile
    start();
  });

  function start() {
    var ending = document.querySelectorAll("form[action='/logout'], form[data-ends-account]");
    if (ending.length) {
      // Pages that end the account send nothing: the player decides about the waiting hands.
      ending.forEach(function (form) {
        if (form.getAttribute("data-ends-account") === "delete") setUpDelete(form);
        else setUpLogOut(form);
      });
      return;
    }
    document.querySelectorAll("form.hand").forEach(setUpForm);
    var live = document.getElementById("live");
    if (live) {
      setUpOfflineLine(live);
      watchLive(live);
      render();
    }
    if (navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage(
        { type: "language", lang: document.documentElement.lang });
    }
    if (navigator.onLine) flush();
    window.addEventListener("online", function () { flush(); });
  }
})();
