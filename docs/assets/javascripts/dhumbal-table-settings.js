/*
 * The mini table, the settings: the form that starts a new match with other
 * rules (the engine draws the fields for the chosen rules), and the reader's
 * display preferences kept in this browser (pace of the bots' moves,
 * four-colour suits, sound and vibration). See dhumbal-table-core.js.
 */
(function () {
  "use strict";

  var T = window.DhumbalTable;
  var Table = T.Table;
  var prefs = T.prefs;
  var savePrefs = T.savePrefs;

  Table.prototype.showPrefs = function () {
    var p = prefs();
    var speed = this.root.querySelector("[data-dht-speed]");
    var four = this.root.querySelector("[data-dht-4c]");
    var sound = this.root.querySelector("[data-dht-sound]");
    var vibrate = this.root.querySelector("[data-dht-vibrate]");
    if (speed) speed.value = p.speed;
    if (four) four.checked = p.fourColour;
    if (sound) sound.checked = p.sound;
    if (vibrate) vibrate.checked = p.vibrate;
  };

  Table.prototype.onSubmit = function (ev) {
    var form = ev.target;
    if (!form.matches || !form.matches("[data-dht-settings]")) return;
    ev.preventDefault();
    if (!this.live) {
      this.pressPlay(); // as Play (or New game, asked first over a game in progress)
      return;
    }
    var options = {};
    var payload = { op: "new", options: options };
    var fields = form.elements;
    for (var i = 0; i < fields.length; i++) {
      var f = fields[i];
      if (!f.name) continue;
      if (f.name.indexOf("opt:") === 0) options[f.name.slice(4)] = f.value;
      else if (f.name === "profile" || f.name === "difficulty") payload[f.name] = f.value;
    }
    var self = this;
    // over a game in progress, asked first (dhumbal-table-resume.js)
    this.startFresh(function () {
      self.played = true;
      self.send(payload).then(function () { self.showNewDeal(); }, function () {});
    });
  };

  // After "Start a new match": the new deal in view (the settings, opened over
  // the full table, close; on the page, the board comes into view), the focus
  // on its first control.
  Table.prototype.showNewDeal = function () {
    var details = this.root.querySelector("details.dht-settings");
    if (this.full && details) details.open = false;
    var top = this.board.getBoundingClientRect().top;
    // The table's heading line (Share, Full table) comes with it.
    if (!this.full && (top < 0 || top > innerHeight * 0.5)) this.root.scrollIntoView({ block: "start" });
    this.refocus("");
  };

  Table.prototype.onChange = function (ev) {
    var el = ev.target;
    if (!el.matches) return;
    if (el.matches("[data-dht-speed], [data-dht-4c], [data-dht-sound], [data-dht-vibrate]")) {
      var p = prefs();
      if (el.matches("[data-dht-speed]")) p.speed = el.value;
      else if (el.matches("[data-dht-4c]")) p.fourColour = el.checked;
      else if (el.matches("[data-dht-sound]")) p.sound = el.checked;
      else p.vibrate = el.checked;
      savePrefs(p);
      // Turned on: once now, to hear (or feel) what it will be.
      if (el.checked && el.matches("[data-dht-sound]") && T.cue) T.cue("turn", "sound");
      if (el.checked && el.matches("[data-dht-vibrate]") && T.cue) T.cue("turn", "vibrate");
      return;
    }
    if (!el.matches("[data-dht-profile]") || !this.live) return;
    var form = el.form;
    var difficulty = form && form.elements.difficulty ? form.elements.difficulty.value : undefined;
    this.send({ op: "settings", profile: el.value, difficulty: difficulty });
  };

})();
