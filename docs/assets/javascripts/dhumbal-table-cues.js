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

  // Once an answer is shown in full: a caught call that has just ended the deal,
  // or the turn back to the reader after the bots' moves.
  T.on("shown", function (table, result, payload) {
    var area = table.board.querySelector(".dht-play-area");
    if (!area || !result || !result.summary) return;
    var moved = payload && (payload.op === "act" || payload.op === "next-deal");
    var over = area.getAttribute("data-over") === "true";
    var wasOver = table.cueOver;
    table.cueOver = over;
    if (over) {
      if (moved && !wasOver && area.getAttribute("data-caught") === "true") T.cue("caught");
      return;
    }
    var bots = result.playback && result.playback.frames && result.playback.frames.length;
    if (moved && result.summary.your_turn && bots) T.cue("turn");
  });
})();
