// Tysiacha scoresheet service worker. It keeps only versioned static files (URLs with
// ?v=<hash>, which never change), the offline page, and the last copy of each match sheet and
// hand form this phone opened (docs/offline.md). Pages always come from the server when it
// answers; a kept copy is shown only when it does not.
"use strict";

var STATIC = "tysiacha-static-1";  // the same name as the first worker's: its files stay
var PAGES = "tysiacha-pages-1";
var OFFLINE = "/offline";
var KEPT_PAGE = /^\/matches\/(?!new$)[^/]+(\/hands\/new)?$/;
var LIVE_PART = /^\/matches\/(?!new$)[^/]+\/live$/;
var ASSET = /\/static\/[^"'?\s]+\?v=[0-9a-f]+/g;

self.addEventListener("install", function (event) {
  // With the cookie: the offline page comes in the player's language (the page says which
  // language it is in later, see "message").
  event.waitUntil(caches.open(STATIC).then(function (cache) {
    return fetch(new Request(OFFLINE, { credentials: "same-origin" })).then(function (r) {
      return r.ok ? storePage(cache, OFFLINE, r) : cache.add(OFFLINE);
    });
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== STATIC && k !== PAGES; })
      .map(function (k) { return caches.delete(k); }));
  }).then(prune).then(function () { return self.clients.claim(); }));
});

function versioned(url) {
  return url.origin === self.location.origin && url.pathname.indexOf("/static/") === 0 &&
    url.searchParams.has("v");
}

// A page is kept with the files it names (its stylesheet, script, icon), so that a kept page
// is never shown with another version of them, and with the moment it was kept.
function storePage(cache, key, response) {
  return response.text().then(function (html) {
    var headers = new Headers(response.headers);
    headers.set("X-Kept-At", new Date().toISOString());
    var assets = (html.match(ASSET) || []).filter(function (a, i, all) { return all.indexOf(a) === i; });
    return caches.open(STATIC).then(function (statics) {
      return Promise.all(assets.map(function (a) {
        return statics.match(a).then(function (hit) { return hit || statics.add(a); });
      }));
    }).then(function () {
      return cache.put(key, new Response(html, { status: 200, headers: headers }));
    });
  });
}

// Static files no kept page names are dropped, except the newest copy of each file.
function prune() {
  var named = {};
  function read(cache) {
    return cache.keys().then(function (keys) {
      return Promise.all(keys.filter(function (k) { return !versioned(new URL(k.url)); })
        .map(function (k) {
          return cache.match(k).then(function (r) { return r.text(); }).then(function (html) {
            (html.match(ASSET) || []).forEach(function (a) { named[a] = true; });
          });
        }));
    });
  }
  return Promise.all([caches.open(STATIC), caches.open(PAGES)]).then(function (both) {
    return Promise.all(both.map(read)).then(function () {
      return both[0].keys();
    }).then(function (keys) {
      var newest = {};
      keys.forEach(function (k) {
        var url = new URL(k.url);
        if (versioned(url)) newest[url.pathname] = k.url;
      });
      return Promise.all(keys.filter(function (k) {
        var url = new URL(k.url);
        return versioned(url) && !named[url.pathname + url.search] && newest[url.pathname] !== k.url;
      }).map(function (k) { return both[0].delete(k); }));
    });
  });
}

// A kept page says that it is one, and since when (static/offline.js shows "as of …").
function keptCopy(request) {
  return caches.open(PAGES).then(function (cache) {
    return cache.match(new URL(request.url).pathname);
  }).then(function (hit) {
    if (!hit) return null;
    var at = hit.headers.get("X-Kept-At") || "";
    return hit.text().then(function (html) {
      return new Response(html.replace("<html ", '<html data-kept-at="' + at + '" '),
                          { status: 200, headers: { "Content-Type": "text/html; charset=utf-8" } });
    });
  });
}

