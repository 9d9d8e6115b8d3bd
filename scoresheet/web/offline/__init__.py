"""Offline: the app shell a phone keeps (service worker, manifest, offline page) and the answers
to the hands it kept while offline and sends later (`queued`); with static/sw.js and
static/offline.js, the whole path of docs/offline.md."""
