/* The table view: the whole board, whose turn, piles, teams' progress, the log, the winner. */
"use strict";

(() => {
  const { boot, api, el, chip, seatName } = PJ;
  const gid = boot.gid;
  const $ = (id) => document.getElementById(id);
  const board = new Board($("board"));
  let view = null, loading = false, again = false;
  // the board referee: its LEDs mirrored under the holes; in simulation, a board to drag pegs on
  const bb = boot.board || { mode: "none" };
  const mirror = bb.mode !== "none" ? new LedMirror(board) : null;
  const look = (side) => {
    const seat = view.seats[view.seat_sides.indexOf(Number(side))];
    return { hex: seat.colour.hex, ink: seat.colour.ink, key: seat.colour.key, name: seat.colour.name, label: seat.label };
  };
  // an unpaired screen shows the simulated board read-only (the server refuses its moves anyway)
  const vb = bb.mode === "simulation" ? new VirtualBoard(board, $("vtray"), gid, look, (st, err) => {
    if (st) { bstate = st; renderReferee(); } else if (err) $("ref-msg").textContent = err;
  }, !boot.admitted) : null;
  let bstate = null, bloading = false, bagain = false;
  // a board control (web/board_control.py): after a safe start, what failed; a new mode reloads the page
  const watchBoard = !!mirror || !!bb.control;

  async function refresh() {
    if (loading) { again = true; return; }
    loading = true;
    try {
      do {
        again = false;
        view = await api(`/api/games/${gid}/table`);
        conn.seen(view.version);
        render();
      } while (again);
    } catch (e) {
      $("banner").textContent = e.message;
    } finally {
      loading = false;
    }
  }

  async function refreshBoard() {
    if (!watchBoard) return;
    if (bloading) { bagain = true; return; }
    bloading = true;
    try {
      do {
        bagain = false;
        const st = await api(`/api/games/${gid}/board`);
        if (st.mode !== bb.mode) { location.reload(); return; }
        PJ.boardProblemsInto($("board-problem"), $("board-problems"), st.control);
        if (!mirror) continue;
        bstate = st;
        if (view) renderReferee();
      } while (bagain);
    } catch (e) {
      $("ref-msg").textContent = e.message;
    } finally {
      bloading = false;
    }
  }

  const STATE_TITLES = {
    setup: _("Set-up"), restore: _("Put the board back"), sync: _("Move the pegs"), ready: _("The board is ready"),
    following: _("Waiting for the board"), hit: _("A hit"), wrong: _("Wrong"), ambiguous: _("Choose on the phone"),
    waiting: _("The board"), fault: _("Sensor problem"), error: _("The board"), elsewhere: _("The board"),
    unavailable: _("No board"), starting: _("The board"),
  };

  function renderReferee() {
    const st = bstate;
    const box = $("referee");
    box.hidden = false;
    box.dataset.state = st.state;
    // a move made elsewhere, replayed by the simulated board: catch-up, not a move to make
    const catchUp = PJ.catchingUp(st, bb.mode);
    $("ref-title").textContent = catchUp ? _("Catching up") : STATE_TITLES[st.state] || _("The board");
    board.svg.classList.toggle("catch-up", !!(st.attached && st.state === "sync"));
    // the board follows another table, or none: its lights and words mean nothing here (25 §4.6);
    // the host's page says so, and offers to take it
    box.hidden = !st.attached;
    $("ref-msg").textContent = catchUp ? st.catch_up || PJ.CATCH_UP_WORDS : st.message || "";
    $("ref-fix").replaceChildren(...(catchUp ? [] : st.fix || []).map((f) => el("li", null, f)));
    $("ref-cands").replaceChildren(...(st.candidates || []).map(PJ.candidateLine));
    mirror.render(st.attached ? st.leds : {});
    const sim = vb && st.attached;
    $("vtray-box").hidden = !sim || !boot.admitted;
    if (sim) vb.render(st);
    else drawPosition();
    $("ref-sync").hidden = catchUp || !(boot.admitted && sim && ["sync", "restore", "setup", "wrong"].includes(st.state));
    $("ref-attach").hidden = !boot.admitted || st.attached || bb.mode === "none";
    if (view) renderBanner();
  }

  // the legend's key for "a hole lit in a peg's colour": this table's peg colours
  function wantKey() {
    const cols = view.seats.map((s) => s.colour.hex);
    const step = 100 / cols.length;
    $("want-key").style.background = `conic-gradient(${cols.map((c, i) => `${c} ${i * step}% ${(i + 1) * step}%`).join(", ")})`;
  }

  function drawPosition() {
    const sideSeat = Object.fromEntries(view.seat_sides.map((side, seat) => [side, seat]));
    board.setPegs(view.position.pegs, view.seats, sideSeat);
  }

  function render() {
    const last = view.log.length ? view.log[view.log.length - 1] : null;
    board.clear();
    if (vb && bstate && bstate.attached) vb.render(bstate);
    else drawPosition();
    board.lastMove(last);   // the move just made, marked by shape (issue 25, 3)
    renderBanner();
    renderSide(last);
    PJ.announcer(view);
    PJ.undoneInto($("undone"), view);
    PJ.followRematch(view, "table");
    wantKey();
    if (mirror && !bstate) refreshBoard();
  }

  function renderBanner() {
    const banner = $("banner");
    banner.replaceChildren();
    if (view.winner) {
      banner.textContent = PJ.winnerText(view, null, true);
    } else if (view.drawn) banner.textContent = view.drawn;
    else if (view.status === "ended") banner.textContent = _("The host ended the game.");
    else if (view.status === "paused") banner.textContent = _("Paused by the host");
    else {
      const who = view.actor;
      let verb = view.phase === "doubt" ? _("%(who)s — doubt or pass?") : view.phase === "penalty" ? _("%(who)s chooses a penalty peg") : _("%(who)s to play");
      if (bstate && bstate.attached && bstate.seat === who && bstate.rank && ["following", "hit", "wrong", "ambiguous"].includes(bstate.state)) {
        verb = _("%(who)s plays %(card)s: waiting for the board", { card: PJ.aRank(bstate.rank) });
      }
      // the seat's chip where the sentence names it (before or after, as the language says)
      const [before, after] = verb.split("%(who)s");
      banner.append(document.createTextNode(before), chip(view.seats[who]), document.createTextNode(after || ""));
      if (view.hint && view.hint.seat === who) banner.append(el("span", "hint-note", _(" (using a hint)")));
    }
  }

  function renderSide(last) {
    PJ.pilesInto($("piles"), view);
    PJ.countingInto($("counting"), view);
    const dec = $("declared");
    if (view.declared) {
      dec.hidden = false;
      dec.textContent = view.declared.words
        ? _("%(said)s. Waiting for %(who)s to doubt or pass.", { said: view.declared.words, who: seatName(view, view.declared.queue[0]) })
        : _("%(bluffer)s played a card face down. Waiting for %(who)s to doubt or pass.", { bluffer: seatName(view, view.declared.seat), who: seatName(view, view.declared.queue[0]) });
    } else if (view.told) {
      dec.hidden = false;
      dec.textContent = `${view.told}.`;
    } else dec.hidden = true;
    const prog = $("progress");
    // each player alone (Tock, Carbles): players, not "Team A" ... "Team D" of one each (25 §4.7)
    const alone = view.progress.every((t) => t.seats.length < 2);
    $("progress-h").textContent = alone ? _("Players") : _("Teams");
    prog.replaceChildren(...view.progress.map((t, i) => {
      const li = el("li");
      const head = el("div", "team-head");
      if (!alone) head.append(el("strong", null, _("Team %(team)s", { team: PJ.TEAM_NAMES[i] }) + " "));
      t.seats.forEach((s) => head.append(chip(view.seats[s])));
      const bar = el("div", "bar");
      const fill = el("div", "fill");
      fill.style.width = `${Math.round((100 * t.home) / t.pegs)}%`;
      bar.append(fill);
      li.append(head, bar, el("span", "small", ngettext("%(home)s of %(n)s peg home", "%(home)s of %(n)s pegs home", t.pegs, { home: t.home })));
      return li;
    }));
    const lines = view.log.slice().reverse().map((e) => PJ.logLine(view, e));
    // hints are public knowledge: say who has used them, so nobody wonders
    const used = view.seats.filter((s) => s.hints_used).map((s) => `${s.name} ${s.hints_used}`);
    if (used.length) lines.unshift(el("li", "hint-note", _("Hints used: %(list)s", { list: used.join(", ") })));
    $("log").replaceChildren(...lines);
    const w = $("winner");
    w.hidden = !view.winner && !view.drawn;
    if (view.winner) $("winner-text").textContent = PJ.winnerText(view, null, true);
    else if (view.drawn) $("winner-text").textContent = view.drawn;
  }

  $("ref-sync").addEventListener("click", async () => {
    try { bstate = await api(`/api/games/${gid}/board/sync`, {}); renderReferee(); }
    catch (e) { $("ref-msg").textContent = e.message; }
  });
  $("ref-attach").addEventListener("click", async () => {
    try { bstate = await api(`/api/games/${gid}/board/attach`, {}); renderReferee(); }
    catch (e) { $("ref-msg").textContent = e.message; }
  });

  $("board-retry").addEventListener("click", async () => {
    const b = $("board-retry");
    b.disabled = true;
    b.textContent = _("Trying…");
    try {
      const st = await api("/api/board/retry", {});
      if (st.running !== bb.mode) { location.reload(); return; }
      PJ.boardProblemsInto($("board-problem"), $("board-problems"), st);
    } catch (e) { $("board-problems").replaceChildren(PJ.el("li", null, e.message)); }
    finally { b.disabled = false; b.textContent = _("Try the board again"); }
  });

  const conn = PJ.live(gid, () => { refresh(); refreshBoard(); }, $("conn"), watchBoard ? refreshBoard : null);
  refresh();
})();
