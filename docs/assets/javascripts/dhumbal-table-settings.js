/*
 * The mini table, the settings: the form that starts a new match with other
 * rules (the engine draws the fields for the chosen rules), and the reader's
 * display preferences kept in this browser (pace of the bots' moves,
 * four-colour suits). See dhumbal-table-core.js.
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
    if (speed) speed.value = p.speed;
    if (four) four.checked = p.fourColour;
  };

  Table.prototype.onSubmit = function (ev) {
    var form = ev.target;
    if (!form.matches || !form.matches("[data-dht-settings]")) return;
    ev.preventDefault();
    if (!this.live) {
      this.intent("play");
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
    this.played = true;
    this.send(payload);
  };

  Table.prototype.onChange = function (ev) {
    var el = ev.target;
    if (!el.matches) return;
    if (el.matches("[data-dht-speed], [data-dht-4c]")) {
      var p = prefs();
      if (el.matches("[data-dht-speed]")) p.speed = el.value;
      else p.fourColour = el.checked;
      savePrefs(p);
      return;
    }
    if (!el.matches("[data-dht-profile]") || !this.live) return;
    var form = el.form;
    var difficulty = form && form.elements.difficulty ? form.elements.difficulty.value : undefined;
    this.send({ op: "settings", profile: el.value, difficulty: difficulty });
  };

})();
