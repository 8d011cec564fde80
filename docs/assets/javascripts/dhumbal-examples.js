/*
 * Worked examples, one step at a time; the comparison's "differences only".
 *
 * Without this script every step of an example is shown, one under the
 * other, each with its diagram (the page is complete as built). The script
 * only adds a step-through control: it shows the example's control bar
 * (built into the page, in the page's language, hidden until now) and then
 * one step at a time. Previous / Next, the arrow keys, Home and End move
 * between steps while the focus is in the example; "All steps" shows every
 * step again. The counter reads the step's own label ("Step 3 of 6") and is
 * announced politely. A link to a step (#example-ID-step-N) opens that step;
 * any other address, however malformed, opens the first.
 *
 * Works with Material's instant navigation (it runs for every new page
 * through document$) and with a Content-Security-Policy: no inline script,
 * no inline handler, no eval.
 */
(function () {
  "use strict";

  function Stepper(root) {
    this.root = root;
    this.bar = root.querySelector(".dh-stepper");
    this.steps = Array.prototype.slice.call(root.querySelectorAll(".dh-steps > .dh-step"));
    this.prev = this.bar.querySelector('[data-step-go="prev"]');
    this.next = this.bar.querySelector('[data-step-go="next"]');
    this.all = this.bar.querySelector('[data-step-go="all"]');
    this.where = this.bar.querySelector(".dh-stepper__where");
    this.index = 0;
    this.showAll = false;
    var self = this;
    this.bar.addEventListener("click", function (ev) {
      var button = ev.target.closest ? ev.target.closest("[data-step-go]") : null;
      if (!button || button.disabled) return;
      var go = button.getAttribute("data-step-go");
      if (go === "prev") self.go(self.index - 1);
      else if (go === "next") self.go(self.index + 1);
      else self.toggleAll();
    });
    root.addEventListener("keydown", function (ev) { self.onKey(ev); });
    // The first step is set while the bar is still hidden, so that its
    // live counter announces the reader's moves only, not the page load.
    this.go(this.fromHash());
    this.bar.hidden = false;
    root.setAttribute("data-stepper", "on");
  }

  // The step a link names (#example-ID-step-N), or "" for any other
  // address: a shared game (#table=…), a malformed escape (#%, #%E0%A4, on
  // which decodeURIComponent throws a URIError) or an address longer than
  // any step's id, none of which may stop the page's examples.
  var MAX_STEP_ID = 200;

  function hashTarget() {
    var raw = String(location.hash || "").slice(1);
    if (!raw || raw.length > 3 * MAX_STEP_ID) return "";
    try {
      var id = decodeURIComponent(raw);
      return id.length <= MAX_STEP_ID ? id : "";
    } catch (e) {
      return "";
    }
  }

  Stepper.prototype.fromHash = function () {
    var id = hashTarget();
    for (var i = 0; i < this.steps.length; i++) {
      if (id && this.steps[i].id === id) return i;
    }
    return 0;
  };

  Stepper.prototype.go = function (index) {
    var focused = document.activeElement;
    var last = this.steps.length - 1;
    this.index = Math.max(0, Math.min(last, index));
    for (var i = 0; i < this.steps.length; i++) {
      this.steps[i].hidden = !this.showAll && i !== this.index;
    }
    this.prev.disabled = this.showAll || this.index === 0;
    this.next.disabled = this.showAll || this.index === last;
    var label = this.steps[this.index].querySelector(".dh-step__label");
    this.where.textContent = this.showAll ? "" : (label ? label.textContent : "");
    // A button that has just been disabled (Next on the last step) loses the
    // focus: hand it to the other one, so the keyboard keeps its place.
    if ((focused === this.next || focused === this.prev) && focused.disabled) {
      (focused === this.next ? this.prev : this.next).focus();
    }
  };

  Stepper.prototype.toggleAll = function () {
    this.showAll = !this.showAll;
    this.all.setAttribute("aria-pressed", this.showAll ? "true" : "false");
    this.root.setAttribute("data-stepper", this.showAll ? "all" : "on");
    this.go(this.index);
  };

  Stepper.prototype.onKey = function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || this.showAll) return;
    var tag = ev.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || ev.target.isContentEditable) return;
    var index = this.index;
    if (ev.key === "ArrowRight") index += 1;
    else if (ev.key === "ArrowLeft") index -= 1;
    else if (ev.key === "Home") index = 0;
    else if (ev.key === "End") index = this.steps.length - 1;
    else return;
    ev.preventDefault();
    this.go(index);
  };

  function setupExamples() {
    var roots = document.querySelectorAll(".dh-example[data-steps]");
    for (var i = 0; i < roots.length; i++) {
      var root = roots[i];
      if (root.__dhumbalStepper || !root.querySelector(".dh-stepper")) continue;
      if (root.querySelectorAll(".dh-steps > .dh-step").length < 2) continue;
      // One example's failure leaves it complete (every step shown) and
      // does not stop the others'.
      try {
        root.__dhumbalStepper = new Stepper(root);
      } catch (e) {
        var steps = root.querySelectorAll(".dh-steps > .dh-step");
        for (var j = 0; j < steps.length; j++) steps[j].hidden = false;
        if (window.console) window.console.error(e);
      }
    }
  }

  // "Differences only" works through CSS :has(); the class does the same
  // where :has() is not supported.
  function setupCompare() {
    var boxes = document.querySelectorAll("[data-dh-compare] [data-dh-differences-only]");
    for (var i = 0; i < boxes.length; i++) {
      var box = boxes[i];
      if (box.__dhumbalSwitch) continue;
      box.__dhumbalSwitch = true;
      var sync = (function (input) {
        return function () {
          var root = input.closest("[data-dh-compare]");
          if (root) root.classList.toggle("dh-compare--differences", input.checked);
        };
      })(box);
      box.addEventListener("change", sync);
      sync();
    }
  }

  function setup() {
    setupExamples();
    setupCompare();
  }

  window.DhumbalPage.each(setup);
})();
