// Tysiacha scoresheet: a little help for thumbs. Every page works without it;
// the server decides everything (this only previews and steps numbers).
"use strict";

(function () {
  var SUITS = { hearts: 100, diamonds: 80, clubs: 60, spades: 40 };
  var PACK = 120;

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
        var next = current === null || isNaN(current) ? (isFinite(min) ? min : 0) : current + delta;
        input.value = String(Math.min(max, Math.max(min, next)));
        input.dispatchEvent(new Event("input", { bubbles: true }));
      });
    });
  }

  // "Made or missed" before saving: took (card points + marriages) against the bid.
  function preview(form, out) {
    var kind = form.querySelector("input[name=kind]:checked");
    var declarer = form.querySelector("input[name=declarer]:checked");
    var bid = num(form.querySelector("input[name=bid]"));
    out.classList.remove("made", "missed");
    if (kind && kind.value !== "played") {
      out.textContent = kind.value === "redeal"
        ? "Redeal: nobody scores; the same dealer deals again."
        : "Called off: nobody's card points count.";
      return;
    }
    if (!declarer) { out.textContent = "Pick the declarer."; return; }
    var seat = declarer.value;
    var defenders = 0;
    var own = null;
    var bad = false;
    form.querySelectorAll("input[data-seat-points]").forEach(function (input) {
      var p = num(input);
      if (p !== null && (isNaN(p) || p < 0 || p > PACK)) bad = true;
      if (input.getAttribute("data-seat-points") === seat) own = p;
      else if (p !== null && !isNaN(p)) defenders += p;
    });
    if (bad) { out.textContent = "Card points are whole numbers from 0 to 120."; return; }
    var filled = own === null;
    if (filled) own = PACK - defenders;
    var marriages = 0;
    form.querySelectorAll("input[data-seat-marriage='" + seat + "']:checked").forEach(function (box) {
      marriages += SUITS[box.value] || 0;
    });
    var took = own + marriages;
    var name = declarer.nextElementSibling ? declarer.nextElementSibling.textContent : "Declarer";
    var text = name + " took " + took + (filled ? " (" + own + " card points by 120 − the others)" : "");
    if (bid === null || isNaN(bid)) { out.textContent = text + ". Enter the bid."; return; }
    var made = took >= bid;
    out.classList.add(made ? "made" : "missed");
    out.textContent = text + " against " + bid + ": " + (made ? "made." : "missed.");
  }

  function setUpPreview(root) {
    root.querySelectorAll("form.hand").forEach(function (form) {
      var out = form.querySelector("output.preview");
      if (!out) return;
      var update = function () { preview(form, out); };
      form.addEventListener("input", update);
      form.addEventListener("change", update);
      update();
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    setUpSteppers(document);
    setUpPreview(document);
  });
})();
