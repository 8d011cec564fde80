/*
 * The mini table, the felt: the bots' moves played back one at a time on the
 * acting seat (the engine drew the felt after each move), at the reader's
 * pace. A tap anywhere on the felt shows the next move at once; "Show all
 * moves now" or a new request shows the rest at once. The reader's own move
 * is in the address before the bots' moves start, so a reload in the middle
 * of them loses nothing. See dhumbal-table-core.js.
 */
(function () {
  "use strict";

  var T = window.DhumbalTable;
  var Table = T.Table;

  // The bots' moves, one at a time: the board before them, then the felt after
  // each move (the engine drew every picture), then the answer's board.
  // `before` is the board's picture before the reader's move (its cards move).
  Table.prototype.playBack = function (result, payload, pace, before) {
    var self = this;
    var pb = result.playback;
    var root = this.root;
    var hadFocus = this.board.contains(document.activeElement);
    var key = this.focusKey();
    // The reader's move is kept in the address now (the bots' answers follow
    // from it), not after the playback.
    this.render({ settings_html: result.settings_html, hash: result.hash }, pb.html, pb.say, before, payload);
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
        if (self.settle) self.settle();
        var focused = self.board.contains(document.activeElement) || document.activeElement === self.board;
        result.settings_html = null;
        self.render(result, result.html, pb.end);
        if (focused || hadFocus) self.refocus(key || "");
        resolve();
      };
      var step = function () {
        if (done) return;
        clearTimeout(timer);
        if (!root.isConnected) return finish();
        if (i >= pb.frames.length) return finish();
        var frame = pb.frames[i++];
        var felt = self.board.querySelector(".dht-felt");
        if (felt) {
          if (self.settle) self.settle(); // the previous move's cards land first
          var seen = self.snapshot ? self.snapshot() : null;
          var box = document.createElement("div");
          box.innerHTML = frame.felt;
          var next = box.firstElementChild;
          if (next) {
            felt.replaceWith(next);
            if (self.animate) self.animate(seen, next, Math.min(320, pace * 0.7));
          }
        }
        self.say(frame.say, false);
        self.appendLog(frame.log || []);
        timer = setTimeout(step, pace);
      };
      self.playing = { skip: finish, next: step };
      timer = setTimeout(step, pace);
    });
  };

  // A tap (or click) anywhere on the felt while the bots play: their next move now.
  T.on("bind", function (table) {
    table.root.addEventListener("click", function (ev) {
      if (!table.playing || !ev.target.closest) return;
      var felt = ev.target.closest(".dht-felt");
      if (!felt || !table.board.contains(felt)) return;
      ev.preventDefault();
      table.playing.next();
    });
  });
})();
