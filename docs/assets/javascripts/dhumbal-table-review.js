/*
 * The mini table, the review of a finished deal: "Review your moves" on the
 * deal's summary asks the engine (op "review", in the worker) for the
 * reader's moves beside the expert's choices; the answer's review_html
 * (drawn and escaped by the engine, dhumbal/view/review.py) goes into the
 * summary, and this script only shows one step at a time: the step buttons,
 * Previous and Next move between them, "Play from here" deals the position
 * before that move on the table (op "position"). The browser decides
 * nothing: every figure and word comes from the engine. See
 * dhumbal-table-core.js.
 */
(function () {
  "use strict";

  var T = window.DhumbalTable;
  var Table = T.Table;

  // The review's answer: put it on the summary, at the first step where the
  // expert chose otherwise (else the first), with focus on its title.
  T.on("shown", function (table, result, payload) {
    if (!payload || payload.op !== "review" || !result || typeof result.review_html !== "string") return;
    var summary = table.board.querySelector(".dht-summary");
    if (!summary) return;
    var old = summary.querySelector(".dht-review");
    if (old) old.remove();
    var holder = document.createElement("div");
    holder.innerHTML = result.review_html;
    var review = holder.firstElementChild;
    if (!review) return;
    var button = summary.querySelector(".dht-review-btn");
    if (button) button.after(review);
    else summary.appendChild(review);
    var first = review.querySelector(".dht-review__chip--differs") || review.querySelector("[data-review-step]");
    table.reviewStep(review, first ? parseInt(first.getAttribute("data-review-step"), 10) : 1, false);
    var title = review.querySelector(".dht-review__title");
    if (title) {
      title.focus({ preventScroll: true });
      title.scrollIntoView({ block: "nearest" });
    }
  });

  // Show step n of the review (1-based) and mark its button as the current one.
  Table.prototype.reviewStep = function (review, n, focus) {
    var panels = review.querySelectorAll("[data-review-panel]");
    if (!panels.length) return;
    n = Math.max(1, Math.min(panels.length, n));
    review.setAttribute("data-review-at", String(n));
    for (var i = 0; i < panels.length; i++) panels[i].hidden = i !== n - 1;
    var chips = review.querySelectorAll("[data-review-step]");
    for (var j = 0; j < chips.length; j++) {
      if (j === n - 1) chips[j].setAttribute("aria-current", "step");
      else chips[j].removeAttribute("aria-current");
    }
    if (focus && chips[n - 1]) chips[n - 1].focus({ preventScroll: true });
    if (chips[n - 1] && chips[n - 1].scrollIntoView) chips[n - 1].scrollIntoView({ block: "nearest", inline: "nearest" });
  };

  T.on("bind", function (table) {
    table.root.addEventListener("click", function (ev) {
      var target = ev.target.closest && ev.target.closest("button");
      if (!target) return;
      var review = target.closest(".dht-review");
      if (!review || !table.root.contains(review)) return;
      var at = parseInt(review.getAttribute("data-review-at"), 10) || 1;
      if (target.hasAttribute("data-review-step")) {
        table.reviewStep(review, parseInt(target.getAttribute("data-review-step"), 10), false);
      } else if (target.hasAttribute("data-review-go")) {
        if (target.getAttribute("aria-disabled") === "true") return;
        table.reviewStep(review, at + parseInt(target.getAttribute("data-review-go"), 10), true);
      } else if (target.hasAttribute("data-review-play")) {
        if (!table.live || table.playing) return;
        table.played = true;
        table.send({
          op: "position",
          state: target.getAttribute("data-state-json"),
          names: null,
          difficulty: target.getAttribute("data-difficulty") || "medium"
        }).then(function () {
          var first = table.board.querySelector(".dht-card[aria-pressed]") || table.board.querySelector("[data-action]");
          if (first) first.focus({ preventScroll: true });
        }, function () {});
      }
    });
    // Left and right arrows move between the step buttons, as in a toolbar.
    table.root.addEventListener("keydown", function (ev) {
      if (ev.key !== "ArrowLeft" && ev.key !== "ArrowRight") return;
      var chip = ev.target.closest && ev.target.closest("[data-review-step]");
      if (!chip) return;
      var review = chip.closest(".dht-review");
      var n = parseInt(chip.getAttribute("data-review-step"), 10) + (ev.key === "ArrowRight" ? 1 : -1);
      ev.preventDefault();
      table.reviewStep(review, n, true);
    });
  });

  // While the review is worked out (a few seconds on a phone), its button says so.
  T.on("bind", function (table) {
    table.root.addEventListener("click", function (ev) {
      var button = ev.target.closest && ev.target.closest(".dht-review-btn");
      if (button && table.live && !table.playing) button.setAttribute("aria-busy", "true");
    }, true);
  });

})();
