/*
 * The mini table, the felt: the bots' moves played back one at a time on the
 * acting seat (the engine drew the felt after each move), at the reader's
 * pace; a new request shows the rest at once. See dhumbal-table-core.js.
 */
(function () {
  "use strict";

  var T = window.DhumbalTable;
  var Table = T.Table;

  // The bots' moves, one at a time: the board before them, then the felt after
  // each move (the engine drew every picture), then the answer's board.
  Table.prototype.playBack = function (result, payload, pace) {
    var self = this;
    var pb = result.playback;
    var root = this.root;
    var hadFocus = this.board.contains(document.activeElement);
    var key = this.focusKey();
    this.render({ settings_html: result.settings_html, hash: null }, pb.html, pb.say);
    if (hadFocus) this.board.focus({ preventScroll: true });
    root.setAttribute("data-busy", "true");
    return new Promise(function (resolve) {
      var i = 0;
      var timer = null;
      var done = false;
      var finish = function () {
        if (done) return;
        done = true;
        clearTimeout(timer);
        self.playing = null;
        root.removeAttribute("data-busy");
        if (!root.isConnected) return resolve();
        var focused = self.board.contains(document.activeElement) || document.activeElement === self.board;
        result.settings_html = null;
        self.render(result, result.html, pb.end);
        if (focused || hadFocus) self.refocus(key || "");
        resolve();
      };
      var step = function () {
        if (done) return;
        if (!root.isConnected) return finish();
        if (i >= pb.frames.length) return finish();
        var frame = pb.frames[i++];
        var felt = self.board.querySelector(".dht-felt");
        if (felt) {
          var box = document.createElement("div");
          box.innerHTML = frame.felt;
          if (box.firstElementChild) felt.replaceWith(box.firstElementChild);
        }
        self.say(frame.say, false);
        self.appendLog(frame.log || []);
        timer = setTimeout(step, pace);
      };
      self.playing = { skip: finish };
      timer = setTimeout(step, pace);
    });
  };

})();
