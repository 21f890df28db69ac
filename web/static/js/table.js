/* The table view: the whole board, whose turn, piles, teams' progress, the log, the winner. */
"use strict";

(() => {
  const { boot, api, el, chip, seatName } = PJ;
  const gid = boot.gid;
  const $ = (id) => document.getElementById(id);
  const board = new Board($("board"));
  let view = null, loading = false, again = false;

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

  function render() {
    const sideSeat = Object.fromEntries(view.seat_sides.map((side, seat) => [side, seat]));
    const last = view.log.length ? view.log[view.log.length - 1] : null;
    board.clear();
    board.setPegs(view.position.pegs, view.seats, sideSeat);
    const banner = $("banner");
    banner.replaceChildren();
    if (view.winner) {
      banner.textContent = `${view.winner.map((s) => view.seats[s].name).join(" & ")} win!`;
    } else if (view.status === "ended") banner.textContent = "The host ended the game.";
    else if (view.status === "paused") banner.textContent = "Paused by the host";
    else {
      const who = view.actor;
      const verb = view.phase === "doubt" ? " — doubt or pass?" : view.phase === "penalty" ? " chooses a penalty peg" : " to play";
      banner.append(chip(view.seats[who]), document.createTextNode(verb));
    }
    PJ.pilesInto($("piles"), view);
    PJ.countingInto($("counting"), view);
    const dec = $("declared");
    if (view.declared) {
      dec.hidden = false;
      dec.textContent = `${seatName(view, view.declared.seat)} declared ${view.declared.move} (face down). Waiting for ${seatName(view, view.declared.queue[0])}.`;
    } else dec.hidden = true;
    const prog = $("progress");
    prog.replaceChildren(...view.progress.map((t, i) => {
      const li = el("li");
      const head = el("div", "team-head");
      head.append(el("strong", null, `Team ${PJ.TEAM_NAMES[i]} `));
      t.seats.forEach((s) => head.append(chip(view.seats[s])));
      const bar = el("div", "bar");
      const fill = el("div", "fill");
      fill.style.width = `${Math.round((100 * t.home) / t.pegs)}%`;
      bar.append(fill);
      li.append(head, bar, el("span", "small", `${t.home} of ${t.pegs} pegs home`));
      return li;
    }));
    $("log").replaceChildren(...view.log.slice().reverse().map((e) => PJ.logLine(view, e)));
    const w = $("winner");
    w.hidden = !view.winner;
    if (view.winner) $("winner-text").textContent = `${view.winner.map((s) => seatName(view, s)).join(" & ")} win!`;
  }

  const conn = PJ.live(gid, refresh, $("conn"));
  refresh();
})();
