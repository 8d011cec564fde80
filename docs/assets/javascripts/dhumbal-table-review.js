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
 *
 * "Play from here" deals a practice deal (op "position" with practice: one
 * deal, apart from the reader's match, never kept as their game: see
 * dhumbal-table-resume.js). It is a step of the table's own history, as a
 * worked example's is: the finished deal's entry remembers the review step
 * on screen (history.state.dhReview), and the practice gets a new entry
 * (history.state.dhPracticeOf, the match's link and step). Back brings the
 * finished deal again (the page's hashchange restores its link) and this
 * script opens its review at that step; Forward plays the position again.
 * "Back to your match", at the practice deal's end, is that Back (or, with
 * no such entry behind, the same match restored).
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
    var at = table.reviewAgainAt || (first ? parseInt(first.getAttribute("data-review-step"), 10) : 1);
    table.reviewAgainAt = 0;
    table.reviewStep(review, at, false);
    var title = review.querySelector(".dht-review__title");
    if (title) {
      title.focus({ preventScroll: true });
      title.scrollIntoView({ block: "nearest" });
    }
  });

  // Back to a finished deal left by "Play from here": its review again, at the step it showed.
  T.on("shown", function (table, result, payload) {
    if (!payload || payload.op !== "restore" || !result || !result.summary || !result.summary.is_over) return;
    var state = history.state;
    var step = state && typeof state.dhReview === "object" && state.dhReview ? state.dhReview : null;
    if (table.reviewAgainAt > 0) step = { hash: result.hash, at: table.reviewAgainAt }; // "Back to your match"
    if (!step || step.hash !== result.hash || !(step.at > 0)) return;
    var button = table.board.querySelector(".dht-review-btn");
    if (!button) return;
    table.reviewAgainAt = step.at;
    button.setAttribute("aria-busy", "true");
    table.send({ op: "review" }).then(null, function () { table.reviewAgainAt = 0; });
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
        table.leaveReview(at);
        table.send({
          op: "position",
          state: target.getAttribute("data-state-json"),
          names: null,
          practice: true,
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

  // "Play from here" leaves the finished deal in history: its entry keeps the
  // link and the review step on screen, and the position gets an entry of its own.
  Table.prototype.leaveReview = function (at) {
    var hash = this.lastHash;
    // the match to go back to (a practice deal from a practice deal goes back to the same match)
    var from = this.practiceOf && this.isPractice() ? this.practiceOf : { hash: hash, at: at };
    this.practiceOf = from;
    if (!hash || T.tableHash() !== hash) return; // the deal's link is not the address: no step to return to
    try {
      // both entries are the table's own steps: a full table open stays open
      // between them (they carry its mark, dhumbal-table-place.js)
      var state = Object.assign({}, history.state, { dhReview: { hash: hash, at: at } });
      delete state.dhPracticeOf;
      history.replaceState(state, "");
      var next = Object.assign({}, state, { dhPracticeOf: from });
      delete next.dhReview;
      history.pushState(next, "", location.href);
    } catch (e) { /* no history entry: the position is still played */ }
  };

  Table.prototype.isPractice = function () {
    var area = this.board.querySelector(".dht-play-area");
    return !!area && area.getAttribute("data-practice") === "true";
  };

  // "Back to your match": the step before the practice deal when it is right
  // behind (the review opens again at its step), else that match restored here.
  Table.prototype.backToMatch = function () {
    var state = history.state;
    var of = (state && state.dhPracticeOf) || this.practiceOf;
    if (!of || typeof of.hash !== "string") return;
    if (state && state.dhPracticeOf && state.dhPracticeOf.hash === of.hash) {
      try {
        history.back();
        return;
      } catch (e) { /* restored below */ }
    }
    this.practiceOf = null;
    this.resuming = true; // the reader's own match: no "shared game" notice
    this.reviewAgainAt = of.at > 0 ? of.at : 0;
    this.send(this.restoreRequest(of.hash)).then(null, function () {});
  };

  // At the end of a practice deal, "Back to your match" only where a match is known.
  T.on("board", function (table) {
    var button = table.board.querySelector("[data-dht-match]");
    if (!button) return;
    var state = history.state;
    button.hidden = !((state && state.dhPracticeOf) || table.practiceOf);
  });

  // While the review is worked out (a few seconds on a phone), its button says so.
  T.on("bind", function (table) {
    table.root.addEventListener("click", function (ev) {
      var button = ev.target.closest && ev.target.closest(".dht-review-btn");
      if (button && table.live && !table.playing) button.setAttribute("aria-busy", "true");
    }, true);
  });

})();
