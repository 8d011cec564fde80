/*
 * The mini table, cues beyond the screen: a short sound and a vibration
 * when it becomes the reader's turn and when a call is caught. Both are
 * off until the reader turns them on in the settings (kept in local
 * storage with the other display preferences). The sound is made in the
 * browser (Web Audio, no file to download); the vibration only where the
 * device has one (navigator.vibrate). See dhumbal-table-core.js.
 */
(function () {
  "use strict";

  var T = window.DhumbalTable;
  var audio = null;

  function tones(list) {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    try {
      if (!audio) audio = new Ctx();
      if (audio.state === "suspended") audio.resume();
      var at = audio.currentTime + 0.02;
      list.forEach(function (tone) {
        var osc = audio.createOscillator();
        var gain = audio.createGain();
        osc.type = "sine";
        osc.frequency.value = tone[0];
        gain.gain.setValueAtTime(0.0001, at);
        gain.gain.exponentialRampToValueAtTime(0.18, at + 0.015);
        gain.gain.exponentialRampToValueAtTime(0.0001, at + tone[1]);
        osc.connect(gain);
        gain.connect(audio.destination);
        osc.start(at);
        osc.stop(at + tone[1] + 0.02);
        at += tone[1] + 0.04;
      });
    } catch (e) { /* no sound here: the screen says it all the same */ }
  }

  var CUES = {
    turn: { tones: [[660, 0.09], [880, 0.12]], buzz: [60] },
    caught: { tones: [[330, 0.16], [220, 0.28]], buzz: [90, 60, 90] }
  };

  // Which cue a board calls for, if any (`was`: the board before it).
  function cueFor(area, was) {
    if (!area) return null;
    var over = area.getAttribute("data-over") === "true";
    if (over && area.getAttribute("data-caught") === "true" && !(was && was.over)) return "caught";
    var mine = area.getAttribute("data-your-turn") === "true";
    if (mine && was && !was.mine) return "turn";
    return null;
  }

  T.cueLog = []; // which cues were given (tests and tools read it)

  // `force`: a preview of the cue as the reader turns it on (a press: sound may start).
  T.cue = function (name, force) {
    var p = T.prefs();
    if (force) {
      p.sound = force === "sound";
      p.vibrate = force === "vibrate";
    }
    var cue = CUES[name];
    if (!cue) return;
    T.cueLog.push({ cue: name, sound: p.sound, vibrate: p.vibrate });
    if (p.sound) tones(cue.tones);
    if (p.vibrate && navigator.vibrate) {
      try { navigator.vibrate(cue.buzz); } catch (e) { /* not allowed here */ }
    }
  };

  T.on("board", function (table) {
    var area = table.board.querySelector(".dht-play-area");
    var was = table.cueState || null;
    var name = cueFor(area, was);
    table.cueState = area ? {
      over: area.getAttribute("data-over") === "true",
      mine: area.getAttribute("data-your-turn") === "true"
    } : null;
    if (name && was) T.cue(name);
  });
})();
