/*
 * The score pad ([data-dhumbal-scorepad]): a match played with real cards,
 * every deal settled by the rules engine in the table's worker.
 *
 * The page carries the pad as the engine drew it at build time
 * (dhumbal/view/padview.py): the set-up form, the empty places of the sheet, and
 * every text this script shows (data-strings, from the catalogs). This script
 * decides no rule. It keeps what the table typed (the sheet: the rules, the
 * names, the first dealer, and per deal who called and each hand's total) in
 * local storage, builds the form for the next deal with its number pad, and
 * sends the whole sheet, with one change, to dhumbal.table.web (op "scorepad"): the
 * engine settles every deal from the start and sends back the sheet drawn
 * (totals, each deal with one line per seat saying why, the standings and each
 * player's figures), who deals next and who plays, the CSV export, or the
 * reason it refuses the change (then nothing is kept and the entries stay for
 * mending). Until the engine is ready the pad takes input; a change waits and
 * is settled the moment the engine answers. The engine's last answer is kept
 * too, so a reload shows the sheet at once.
 *
 * A shared link (#pad=…) holds the sheet as base64url UTF-8 JSON. It is read
 * within bounds (length, characters, nesting depth) before it is parsed, and
 * the engine reads it again; a link that fails either gets a notice and leaves
 * the reader's own sheet as it was, and a link never replaces a sheet with
 * deals without the reader's say. Nothing leaves the device except by Share.
 *
 * Works with Material's instant navigation (document$) and a strict
 * Content-Security-Policy: no inline script, no eval.
 */
