// Tysiacha scoresheet: "Share the result" of a won match. The picture is drawn here,
// from the page itself: its standings as text, its score race from the page's own inline SVG.
// Nothing is fetched from anywhere; the phone's share sheet where it takes files, else a
// download of the PNG.
"use strict";

(function () {
  var SVG_NS = "http://www.w3.org/2000/svg";
  var PAINT = ["fill", "stroke", "stroke-width", "stroke-dasharray", "stroke-linejoin",
               "stroke-linecap", "opacity", "font-size", "font-family", "font-weight"];
  var WIDTH = 1080;
  var PAD = 48;

  function all(root, selector) {
    return Array.prototype.slice.call(root.querySelectorAll(selector));
  }

  // An SVG drawn as an image sees neither the page's stylesheet nor its CSS variables: each
  // element of the copy carries the colours and line styles the page computed for it.
  function standalone(svg) {
    var copy = svg.cloneNode(true);
    var copies = [copy].concat(all(copy, "*"));
    [svg].concat(all(svg, "*")).forEach(function (node, i) {
      var style = getComputedStyle(node);
      PAINT.forEach(function (name) {
        var value = style.getPropertyValue(name);
        if (value) copies[i].setAttribute(name, value);
      });
    });
    all(copy, "title").forEach(function (t) { t.parentNode.removeChild(t); });
    ["class", "role", "aria-labelledby"].forEach(function (a) { copy.removeAttribute(a); });
    copy.setAttribute("xmlns", SVG_NS);
    var box = svg.viewBox.baseVal;
    copy.setAttribute("width", String(box.width));
    copy.setAttribute("height", String(box.height));
    return { text: new XMLSerializer().serializeToString(copy), width: box.width, height: box.height };
  }

  function image(svgText) {
    return new Promise(function (resolve, reject) {
      var img = new Image();
      img.onload = function () { resolve(img); };
      img.onerror = function () { reject(new Error("chart")); };
      img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svgText);
    });
  }

  // A side's line in the race's key: its colour and dashes, for the standings' swatches.
  function lineOf(root, seat) {
    var line = root.querySelector(".race-key line.run.seat-" + seat);
    if (!line) return null;
    var style = getComputedStyle(line);
    var dash = style.getPropertyValue("stroke-dasharray");
    return { color: style.getPropertyValue("stroke"),
             dash: dash && dash !== "none" ? dash.split(/[ ,]+/).map(parseFloat).map(function (n) { return n * 2; }) : [] };
  }

  function draw(root, chart, img) {
    var body = getComputedStyle(document.body);
    var font = body.fontFamily;
    var muted = getComputedStyle(root.querySelector(".hint") || document.body).color;
    var title = (document.querySelector("h1") || { textContent: document.title }).textContent.trim();
    var win = root.querySelector(".banner.win .big");
    var named = root.querySelector("[data-share-result]");  // the app's name in the page's language
    var app = (named && named.getAttribute("data-app")) || "Tysiacha";
    var standings = all(root, ".standings > .standing");
    var chartHeight = img ? Math.round((WIDTH - 2 * PAD) * chart.height / chart.width) : 0;
    var rows = 72;
    var height = PAD + 64 + (win ? 76 : 0) + standings.length * rows + 24 + chartHeight + 56 + PAD;
    var canvas = document.createElement("canvas");
    canvas.width = WIDTH;
    canvas.height = height;
    var ctx = canvas.getContext("2d");
    ctx.fillStyle = body.backgroundColor;
    ctx.fillRect(0, 0, WIDTH, height);
    ctx.textBaseline = "top";
    var y = PAD;
    ctx.fillStyle = body.color;
    ctx.font = "700 40px " + font;
    ctx.fillText(title, PAD, y, WIDTH - 2 * PAD);
    y += 64;
    if (win) {
      ctx.fillStyle = getComputedStyle(win.parentNode).borderTopColor;
      ctx.font = "800 48px " + font;
      ctx.fillText(win.textContent.trim(), PAD, y, WIDTH - 2 * PAD);
      y += 76;
    }
    standings.forEach(function (li, seat) {
      var line = lineOf(root, seat);
      if (line) {
        ctx.strokeStyle = line.color;
        ctx.lineWidth = 6;
        ctx.setLineDash(line.dash);
        ctx.beginPath();
        ctx.moveTo(PAD, y + 24);
        ctx.lineTo(PAD + 56, y + 24);
        ctx.stroke();
        ctx.setLineDash([]);
      }
      var winner = li.classList.contains("winner");
      ctx.fillStyle = body.color;
      ctx.font = (winner ? "800 " : "600 ") + "40px " + font;
      ctx.fillText((li.querySelector(".name") || li).textContent.trim(), PAD + 76, y + 4, WIDTH - 2 * PAD - 300);
      ctx.textAlign = "right";
      ctx.font = "800 48px " + font;
      ctx.fillText((li.querySelector(".score") || li).textContent.trim(), WIDTH - PAD, y, 260);
      ctx.textAlign = "left";
      y += rows;
    });
    y += 24;
    if (img) {
      ctx.drawImage(img, PAD, y, WIDTH - 2 * PAD, chartHeight);
      y += chartHeight;
    }
    ctx.fillStyle = muted;
    ctx.font = "400 28px " + font;
    ctx.fillText(app + " · " + new Date().toLocaleDateString(document.documentElement.lang || undefined), PAD, y + 20);
    return canvas;
  }

  function png(root) {
    var svg = root.querySelector("svg.race-chart");
    var chart = svg ? standalone(svg) : null;
    return (chart ? image(chart.text) : Promise.resolve(null)).then(function (img) {
      var canvas = draw(root, chart, img);
      return new Promise(function (resolve, reject) {
        canvas.toBlob(function (blob) { return blob ? resolve(blob) : reject(new Error("png")); }, "image/png");
      });
    });
  }

  // The picture is made as soon as the button shows (and again when the screen turns light or
  // dark), so that the tap calls the share sheet at once: browsers open it only while the tap
  // is fresh.
  var made = null;
  function prepare() {
    var root = document.getElementById("live") || document.body;
    made = { blob: null, promise: png(root) };
    var mine = made;
    mine.promise.then(function (blob) { mine.blob = blob; }, function () {});
  }

  function deliver(button, blob) {
    var status = button.parentNode.querySelector(".share-result-status");
    var name = "tysiacha-" + new Date().toISOString().slice(0, 10) + ".png";
    var file = typeof File === "function" ? new File([blob], name, { type: "image/png" }) : null;
    if (file && navigator.canShare && navigator.share && navigator.canShare({ files: [file] })) {
      navigator.share({ files: [file], title: document.title })
        .catch(function () { /* closed without sharing: nothing to say */ });
      return;
    }
    var link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = name;
    link.hidden = true;
    document.body.appendChild(link);
    link.click();
    setTimeout(function () { URL.revokeObjectURL(link.href); link.remove(); }, 10000);
    if (status) status.textContent = button.getAttribute("data-saved");
  }

  function share(button) {
    var status = button.parentNode.querySelector(".share-result-status");
    if (status) status.textContent = "";
    if (!made) prepare();
    if (made.blob) { deliver(button, made.blob); return; }
    made.promise.then(function (blob) { deliver(button, blob); }).catch(function () {
      made = null;  // try afresh on the next tap
      if (status) status.textContent = button.getAttribute("data-failed");
    });
  }

  function reveal() {
    var shown = all(document, "button[data-share-result][hidden]");
    shown.forEach(function (b) { b.hidden = false; });
    if (shown.length) prepare();  // a new sheet: a new picture
  }

  function start() {
    reveal();
    var live = document.getElementById("live");
    if (live) new MutationObserver(reveal).observe(live.parentNode, { childList: true });
    if (window.matchMedia) {
      var dark = matchMedia("(prefers-color-scheme: dark)");
      if (dark.addEventListener) dark.addEventListener("change", function () { if (made) prepare(); });
    }
  }

  if (window.shareResultReady) return;  // named by the page and again by a live swap: once
  window.shareResultReady = true;
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-share-result]");
    if (button) share(button);
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();  // loaded by app.js after a live update brought a won match
})();
