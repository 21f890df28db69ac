/* Host controls: seat join codes (QR), moving seats, bots, undo, pause, end. */
"use strict";

(() => {
  const { boot, api, el, chip } = PJ;
  const gid = boot.gid;
  const $ = (id) => document.getElementById(id);
  let info = null, loading = false, again = false;

  async function refresh() {
    if (loading) { again = true; return; }
    loading = true;
    try {
      do { again = false; info = await api(`/api/games/${gid}/host`); conn.seen(info.version); render(); } while (again);
    } catch (e) {
      say(e.message, "error");
    } finally { loading = false; }
  }

  function say(text, kind = "info") {
    const m = $("host-msg");
    m.hidden = !text;
    m.textContent = text || "";
    m.className = `msg ${kind}`;
  }

  const STATUS = { playing: _("The game is on."), paused: _("Paused: phones can't play until you resume."), over: _("The game is over."), ended: _("You ended the game.") };

  function render() {
    const asking = info.seats.filter((s) => s.request).map((s) => s.name);
    PJ.alert.set(asking.length ? _("A phone asks for a seat") : null);   // issue 25.2
    $("status-line").textContent = ngettext("%(status)s Turn %(turn)s, %(n)s move made.", "%(status)s Turn %(turn)s, %(n)s moves made.",
      info.history, { status: STATUS[info.status], turn: info.turn }) +
      (asking.length ? " " + _("A phone asks for %(names)s's seat: see below.", { names: asking.join(" & ") }) : "");
    const open = info.status === "playing" || info.status === "paused";
    $("pause").textContent = info.status === "paused" ? _("Resume") : _("Pause");
    $("pause").disabled = !open;
    $("undo").disabled = !info.history || info.status === "ended";
    $("end").disabled = info.status === "ended";
    $("export").hidden = open;
    // at the end: the next game with the same preset, seats and phones (25 §4.11)
    $("rematch").hidden = open || !!info.rematch;
    if (info.rematch) { PJ.followRematch({ gid, rematch: info.rematch }, "host"); return; }   // another host phone too
    const mine = $("my-seat");
    mine.hidden = info.my_seat === null || info.my_seat === undefined;
    if (!mine.hidden) {
      const a = el("a", null, _("Open my hand (seat %(number)s)", { number: info.my_seat + 1 }));
      a.href = `/seat/${gid}`;
      a.id = "my-seat-link";
      mine.replaceChildren(_("This phone plays %(name)s's seat.", { name: info.seats[info.my_seat].name }) + " ", a);
    }
    $("local-only").hidden = !info.local_only;
    if (info.display) {
      $("display-qr").innerHTML = info.display.qr; // server-made SVG (segno) of our own pairing link
      $("display-link").href = info.display.link;
      $("display-link").textContent = info.display.link.replace(/^https?:\/\//, "");
    }
    refreshBoard();
    const all = $("hints-all");
    if (all) all.textContent = info.hints_all ? _("Turn hints off for everyone") : _("Hints for everyone");
    const list = $("seat-list");
    list.replaceChildren(...info.seats.map(seatCard));
    if (info.draw) {
      $("draw-box").hidden = false;
      const names = info.draw.names;
      $("draw-rounds").replaceChildren(...info.draw.rounds.map((round, i) => {
        const li = el("li", null, i === 0 ? _("Cards drawn:") + " " : _("Redraw:") + " ");
        round.forEach(([p, card], j) => {
          li.append(document.createTextNode(`${j ? ", " : ""}${names[p]} `), PJ.cardEl(card));
        });
        return li;
      }));
      const dealer = info.seats[info.dealer];
      $("draw-result").textContent = _("Seating in turn order: %(names)s. %(dealer)s deals; %(first)s plays first.", { names: info.seats.map((s) => s.name).join(", "), dealer: dealer.name, first: info.seats[(info.dealer + 1) % info.seats.length].name });
    }
  }

  function seatCard(s) {
    const box = el("section", "seat-card");
    box.dataset.seat = s.seat;
    const head = el("div", "seat-head");
    const solo = !info.seats.some((o) => o !== s && o.team === s.team);   // each player alone
    head.append(chip(s), el("span", "muted", " · " + _("seat %(number)s", { number: s.seat + 1 }) + (solo ? "" : " · " + _("team %(team)s", { team: PJ.TEAM_NAMES[s.team] }))));
    box.append(head);
    if (s.bot) {
      box.append(el("p", "state", _("The computer (%(level)s) plays this seat.", { level: LEVEL_WORDS[LEVEL_OF[s.bot]] || s.bot })));
    } else if (s.joined) {
      box.append(el("p", "state ok", _("✓ Joined on a phone.")));
    } else {
      box.append(el("p", "state", _("Waiting for a phone: scan this code.")));
      const qr = el("div", "qr-box");
      qr.innerHTML = s.qr; // server-made SVG (segno) of our own join link
      box.append(qr);
      const link = el("a", "join-link", s.link.replace(/^https?:\/\//, ""));
      link.href = s.link;
      link.dataset.code = s.code;
      box.append(link);
      if (info.my_seat === null || info.my_seat === undefined) {   // the host plays too: no QR code to scan (25 §4.9)
        const here = el("button", "button small-b", _("This phone plays seat %(number)s", { number: s.seat + 1 }));
        here.dataset.action = "play-here";
        here.addEventListener("click", async () => {
          try {
            const r = await api(`/api/games/${gid}/play-here`, { seat: s.seat });
            say(_("This phone plays %(name)s's seat: open your hand with the link above.", { name: s.name }));
            await refresh();
            return r;
          } catch (e) { say(e.message, "error"); }
        });
        box.append(here);
      }
    }
    if (s.request) box.append(requestBox(s));
    const row = el("div", "row");
    if (!s.bot) {
      const b = el("button", "button small-b", s.joined ? _("Move to another phone") : _("New code"));
      b.dataset.action = "reseat";
      b.addEventListener("click", () => {
        if (!s.joined || confirm(_("Move %(name)s's seat to another phone? The current phone loses access.", { name: s.name }))) post("reseat", { seat: s.seat });
      });
      row.append(b);
    }
    const bb = el("button", "button small-b", s.bot ? _("Give back to a person") : _("Let the computer play"));
    bb.dataset.action = "bot";
    bb.addEventListener("click", () => post("bot", { seat: s.seat, bot: s.bot ? null : "medium" }));
    row.append(bb);
    if (s.bot) {  // the computer's level for this seat
      const sel = el("select", "level");
      sel.setAttribute("aria-label", _("Level of the computer at %(name)s's seat", { name: s.name }));
      for (const [v, words] of Object.entries(LEVEL_WORDS)) {
        const o = el("option", null, words);
        o.value = v;
        sel.append(o);
      }
      sel.value = LEVEL_OF[s.bot] || s.bot;
      sel.addEventListener("change", () => post("bot", { seat: s.seat, bot: sel.value }));
      row.append(sel);
    } else {  // hints for a child or a first-timer
      if (!info.hints_all) {
        const hb = el("button", "button small-b", s.hints ? _("Turn hints off") : _("Turn hints on"));
        hb.dataset.action = "hints";
        hb.addEventListener("click", () => post("hints", { seat: s.seat, on: !s.hints }));
        row.append(hb);
      } else box.append(el("p", "state", _("Hints are on for everyone.")));
    }
    box.append(row);
    return box;
  }

  /* A phone asks for this seat: the host gives it with one tap, or refuses (never silently). */
  function requestBox(s) {
    const box = el("div", "seat-request");
    box.setAttribute("role", "alert");
    if (s.request_own) {   // the phone that held the seat asks it back: no stranger to warn of (25 §4.10)
      box.append(el("p", "warn", _("%(name)s's phone asks for the seat back.", { name: s.name })),
        el("p", "small", _("It is the phone that held this seat until it was moved or given to the computer.")));
    } else {
      box.append(el("p", "warn", _("A phone asks for %(name)s's seat.", { name: s.name })),
        el("p", "small", _("Give it only if %(name)s is asking from the phone in their hand: anyone who saw the QR code could ask.", { name: s.name }) + (s.joined ? " " + _("The phone that has the seat now loses it.") : "")));
    }
    const row = el("div", "row");
    const yes = el("button", "button primary small-b", _("Give the seat to that phone"));
    yes.dataset.action = "approve";
    yes.addEventListener("click", () => post("approve", { seat: s.seat, request: s.request }));
    const no = el("button", "button small-b", _("Refuse"));
    no.dataset.action = "refuse";
    no.addEventListener("click", () => post("refuse", { seat: s.seat, request: s.request }));
    row.append(yes, no);
    box.append(row);
    return box;
  }
  const LEVEL_WORDS = { easy: _("easy"), medium: _("medium"), hard: _("hard") };
  const LEVEL_OF = { random: "easy", easy: "easy", greedy: "medium", medium: "medium", strong: "hard", hard: "hard" };

  async function post(action, extra = {}) {
    try {
      const r = await api(`/api/games/${gid}/host/${action}`, { version: info.version, ...extra });
      say(action === "undo" ? ngettext("Undone (%(n)s move).", "Undone (%(n)s moves).", r.undone) : "");
      await refresh();
    } catch (e) {
      say(e.message, "error");
      if (e.status === 409) refresh();
    }
  }

  /* The board: release it, or (another table holds it) say so here, to the host only (25 §4.6). */
  async function refreshBoard() {
    try {
      const st = await api(`/api/games/${gid}/board`);
      $("release").hidden = !st.attached;
      const elsewhere = st.state === "elsewhere";
      $("board-elsewhere").hidden = !elsewhere;
      $("board-elsewhere").textContent = elsewhere ? st.message : "";
      $("take-board").hidden = !elsewhere || !info || !(info.status === "playing" || info.status === "paused");
    } catch (e) { $("release").hidden = true; $("board-elsewhere").hidden = true; $("take-board").hidden = true; }
  }

  $("take-board").addEventListener("click", async () => {
    try { await api(`/api/games/${gid}/board/attach`, {}); } catch (e) { say(e.message, "error"); }
    refreshBoard();
  });

  $("rematch").addEventListener("click", async () => {
    $("rematch").disabled = true;
    try {
      const r = await api(`/api/games/${gid}/rematch`, {});
      location.href = r.url;
    } catch (e) {
      say(e.message, "error");
      $("rematch").disabled = false;
      if (e.body && e.body.gid) location.href = `/host/${e.body.gid}`;
    }
  });

  $("release").addEventListener("click", async () => {
    if (!confirm(_("Let the board go? Another table can then take it; this game goes on with the phones."))) return;
    try { await api(`/api/games/${gid}/board/release`, {}); say(_("The board is free for another table.")); }
    catch (e) { say(e.message, "error"); }
    refreshBoard();
  });

  // Undo changes the game for everyone: ask first, saying what goes back
  $("undo").addEventListener("click", () => {
    const u = info && info.undo;
    if (!u) return;
    const ask = u.moves > 1
      ? ngettext("Undo %(who)s's last move and the computer's %(n)s move after it? Everyone's phone goes back to before it.",
                 "Undo %(who)s's last move and the computer's %(n)s moves after it? Everyone's phone goes back to before it.", u.moves - 1, { who: u.who })
      : _("Undo %(who)s's last move? Everyone's phone goes back to before it.", { who: u.who });
    if (confirm(ask)) post("undo");
  });
  {  // hints for every seat at once
    const all = el("button", "button", _("Hints for everyone"));
    all.id = "hints-all";
    all.type = "button";
    all.addEventListener("click", () => post("hints", { all: true, on: !info.hints_all }));
    $("undo").parentNode.append(all);
  }
  $("pause").addEventListener("click", () => post(info.status === "paused" ? "resume" : "pause"));
  $("end").addEventListener("click", () => { if (confirm(_("End this game for everyone?"))) post("end"); });

  const conn = PJ.live(gid, refresh, $("conn"));
  refresh();
})();