// A match page's live part (GET /matches/<id>/live, what the page fetches after a change)
// takes the place of the live part in the kept copy of its page, between the page's
// <!--live--> and <!--/live--> marks: the kept sheet stays as new as the one on screen. With
// no kept copy to put it in (or one of a release without the marks) the page is kept whole.
var LIVE = /<!--live-->[\s\S]*<!--\/live-->/;
function storeLivePart(cache, key, response) {
  return Promise.all([cache.match(key), response.text()]).then(function (both) {
    var part = both[1].match(LIVE);
    return both[0] ? both[0].text().then(function (html) {
      if (!part || !LIVE.test(html)) return storeWholePage(cache, key);
      var page = html.replace(LIVE, function () { return part[0]; });
      return storePage(cache, key, new Response(page, { headers: both[0].headers }));
    }) : storeWholePage(cache, key);
  });
}

function storeWholePage(cache, key) {
  return fetch(new Request(key, { credentials: "same-origin" })).then(function (r) {
    return keepable(r) ? storePage(cache, key, r) : null;
  });
}

// A page the server sent as itself (not the log-in page it sent instead, not an error).
function keepable(response) {
  var type = response.headers.get("Content-Type") || "";
  return response.status === 200 && !response.redirected && type.indexOf("text/html") === 0;
}

// The kept pages are written one at a time, in the order their answers came: a page still
// fetching the files it names is kept before a live part that came after it is put in.
var writing = Promise.resolve();
function inTurn(write) {
  writing = writing.then(write, write);
  return writing;
}

// `keep` puts a page the server sent into the kept pages (`storePage`, `storeLivePart`) under
// the path it names.
function fromServer(event, request, key, keep) {
  return fetch(request).then(function (response) {
    if (response.redirected && new URL(response.url).pathname === "/login") {
      // The server sent a kept sheet's visit to log in: the session is gone (logged out, maybe
      // everywhere from another phone). No sheet of that account is shown offline any more.
      event.waitUntil(caches.delete(PAGES));
    }
    if (keepable(response)) {
      var copy = response.clone();
      event.waitUntil(inTurn(function () {
        return caches.open(PAGES).then(function (cache) { return keep(cache, key, copy); });
      }).then(prune));
    }
    return response;
  });
}

// A page the phone keeps no copy of: the server's, else the offline page (not the browser's
// own error page).
function pageOrOffline(request) {
  return fetch(request).catch(function () { return caches.match(OFFLINE); });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") {
    // A tap that changes something (Undo, delete, bank the match) made with no connection:
    // the offline page says that nothing changed.
    if (request.mode === "navigate") event.respondWith(pageOrOffline(request));
    return;
  }
  var url = new URL(request.url);
  if (versioned(url)) {
    event.respondWith(caches.match(request).then(function (hit) {
      return hit || fetch(request).then(function (response) {
        if (response.ok) {
          var copy = response.clone();
          event.waitUntil(caches.open(STATIC).then(function (c) { return c.put(request, copy); }));
        }
        return response;
      });
    }));
  } else if (url.origin === self.location.origin && LIVE_PART.test(url.pathname) && !url.search) {
    event.respondWith(fromServer(event, request, url.pathname.replace(/\/live$/, ""), storeLivePart));
  } else if (url.origin === self.location.origin && KEPT_PAGE.test(url.pathname) && !url.search) {
    event.respondWith(fromServer(event, request, url.pathname, storePage).catch(function (failure) {
      return keptCopy(request).then(function (copy) {
        if (copy) return copy;
        if (request.mode === "navigate") return caches.match(OFFLINE);
        throw failure;
      });
    }));
  } else if (request.mode === "navigate") {
    event.respondWith(pageOrOffline(request));
  }
});

self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type === "language" && /^[A-Za-z_-]{2,12}$/.test(data.lang || "")) {
    // The offline page in the language of the player's last page, when it is not already.
    event.waitUntil(caches.open(STATIC).then(function (cache) {
      return cache.match(OFFLINE).then(function (hit) {
        return hit ? hit.text() : "";
      }).then(function (html) {
        if (html.indexOf('<html lang="' + data.lang + '"') >= 0) return null;
        return fetch(new Request(OFFLINE + "?lang=" + encodeURIComponent(data.lang),
                                 { credentials: "omit" })).then(function (r) {
          return r.ok ? storePage(cache, OFFLINE, r) : null;
        });
      });
    }).then(prune).catch(function () { /* offline: next time */ }));
  } else if (data.type === "forget") {
    // Log-out: nothing of the account stays on the phone.
    event.waitUntil(caches.delete(PAGES));
  }
});
