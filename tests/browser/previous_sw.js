// Tysiacha scoresheet service worker: keeps only versioned static files (URLs with ?v=<hash>,
// which never change) and the offline page; pages and data always come from the server.
"use strict";

var CACHE = "tysiacha-static-1";
var OFFLINE = "/offline";

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return cache.add(new Request(OFFLINE, { credentials: "omit" }));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== CACHE; })
      .map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

function versioned(url) {
  return url.origin === self.location.origin && url.pathname.indexOf("/static/") === 0 &&
    url.searchParams.has("v");
}

// A new version of a file replaces the old one: the cache holds one copy of each file.
function keep(request, response) {
  return caches.open(CACHE).then(function (cache) {
    var path = new URL(request.url).pathname;
    return cache.keys().then(function (keys) {
      return Promise.all(keys.filter(function (k) { return new URL(k.url).pathname === path; })
        .map(function (k) { return cache.delete(k); }));
    }).then(function () { return cache.put(request, response); });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (versioned(url)) {
    event.respondWith(caches.match(request).then(function (hit) {
      return hit || fetch(request).then(function (response) {
        if (response.ok) event.waitUntil(keep(request, response.clone()));
        return response;
      });
    }));
  } else if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(function () {
      return caches.match(OFFLINE);
    }));
  }
});