(function () {
  "use strict";

  var STORE = "dhumbal-scorepad";
  var STORE_VERSION = 1;
  var MAX_STORED = 400000; // characters of the kept state
  var MAX_LINK = 24000; // characters of a link's payload
  var MAX_DEPTH = 6; // a sheet nests 4 deep (sheet, deals, deal, hands)
  var MAX_DIGITS = 3;

  // -- bounded JSON -------------------------------------------------------------------

  // How deeply arrays and objects nest in `text`, strings skipped, in one pass.
  function nesting(text) {
    var depth = 0;
    var most = 0;
    var inString = false;
    for (var i = 0; i < text.length; i++) {
      var c = text.charCodeAt(i);
      if (inString) {
        if (c === 92) i++; // a backslash: the next character is escaped
        else if (c === 34) inString = false;
      } else if (c === 34) {
        inString = true;
      } else if (c === 91 || c === 123) {
        depth++;
        if (depth > most) most = depth;
      } else if (c === 93 || c === 125) {
        depth--;
      }
    }
    return most;
  }

  function boundedParse(text, maxChars) {
    if (typeof text !== "string" || text.length > maxChars || nesting(text) > MAX_DEPTH) return null;
    try {
      return JSON.parse(text);
    } catch (e) {
      return null;
    }
  }

  function isObject(v) {
    return !!v && typeof v === "object" && !Array.isArray(v);
  }

  // The shape of a sheet, checked before it is used at all (the engine checks every value again).
  function looksLikeSheet(s) {
    return isObject(s) && s.v === 1 && typeof s.profile === "string" && s.profile.length <= 400 &&
      Array.isArray(s.names) && s.names.length >= 2 && s.names.length <= 6 &&
      s.names.every(function (n) { return typeof n === "string" && n.length <= 80; }) &&
      typeof s.dealer === "number" && Array.isArray(s.deals) && s.deals.length <= 300 &&
      s.deals.every(function (d) {
        return isObject(d) && Array.isArray(d.h) && d.h.length === s.names.length &&
          d.h.every(function (h) { return h === null || typeof h === "number"; }) &&
          (d.c === null || typeof d.c === "number");
      });
  }

  function toBase64Url(text) {
    var bytes = new TextEncoder().encode(text);
    var bin = "";
    for (var i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]);
    return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function fromBase64Url(text) {
    if (text.length > MAX_LINK || !/^[A-Za-z0-9_-]*$/.test(text)) return null;
    try {
      var bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
      var bytes = new Uint8Array(bin.length);
      for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch (e) {
      return null;
    }
  }

  // -- the kept state ---------------------------------------------------------------------

  function loadState() {
    var text = null;
    try {
      text = window.localStorage.getItem(STORE);
    } catch (e) {
      return { state: null, bad: false };
    }
    if (text === null) return { state: null, bad: false };
    var data = boundedParse(text, MAX_STORED);
    if (!isObject(data) || data.v !== STORE_VERSION || (data.sheet !== null && !looksLikeSheet(data.sheet))) {
      return { state: null, bad: true };
    }
    return { state: data, bad: false };
  }

  function element(tag, attrs, text) {
    var el = document.createElement(tag);
    for (var k in attrs || {}) {
      if (attrs[k] === true) el.setAttribute(k, "");
      else if (attrs[k] !== false && attrs[k] !== null && attrs[k] !== undefined) el.setAttribute(k, attrs[k]);
    }
    if (text !== undefined) el.textContent = text;
    return el;
  }

  // -- the pad ---------------------------------------------------------------------------------

  function Pad(root) {
    this.root = root;
    this.lang = root.getAttribute("data-lang") || "en";
    this.digits = root.getAttribute("data-digits") || "0123456789";
    try {
      this.s = JSON.parse(root.getAttribute("data-strings") || "{}");
    } catch (e) {
      this.s = {};
    }
    this.status = root.querySelector("[data-pad-status]");
    this.setupForm = root.querySelector("[data-pad-setup]");
    this.match = root.querySelector("[data-pad-match]");
    this.entry = root.querySelector("[data-pad-entry]");
    this.places = {
      head: root.querySelector("[data-pad-head]"),
      totals: root.querySelector("[data-pad-totals]"),
      latest: root.querySelector("[data-pad-latest]"),
      end: root.querySelector("[data-pad-end-parts]"),
      earlier: root.querySelector("[data-pad-earlier]")
    };
    this.ask = root.querySelector("[data-pad-ask]");
    this.linkAsk = root.querySelector("[data-pad-link-ask]");
    this.linkBox = root.querySelector("[data-pad-link]");
    this.state = { v: STORE_VERSION, sheet: null, setup: null, view: null, pending: null, draft: null };
    this.busy = false;
    this.inflight = null; // the change on its way to the engine
    this.redraw = false; // the sheet is to be drawn again by the engine (another language, a new set-up)
    this.field = 0; // the hand field the number pad types into
    this.engineStarted = false;
    var self = this;
    root.addEventListener("click", function (ev) { self.onClick(ev); });
    root.addEventListener("submit", function (ev) { self.onSubmit(ev); });
    root.addEventListener("input", function (ev) { self.onInput(ev); });
    root.addEventListener("change", function (ev) { self.onChange(ev); });
    root.addEventListener("keydown", function (ev) { self.onKey(ev); });
    root.addEventListener("focusin", function (ev) { self.onFocus(ev); });
    // Using the pad is intent enough: the engine starts while the names are typed (on a
    // line the browser asks to spare, only when there is a deal to settle).
    root.addEventListener("pointerdown", function () { self.startEngine(true); });
    root.addEventListener("focusin", function () { self.startEngine(true); });
    // A link pasted into this page's address: read as on arrival.
    window.addEventListener("hashchange", function () {
      if (!document.contains(root)) return;
      var hash = window.location.hash || "";
      if (hash.indexOf("#pad=") === 0) self.readLink(hash.slice(5));
    });
    this.init();
  }

  Pad.prototype.t = function (key, params) {
    var text = this.s[key] || "";
    for (var k in params || {}) text = text.split("{" + k + "}").join(params[k]);
    return text;
  };

  Pad.prototype.num = function (n) {
    var digits = this.digits;
    return String(n).replace(/[0-9]/g, function (d) { return digits.charAt(+d); });
  };

  Pad.prototype.say = function (text, urgent) {
    if (!this.status) return;
    this.status.setAttribute("role", urgent ? "alert" : "status");
    this.status.textContent = text || "";
    this.status.hidden = !text;
  };

  Pad.prototype.save = function () {
    try {
      window.localStorage.setItem(STORE, JSON.stringify(this.state));
    } catch (e) { /* private mode or full: the sheet lives as long as the page */ }
  };

  Pad.prototype.init = function () {
    var kept = loadState();
    if (kept.state) {
      this.state = kept.state;
      if (!("pending" in this.state)) this.state.pending = null;
    }
    this.fillSetup();
    this.render();
    if (kept.bad) {
      this.save();
      this.say(this.t("store_bad"), true);
    }
    var hash = window.location.hash || "";
    if (hash.indexOf("#pad=") === 0) {
      this.readLink(hash.slice(5));
    } else if (this.state.sheet) {
      this.startEngine(true);
      var view = this.state.view;
      if (this.state.pending) this.flush();
      else if (!view || view.lang !== this.lang) this.send(null);
    }
  };

  // -- the engine ----------------------------------------------------------------------------------

  Pad.prototype.runtime = function () {
    return window.DhumbalRuntime || null;
  };

  // As the table does: a browser that asks to save data, or a 2G/3G line, waits for a press.
  function spareTheLine() {
    var c = navigator.connection;
    return !!(c && (c.saveData || /(^|-)(2g|3g)$/.test(c.effectiveType || "")));
  }

  Pad.prototype.startEngine = function (early) {
    var rt = this.runtime();
    if (!rt || this.engineStarted || (early && spareTheLine())) return;
    this.engineStarted = true;
    var self = this;
    rt.onStatus(function (status) {
      if (status === "error" && (self.busy || self.state.pending)) self.showFailure();
    });
    rt.ensure().catch(function () {});
  };

  Pad.prototype.showFailure = function () {
    this.say(this.t("failed"), true);
    var self = this;
    var retry = element("button", { type: "button", "class": "md-button dhp-btn" }, this.t("retry"));
    retry.addEventListener("click", function () {
      var rt = self.runtime();
      self.say("");
      if (rt) rt.retry().catch(function () {});
      self.busy = false;
      self.flush();
    });
    this.status.appendChild(document.createTextNode(" "));
    this.status.appendChild(retry);
  };

  // Send the sheet with `change` (or none, to draw it again); one request at a time.
  Pad.prototype.send = function (change) {
    this.state.pending = change ? change : this.state.pending;
    if (!change && !this.state.pending) this.redraw = true;
    this.save();
    this.flush();
  };

  Pad.prototype.flush = function () {
    var rt = this.runtime();
    if (this.busy || !rt || !this.state.sheet) return;
    var change = this.state.pending;
    if (!change && !this.redraw) return;
    this.redraw = false;
    this.busy = true;
    this.inflight = change;
    this.startEngine();
    if (rt.status !== "ready") {
      this.say(change ? this.t("waiting", { number: this.num(this.changeNumber(change)) }) : this.t("loading"));
    }
    this.markBusy(true);
    var req = { op: "scorepad", lang: this.lang, sheet: this.state.sheet };
    if (this.state.setup) req.setup = this.state.setup;
    if (change) req.change = change;
    var self = this;
    rt.request(req).then(function (res) {
      self.busy = false;
      self.inflight = null;
      self.markBusy(false);
      self.answered(res, change);
      self.flush();
    }, function () {
      self.busy = false;
      self.inflight = null;
      self.markBusy(false);
      self.showFailure();
    });
  };

  Pad.prototype.changeNumber = function (change) {
    if (change.kind === "edit" || change.kind === "undo") return change.index;
    return this.state.sheet ? this.state.sheet.deals.length + 1 : 1;
  };

  Pad.prototype.markBusy = function (busy) {
    this.root.setAttribute("data-busy", busy ? "true" : "false");
  };

  Pad.prototype.answered = function (res, change) {
    if (!res || !res.ok) {
      var text = res && res.error ? res.error.text : "";
      this.state.pending = null;
      if (this.state.setup) {
        // The set-up the reader typed: back to the form, with the engine's reason.
        this.state.sheet = null;
        this.state.setup = null;
        this.save();
        this.render();
        this.say(text, true);
        return;
      }
      // A kept sheet the engine cannot read any more: start again, and say so.
      this.state = { v: STORE_VERSION, sheet: null, setup: null, view: null, pending: null, draft: null };
      this.save();
      this.render();
      this.say((text ? text + " " : "") + this.t("store_bad"), true);
      return;
    }
    this.state.setup = null;
    this.state.sheet = res.sheet;
    this.state.view = {
      lang: res.lang, parts: res.parts, next: res.next, over: res.over, overByRules: res.over_by_rules,
      names: res.names, csv: res.csv, deals: res.deals
    };
    if (this.state.pending === change) this.state.pending = null;
    if (res.refusal) {
      this.save();
      this.render();
      this.say(res.refusal.text, true);
      if (typeof res.refusal.seat === "number") this.focusHand(res.refusal.seat);
      return;
    }
    if (change && (change.kind === "add" || change.kind === "edit")) this.state.draft = null;
    this.save();
    this.render();
    this.say(res.said || "");
    if (change && (change.kind === "add" || change.kind === "edit")) {
      var shown = this.places.latest.querySelector("summary");
      if (change.kind === "edit") {
        var deal = this.root.querySelector('[data-deal="' + change.index + '"]');
        if (deal) {
          deal.open = true;
          shown = deal.querySelector("summary");
        }
      }
      if (shown) shown.focus();
    }
  };

  // -- drawing ------------------------------------------------------------------------------------

  Pad.prototype.render = function () {
    var sheet = this.state.sheet;
    this.setupForm.hidden = !!sheet;
    this.match.hidden = !sheet;
    if (!sheet) {
      for (var k in this.places) this.places[k].innerHTML = "";
      this.entry.innerHTML = "";
      return;
    }
    var view = this.state.view && this.state.view.lang === this.lang ? this.state.view : null;
    var parts = view ? view.parts : {};
    for (var key in this.places) this.places[key].innerHTML = parts[key] || "";
    var over = view ? view.over : false;
    this.tool("[data-pad-end]").hidden = over || !view;
    this.tool("[data-pad-reopen]").hidden = !(view && view.over && !view.overByRules);
    this.tool("[data-pad-csv]").hidden = !(view && view.deals);
    this.drawEntry(view);
  };

  Pad.prototype.tool = function (selector) {
    return this.match.querySelector(selector);
  };

  // The next deal as the engine said it comes (or, before its first answer, the set-up's first dealer).
  Pad.prototype.nextDeal = function (view) {
    var sheet = this.state.sheet;
    var draft = this.state.draft;
    if (draft && draft.editing) {
      var entry = sheet.deals[draft.editing - 1];
      var title = this.root.querySelector('[data-deal="' + draft.editing + '"] .dhp-deal__title');
      return {
        number: draft.editing, editing: true,
        title: title ? title.textContent : this.t("deal_plain", { number: this.num(draft.editing) }),
        active: entry.h.map(function (h, i) { return h === null ? -1 : i; }).filter(function (i) { return i >= 0; }),
        nobody: view ? !!(view.next ? view.next.nobody : this.turnCap()) : this.turnCap(),
        cap: view && view.next ? view.next.cap : this.capCount()
      };
    }
    if (view) {
      if (!view.next) return null;
      return {
        number: view.next.number, title: this.t("deal_title", { number: this.num(view.next.number), name: sheet.names[view.next.dealer] }),
        active: view.next.active, nobody: view.next.nobody, cap: view.next.cap
      };
    }
    if (sheet.deals.length) return { number: sheet.deals.length + 1, waiting: true, active: [], nobody: false };
    return {
      number: 1, title: this.t("deal_title", { number: this.num(1), name: sheet.names[sheet.dealer] || "" }),
      active: sheet.names.map(function (_, i) { return i; }), nobody: this.turnCap(), cap: this.capCount()
    };
  };

  Pad.prototype.profileKey = function () {
    var sheet = this.state.sheet;
    return sheet ? sheet.profile.split("(")[0] : "";
  };

  Pad.prototype.turnCap = function () {
    var box = this.root.querySelector('[data-pad-options="' + this.profileKey() + '"]');
    return !!(box && box.getAttribute("data-turn-cap"));
  };

  Pad.prototype.capCount = function () {
    var box = this.root.querySelector('[data-pad-options="' + this.profileKey() + '"]');
    return box ? +box.getAttribute("data-turn-cap") || null : null;
  };

  Pad.prototype.drawEntry = function (view) {
    var form = this.entry;
    form.innerHTML = "";
    var next = this.nextDeal(view);
    form.hidden = !next;
    if (!next) return;
    var sheet = this.state.sheet;
    var draft = this.state.draft;
    if (!draft || (draft.editing || 0) !== (next.editing ? next.number : 0)) {
      draft = { editing: 0, caller: undefined, hands: sheet.names.map(function () { return ""; }) };
    }
    this.state.draft = draft;
    var heading = element("h2", { "class": "dhp-h dhp-entry__title", id: "dhp-entry-title" },
      next.title || this.t("deal_plain", { number: this.num(next.number) }));
    form.setAttribute("aria-labelledby", "dhp-entry-title");
    form.appendChild(heading);
    if (next.editing) {
      var note = element("p", { "class": "dhp-editing" }, this.t("editing", { number: this.num(next.number) }) + " ");
      note.appendChild(element("button", { type: "button", "class": "md-button dhp-btn", "data-pad-cancel": true }, this.t("cancel")));
      form.appendChild(note);
    }
    if (next.waiting) {
      form.appendChild(element("p", { "class": "dhp-hint" }, this.t("loading")));
      return;
    }
    var callers = element("fieldset", { "class": "dhp-callers" });
    callers.appendChild(element("legend", {}, this.t("who_called")));
    var self = this;
    next.active.forEach(function (seat) {
      callers.appendChild(element("button", {
        type: "button", "class": "dhp-caller", "data-caller": String(seat),
        "aria-pressed": draft.caller === seat ? "true" : "false"
      }, sheet.names[seat]));
    });
    if (next.nobody) {
      callers.appendChild(element("button", {
        type: "button", "class": "dhp-caller dhp-caller--nobody", "data-caller": "none",
        "aria-pressed": draft.caller === null ? "true" : "false"
      }, this.t("nobody", { count: this.num(next.cap || "") })));
    }
    form.appendChild(callers);
    var hands = element("fieldset", { "class": "dhp-hands" });
    hands.appendChild(element("legend", {}, this.t("hands")));
    next.active.forEach(function (seat) {
      var row = element("div", { "class": "dhp-hand", "data-seat": String(seat) });
      var id = "dhp-hand-" + seat;
      row.appendChild(element("label", { "for": id, "class": "dhp-hand__name" }, sheet.names[seat]));
      var input = element("input", {
        id: id, type: "text", inputmode: "none", autocomplete: "off", "data-hand": String(seat),
        maxlength: String(MAX_DIGITS), "aria-label": self.t("hand_of", { name: sheet.names[seat] }),
        "class": "dhp-hand__total"
      });
      var value = draft.hands[seat];
      input.value = value === null || value === undefined ? "" : self.num(value);
      row.appendChild(input);
      hands.appendChild(row);
    });
    form.appendChild(hands);
    this.active = next.active.slice();
    if (this.active.indexOf(this.field) < 0) this.field = this.active[0];
    var pad = element("div", { "class": "dhp-keypad", role: "group", "aria-label": this.t("keypad") });
    var keys = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "back", "0", "next"];
    keys.forEach(function (k) {
      var label = k === "back" ? "⌫" : k === "next" ? "→" : self.num(k);
      var attrs = { type: "button", "class": "dhp-key", "data-key": k };
      if (k === "back") attrs["aria-label"] = self.t("backspace");
      if (k === "next") attrs["aria-label"] = self.t("next_field");
      pad.appendChild(element("button", attrs, label));
    });
    pad.appendChild(element("button", { type: "submit", "class": "md-button md-button--primary dhp-settle" },
      this.t(next.editing ? "settle_again" : "settle", { number: this.num(next.number) })));
    form.appendChild(pad);
    this.markField();
  };

  // Typing a hand: the number pad sticks to the bottom of the screen, the field clear above it.
  Pad.prototype.typing = function (on) {
    var form = this.entry;
    form.classList.toggle("dhp-entry--typing", on);
    var pad = form.querySelector(".dhp-keypad");
    if (!on || !pad) return;
    form.style.setProperty("--dhp-keypad", pad.getBoundingClientRect().height + "px");
    var input = form.querySelector('[data-hand="' + this.field + '"]');
    if (input) input.scrollIntoView({ block: "nearest" });
  };

  Pad.prototype.markField = function () {
    var fields = this.entry.querySelectorAll("[data-hand]");
    for (var i = 0; i < fields.length; i++) {
      fields[i].classList.toggle("dhp-hand__total--on", +fields[i].getAttribute("data-hand") === this.field);
    }
  };

  Pad.prototype.focusHand = function (seat) {
    var input = this.entry.querySelector('[data-hand="' + seat + '"]');
    if (!input) return;
    this.field = seat;
    this.markField();
    input.focus();
  };

  // -- the set-up form ---------------------------------------------------------------------------------

  Pad.prototype.profileBox = function () {
    var checked = this.setupForm.querySelector('input[name="profile"]:checked');
    var key = checked ? checked.value : "nepali-games";
    return this.setupForm.querySelector('[data-pad-options="' + key + '"]');
  };

  Pad.prototype.nameRows = function () {
    return Array.prototype.slice.call(this.setupForm.querySelectorAll(".dhp-name"));
  };

  Pad.prototype.players = function () {
    return this.nameRows().filter(function (r) { return !r.hidden; }).length;
  };

  Pad.prototype.fillSetup = function () {
    var boxes = this.setupForm.querySelectorAll("[data-pad-options]");
    var box = this.profileBox();
    for (var i = 0; i < boxes.length; i++) boxes[i].hidden = boxes[i] !== box;
    var low = +box.getAttribute("data-players-low") || 2;
    var high = +box.getAttribute("data-players-high") || 6;
    var rows = this.nameRows();
    var shown = Math.max(low, Math.min(high, this.players()));
    rows.forEach(function (r, k) { r.hidden = k >= shown; });
    this.setupForm.querySelector("[data-pad-add]").hidden = shown >= high;
    this.setupForm.querySelector("[data-pad-remove]").hidden = shown <= low;
    var select = this.setupForm.querySelector('select[name="dealer"]');
    var chosen = select.selectedIndex >= 0 ? select.selectedIndex : 0;
    select.innerHTML = "";
    var self = this;
    rows.slice(0, shown).forEach(function (r, k) {
      var name = r.querySelector("input").value.trim();
      select.appendChild(element("option", { value: String(k) }, name || self.t("player_n", { number: self.num(k + 1) })));
    });
    select.selectedIndex = Math.min(chosen, shown - 1);
  };

  Pad.prototype.startMatch = function () {
    var box = this.profileBox();
    var options = {};
    var controls = box.querySelectorAll("[name^='opt:']");
    for (var i = 0; i < controls.length; i++) {
      // Only the house rules changed from the profile's own: the rest is the profile as written.
      var c = controls[i];
      var standard = c.tagName === "SELECT"
        ? (Array.prototype.filter.call(c.options, function (o) { return o.defaultSelected; })[0] || c.options[0]).value
        : c.defaultValue;
      if (c.value !== standard) options[c.name.slice(4)] = c.value;
    }
    var names = this.nameRows().filter(function (r) { return !r.hidden; }).map(function (r) {
      return r.querySelector("input").value;
    });
    for (var k = 0; k < names.length; k++) {
      if (!names[k].trim()) {  // a name still to write: said at once, not after the engine has started
        this.say(this.t("name_empty", { number: this.num(k + 1) }), true);
        this.nameRows()[k].querySelector("input").focus();
        return;
      }
    }
    var key = box.getAttribute("data-pad-options");
    var dealer = +this.setupForm.querySelector('select[name="dealer"]').value || 0;
    var draft = this.state.draft;  // a first deal typed before the engine refused the set-up is kept
    this.state = {
      v: STORE_VERSION, sheet: { v: 1, profile: key, names: names, dealer: dealer, deals: [], end: false },
      setup: { profile: key, options: options }, view: null, pending: null,
      draft: draft && !draft.editing && draft.hands.length === names.length ? draft : null
    };
    this.field = 0;
    this.save();
    this.say("");
    this.render();
    var first = this.entry.querySelector("[data-caller]");
    if (first) first.focus();
    this.send(null);
  };

  // -- events --------------------------------------------------------------------------------------

  Pad.prototype.onSubmit = function (ev) {
    ev.preventDefault();
    if (ev.target === this.setupForm) this.startMatch();
    else if (ev.target === this.entry) this.settle();
  };

  Pad.prototype.settle = function () {
    var draft = this.state.draft;
    // One change at a time: a second press while one is on its way is not a second deal.
    if (!draft || this.inflight || this.state.pending) return;
    if (draft.caller === undefined) {
      this.say(this.t("no_caller"), true);
      var first = this.entry.querySelector("[data-caller]");
      if (first) first.focus();
      return;
    }
    var sheet = this.state.sheet;
    var active = this.active || [];
    var hands = sheet.names.map(function (_, i) {
      if (active.indexOf(i) < 0) return null;
      var v = draft.hands[i];
      return v === "" || v === null || v === undefined ? null : +v;
    });
    var change = { kind: draft.editing ? "edit" : "add", c: draft.caller, h: hands };
    if (draft.editing) change.index = draft.editing;
    this.send(change);
  };

  Pad.prototype.onInput = function (ev) {
    var target = ev.target;
    if (target.hasAttribute && target.hasAttribute("data-hand")) {
      this.setHand(+target.getAttribute("data-hand"), target.value);
    } else if (this.setupForm.contains(target)) {
      this.fillSetup();
    }
  };

  Pad.prototype.onChange = function (ev) {
    if (this.setupForm.contains(ev.target) && ev.target.name === "profile") this.fillSetup();
  };

  // A hand's total as typed: digits only (the page's or Latin ones), at most three.
  Pad.prototype.setHand = function (seat, text) {
    var latin = String(text).replace(/[०-९]/g, function (d) { return String(d.charCodeAt(0) - 0x0966); })
      .replace(/[^0-9]/g, "").slice(0, MAX_DIGITS);
    var draft = this.state.draft;
    if (!draft) return;
    draft.hands[seat] = latin === "" ? "" : String(+latin);
    var input = this.entry.querySelector('[data-hand="' + seat + '"]');
    if (input) {
      var shown = draft.hands[seat] === "" ? "" : this.num(draft.hands[seat]);
      if (input.value !== shown) input.value = shown;
    }
    this.save();
  };

  Pad.prototype.press = function (key) {
    var draft = this.state.draft;
    if (!draft) return;
    var seat = this.field;
    if (key === "next") {
      this.moveField(1);
      return;
    }
    var now = String(draft.hands[seat] === undefined || draft.hands[seat] === null ? "" : draft.hands[seat]);
    if (key === "back") now = now.slice(0, -1);
    else if (now.length < MAX_DIGITS) now = now === "0" ? key : now + key;
    this.setHand(seat, now);
  };

  Pad.prototype.moveField = function (step) {
    var active = this.active || [];
    var i = active.indexOf(this.field);
    if (i < 0 || !active.length) return;
    var next = active[(i + step + active.length) % active.length];
    var input = this.entry.querySelector('[data-hand="' + next + '"]');
    this.field = next;
    this.markField();
    if (input && document.activeElement && document.activeElement.hasAttribute &&
        document.activeElement.hasAttribute("data-hand")) input.focus();
    this.typing(true);
  };

  Pad.prototype.onFocus = function (ev) {
    var t = ev.target;
    if (t.hasAttribute && t.hasAttribute("data-hand")) {
      this.field = +t.getAttribute("data-hand");
      this.markField();
      this.typing(true);
    } else if (!(t.closest && t.closest(".dhp-keypad"))) {
      this.typing(false);
    }
  };

  Pad.prototype.onKey = function (ev) {
    var t = ev.target;
    if (!(t.hasAttribute && t.hasAttribute("data-hand"))) return;
    if (ev.key === "Enter") {
      ev.preventDefault();
      var active = this.active || [];
      if (active.indexOf(this.field) === active.length - 1) this.settle();
      else this.moveField(1);
    }
  };

  Pad.prototype.onClick = function (ev) {
    var t = ev.target.closest ? ev.target.closest("button") : null;
    if (!t || !this.root.contains(t)) return;
    if (t.hasAttribute("data-key")) {
      this.press(t.getAttribute("data-key"));
      if (!this.entry.classList.contains("dhp-entry--typing")) this.typing(true);
    } else if (t.hasAttribute("data-caller")) {
      var v = t.getAttribute("data-caller");
      this.state.draft.caller = v === "none" ? null : +v;
      var all = this.entry.querySelectorAll("[data-caller]");
      for (var i = 0; i < all.length; i++) all[i].setAttribute("aria-pressed", all[i] === t ? "true" : "false");
      this.save();
    } else if (t.hasAttribute("data-pad-add") || t.hasAttribute("data-pad-remove")) {
      var rows = this.nameRows();
      var n = this.players() + (t.hasAttribute("data-pad-add") ? 1 : -1);
      rows.forEach(function (r, k) { r.hidden = k >= n; });
      this.fillSetup();
      if (t.hasAttribute("data-pad-add")) rows[n - 1].querySelector("input").focus();
      else (this.setupForm.querySelector("[data-pad-remove]:not([hidden])") ||
            this.setupForm.querySelector("[data-pad-add]")).focus();
    } else if (t.hasAttribute("data-pad-edit")) {
      this.edit(+t.getAttribute("data-pad-edit"));
    } else if (t.hasAttribute("data-pad-cancel")) {
      this.state.draft = null;
      this.save();
      this.render();
      var first = this.entry.querySelector("[data-caller]");
      if (first) first.focus();
    } else if (t.hasAttribute("data-pad-undo")) {
      this.confirm(t.parentNode, this.t("confirm_undo", { number: this.num(t.getAttribute("data-pad-undo")) }),
        this.t("yes_undo"), { kind: "undo", index: +t.getAttribute("data-pad-undo") });
    } else if (t.hasAttribute("data-pad-new")) {
      this.confirm(this.ask, this.t("confirm_new"), this.t("yes_new"), "new");
    } else if (t.hasAttribute("data-pad-end")) {
      this.send({ kind: "end" });
    } else if (t.hasAttribute("data-pad-reopen")) {
      this.send({ kind: "reopen" });
    } else if (t.hasAttribute("data-pad-share")) {
      this.share();
    } else if (t.hasAttribute("data-pad-csv")) {
      this.exportCsv();
    }
  };

  Pad.prototype.edit = function (number) {
    var entry = this.state.sheet.deals[number - 1];
    if (!entry) return;
    this.state.draft = {
      editing: number, caller: entry.c,
      hands: entry.h.map(function (h) { return h === null ? "" : String(h); })
    };
    this.field = entry.h.findIndex(function (h) { return h !== null; });
    this.save();
    this.drawEntry(this.state.view && this.state.view.lang === this.lang ? this.state.view : null);
    this.entry.scrollIntoView({ block: "start" });
    var pressed = this.entry.querySelector('[data-caller][aria-pressed="true"]') || this.entry.querySelector("[data-caller]");
    if (pressed) pressed.focus({ preventScroll: true });
  };

  // A question asked in place, with its two answers; `then` is a change to send or "new".
  Pad.prototype.confirm = function (place, question, yes, then) {
    var box = this.ask;
    box.innerHTML = "";
    box.appendChild(element("p", {}, question));
    var row = element("p", { "class": "dhp-row" });
    var ok = element("button", { type: "button", "class": "md-button md-button--primary dhp-btn" }, yes);
    var no = element("button", { type: "button", "class": "md-button dhp-btn" }, this.t("no"));
    row.appendChild(ok);
    row.appendChild(no);
    box.appendChild(row);
    if (place && place !== box) place.parentNode.insertBefore(box, place.nextSibling);
    box.hidden = false;
    var self = this;
    var origin = document.activeElement;
    function close() {
      box.hidden = true;
      box.innerHTML = "";
      self.match.appendChild(box); // back to its place among the tools
    }
    ok.addEventListener("click", function () {
      close();
      if (then === "new") {
        self.state = { v: STORE_VERSION, sheet: null, setup: null, view: null, pending: null, draft: null };
        self.save();
        self.render();
        self.say("");
        var name = self.setupForm.querySelector("input[name='name']");
        if (name) name.focus();
      } else {
        self.send(then);
      }
    });
    no.addEventListener("click", function () {
      close();
      if (origin && origin.focus && document.contains(origin)) origin.focus();
    });
    no.focus();
  };

  // -- sharing -------------------------------------------------------------------------------------

  Pad.prototype.link = function () {
    var url = window.location.href.split("#")[0];
    return url + "#pad=" + toBase64Url(JSON.stringify(this.state.sheet));
  };

  Pad.prototype.share = function () {
    if (!this.state.sheet) return;
    var link = this.link();
    var self = this;
    function show() {
      self.linkBox.hidden = false;
      var input = self.linkBox.querySelector("input");
      input.value = link;
      input.focus();
      input.select();
    }
    if (navigator.share) {
      navigator.share({ url: link }).catch(function () {});
      return;
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(link).then(function () {
        self.say(self.t("copied"));
        self.linkBox.hidden = true;
      }, show);
      return;
    }
    show();
  };

  Pad.prototype.exportCsv = function () {
    var view = this.state.view;
    if (!view || !view.csv) return;
    var blob = new Blob(["\ufeff" + view.csv], { type: "text/csv;charset=utf-8" });
    var a = element("a", { href: URL.createObjectURL(blob), download: (this.t("file_name") || "dhumbal") + ".csv" });
    document.body.appendChild(a);
    a.click();
    setTimeout(function () {
      URL.revokeObjectURL(a.href);
      a.remove();
    }, 0);
  };

  Pad.prototype.readLink = function (payload) {
    // The link is read once: the address keeps no sheet after this.
    try {
      history.replaceState(history.state, "", window.location.href.split("#")[0]);
    } catch (e) { /* a page that cannot change its address still reads the link */ }
    var text = fromBase64Url(payload);
    var sheet = text === null ? null : boundedParse(text, MAX_LINK);
    if (!looksLikeSheet(sheet)) {
      this.say(this.t("link_bad"), true);
      if (this.state.sheet) this.startEngine(true);
      return;
    }
    var own = this.state.sheet;
    if (own && own.deals.length && JSON.stringify(own) !== JSON.stringify(sheet)) {
      var box = this.linkAsk;
      box.innerHTML = "";
      box.appendChild(element("p", {}, this.t("link_ask")));
      var row = element("p", { "class": "dhp-row" });
      var open = element("button", { type: "button", "class": "md-button md-button--primary dhp-btn" }, this.t("link_open"));
      var keep = element("button", { type: "button", "class": "md-button dhp-btn" }, this.t("link_keep"));
      row.appendChild(open);
      row.appendChild(keep);
      box.appendChild(row);
      box.hidden = false;
      var self = this;
      open.addEventListener("click", function () {
        box.hidden = true;
        self.openShared(sheet);
      });
      keep.addEventListener("click", function () {
        box.hidden = true;
        self.startEngine(true);
      });
      keep.focus();
      return;
    }
    this.openShared(sheet);
  };

  // A shared sheet becomes the reader's own only once the engine has read and settled it.
  Pad.prototype.openShared = function (sheet) {
    var rt = this.runtime();
    if (!rt) return;
    this.startEngine();
    this.say(this.t("loading"));
    var self = this;
    rt.request({ op: "scorepad", lang: this.lang, sheet: sheet }).then(function (res) {
      if (!res || !res.ok) {
        self.say(self.t("link_bad"), true);
        return;
      }
      self.state = { v: STORE_VERSION, sheet: null, setup: null, view: null, pending: null, draft: null };
      self.answered(res, null);
      self.say(self.t("link_opened"));
    }, function () {
      self.showFailure();
    });
  };

  function setup() {
    var roots = document.querySelectorAll("[data-dhumbal-scorepad]");
    for (var i = 0; i < roots.length; i++) {
      if (!roots[i].__dhumbalScorepad) roots[i].__dhumbalScorepad = new Pad(roots[i]);
    }
  }

  window.DhumbalPage.each(setup);
})();
