/* The seat page: this phone's hand and its turn. It knows no rules: the
   server lists the legal plays (grouped by card, each with its steps and the
   resulting pegs) and explains any other move the player taps. */
"use strict";

(() => {
  const { boot, api, el, chip, cardEl, cardText, holeWords, seatName } = PJ;
  const gid = boot.gid;
  const $ = (id) => document.getElementById(id);
  const board = new Board($("board"), onHoleTap);

  let view = null;       // GET /me
  let plays = null;      // GET /plays when this seat acts
  let sel = null;        // the play being built
  let busy = false;
  const CARD_PHASES = ["play", "give", "forced"];   // a card is chosen (give, forced: Tock, Jackaroo)
  let loading = null;
  // the board referee: with sensors (or the simulation) a chosen card is followed on the board
  const bb = boot.board || { mode: "none" };
  const mirror = bb.mode !== "none" ? new LedMirror(board) : null;
  let bstate = null;

  /* One board request at a time, and one more if events came meanwhile: answers that
     overtake each other would show an older board last. */
  let bloading = false, bagain = false, bwanted = -1, bloaded = -1;
  /* `bver`: the board version the live stream announced (null: look anyway). An answer
     already at that version needs no second request (one request on load, not four). */
  async function refreshBoard(bver = null) {
    if (!mirror && !bb.control) return;
    if (bver !== null && bver <= bloaded) return;
    if (bloading) {
      if (bver === null) bagain = true;
      else bwanted = Math.max(bwanted, bver);
      return;
    }
    bloading = true;
    try {
      do {
        bagain = false;
        let st;
        try { st = await api(`/api/games/${gid}/board`); } catch (e) { return; }
        if (st.mode !== bb.mode) { location.reload(); return; }   // the board was started, or its mode changed
        bloaded = st.board_version !== undefined ? st.board_version : -1;
        if (bwanted > bloaded) bagain = true;
        if (!mirror) return;
        bstate = st;
        if (view) { renderBoardBox(); showLeds(); }
      } while (bagain);
    } finally {
      bloading = false;
    }
  }

  /* The board's lights; while it catches up with a move made elsewhere they are drawn as
     catch-up (faint, dashed, still), not as the lights of this phone's own move. */
  function showLeds() {
    const st = bstate;
    board.svg.classList.toggle("catch-up", !!(st && st.attached && st.state === "sync"));
    mirror.render(st && st.attached ? st.leds : {});
  }

  /* Tell the referee which card this phone chose (null: none): the board follows it. */
  async function chooseOnBoard(card, rank) {
    if (!mirror || !view) return;
    // the board follows another table (or none): nothing to tell it, and nothing to say about it
    if (!bstate || !bstate.attached) { if (sel) sel.onBoard = false; return; }
    try {
      // Bluffing Joker: the board is public, so it hears only a declared rank (never the card's own)
      const body = plays && plays.bluffing && card ? { version: view.version, card, declared: rank } : { version: view.version, card, rank };
      bstate = await api(`/api/games/${gid}/board/card`, body);
      if (sel && card) sel.onBoard = bb.senses && bstate.attached && bstate.state !== "ready";
    } catch (e) {
      if (sel) sel.onBoard = false;
      if (e.status === 409 && card) say(e.message, "info");
    }
    if (view) render();
  }

  function renderBoardBox() {
    const box = $("boardbox");
    const st = bstate;
    const myTurn = view && view.actor === view.seat && view.status === "playing";
    const following = sel && sel.onBoard && !sel.manual;
    const show = st && st.attached && (following || ["setup", "restore", "sync", "fault"].includes(st.state) ||
      (myTurn && ["wrong", "ambiguous", "hit"].includes(st.state)));
    box.hidden = !show;
    $("manual").hidden = !following;
    // the simulated board moves its pegs by itself: nothing for anyone to do but wait a moment
    const catchUp = !!show && PJ.catchingUp(st, bb.mode);
    box.classList.toggle("catchup", catchUp);
    if (!show) return;
    box.classList.toggle("wrong", st.state === "wrong" || st.state === "fault");
    $("board-msg").textContent = catchUp ? st.catch_up || PJ.CATCH_UP_WORDS : st.message || "";
    $("board-fix").replaceChildren(...(catchUp ? [] : st.fix || []).map((f) => el("li", null, f)));
    const cands = $("board-cands");
    cands.replaceChildren();
    if (following && st.state === "ambiguous") {
      for (const hole of st.doubtful || []) {   // the camera's view of the holes it could not read
        const img = el("img", "crop");
        img.src = `/api/games/${gid}/board/crop/${encodeURIComponent(hole)}?v=${st.version}`;
        img.alt = hole.startsWith("M") ? _("the camera's view of hole %(number)s", { number: hole.slice(1) }) : _("the camera's view of a hole it could not read");
        img.width = 96;
        img.onerror = () => img.remove();
        cands.append(img);
      }
      for (const c of st.candidates) {
        const b = el("button", "button choice", c.words);
        b.addEventListener("click", () => send(c.move, sel.card));
        cands.append(b);
      }
    }
  }

  const sideSeat = () => Object.fromEntries(view.seat_sides.map((side, seat) => [side, seat]));

  /* Bring the page to the server's state: the view, and this seat's plays when it acts.
     Plays are loaded whenever they are missing or older than the view, not only when
     the version moves: after this phone's own doubt or penalty the answer to /act
     already carries the new view (and the live stream's version is marked seen), yet
     the same phone may act again (a penalty peg to choose, its turn). */
  let again = false, wanted = -1;
  let lost = null;      // why this phone holds no seat (the error's body), while it watches
  let watched = null;   // GET /table: the public view a phone without its seat watches
  /* `ver`: the version the live stream announced (null: look anyway, e.g. on waking up).
     An answer already at that version needs no second request (one /me on load, not three). */
  async function refresh(ver = null) {
    const have = view || watched;
    if (ver !== null && have && ver <= have.version && !loading) return;
    if (loading) {
      if (ver === null) again = true;
      else wanted = Math.max(wanted, ver);
      return loading;
    }
    loading = (async () => {
      try {
        do {
          again = false;
          if (lost && lost.code !== "seat_requested") {   // only the host's answer would give it back
            await refreshWatched();
            continue;
          }
          const v = await api(`/api/games/${gid}/me`);
          if (v.seat !== boot.seat) { location.reload(); return; }   // given a seat: draw its board
          seatBack();
          if (!view || v.version !== view.version) {
            plays = null;
            // the card the board follows (after a reload): show it chosen, as the server has it
            sel = v.chosen && v.phase === "play" ? { card: v.chosen.card, rank: v.chosen.rank, steps: [], from: null, onBoard: !!bb.senses } : null;
          }
          view = v;
          lost = null;
          watched = null;
          document.body.classList.remove("watching");
          conn.seen(v.version);
          if (wanted > v.version) again = true;
          await loadPlays();
          render();
        } while (again);
      } catch (e) {
        if (e.status === 403) {
          showLost(e);
          try { await refreshWatched(); } catch (err) { /* no connection: the next event tries again */ }
        }
      } finally {
        loading = null;
      }
    })();
    return loading;
  }

  let playsRetry = null;
  async function loadPlays() {
    if (!(view.actor === view.seat && view.status === "playing")) { plays = null; return; }
    if (plays && plays.version === view.version) return;
    plays = null;
    let p;
    try { p = await api(`/api/games/${gid}/plays`); } catch (e) {
      // no connection, or the game moved on meanwhile: try again shortly
      clearTimeout(playsRetry);
      playsRetry = setTimeout(refresh, 1500);
      return;
    }
    if (p.version === view.version) plays = p;
    else again = true;   // the game moved on between the two requests
  }

  /* This phone holds no seat (any more): say why, offer to ask the host for it, and
     stop asking the server (only a phone waiting for the host's answer keeps listening). */
  const LOST = {
    seat_computer: [_("The host gave your seat to the computer"), _("Ask for my seat back")],
    seat_moved: [_("Your seat is on another phone"), _("Ask for my seat back")],
    seat_refused: [_("The host did not give you the seat"), _("Ask again")],
    seat_superseded: [_("Another phone asked after you"), _("Ask again")],
    seat_requested: [_("Waiting for the host"), null],
    no_seat: [_("No seat on this phone"), null],
  };

  function showLost(e) {
    const code = (e.body && e.body.code) in LOST ? e.body.code : "no_seat";
    lost = { code, body: e.body };
    const [title, ask] = LOST[code];
    let o = $("noseat");
    if (!o) {
      o = el("div");
      o.id = "noseat";
    }
    // beside the game, not over it: this phone watches the game live meanwhile (25 §4.1)
    o.className = "lost-note";
    $("banner").after(o);
    o.hidden = false;
    o.dataset.code = code;
    const box = el("div");
    const said = code === "seat_computer"
      ? _("The computer plays %(name)s's pegs now. To play again yourself, ask the host for your seat back.", { name: e.body.name })
      : e.message.charAt(0).toUpperCase() + e.message.slice(1) + ".";
    box.append(el("h2", "lost-title", title), el("p", null, said));
    if (code === "seat_requested") box.append(el("p", "muted", _("This page changes by itself once the host has answered.")));
    if (ask) {
      const b = el("button", "button primary big", ask);
      b.id = "ask-back";
      b.addEventListener("click", async () => {
        b.disabled = true;
        try {
          await api(`/api/games/${gid}/seat-request`, {});
          lost = { code: "seat_requested", body: {} };
          if (conn) conn.start();
          refresh();
        } catch (err) {
          b.disabled = false;
          box.append(el("p", "msg error", err.message));
        }
      });
      box.append(b);
    }
    o.replaceChildren(box);
    view = null;
    plays = null;
    sel = null;
    document.body.classList.remove("my-turn");
    document.body.classList.add("watching");
    $("banner").className = "banner";
    $("banner").textContent = title;
    PJ.wake.set(false);
    PJ.alert.set(null);
  }

  /* The game as the table sees it (no hand): for a phone whose seat the computer (or
     another phone) has now. The board, whose turn, the log, the end and the winner. */
  async function refreshWatched() {
    const pv = await api(`/api/games/${gid}/table`);
    watched = pv;
    conn.seen(pv.version);
    if (wanted > pv.version) again = true;
    renderWatched();
  }

  function renderWatched() {
    const pv = watched;
    if (!pv) return;
    const sides = Object.fromEntries(pv.seat_sides.map((side, seat) => [side, seat]));
    board.clear();
    board.setPegs(pv.position.pegs, pv.seats, sides);
    const banner = $("banner");
    banner.className = "banner";
    banner.textContent = pv.winner ? PJ.winnerText(pv, null) : pv.drawn ? pv.drawn
      : pv.status === "ended" ? _("The host has ended the game.") : pv.status === "paused" ? _("Paused by the host.")
      : _("%(who)s to play", { who: seatName(pv, pv.actor) });
    $("me").replaceChildren(el("span", "muted", _("Watching the game")));
    $("prompt").textContent = "";
    $("choices").replaceChildren();
    $("hand").replaceChildren();
    $("boardbox").hidden = true;
    PJ.announcer(pv);
    PJ.undoneInto($("undone"), pv);
    PJ.pilesInto($("piles"), pv);
    PJ.countingInto($("counting"), pv);
    $("log").replaceChildren(...pv.log.slice(-8).reverse().map((e) => PJ.logLine(pv, e)));
    const ask = $("ask-back");
    if (ask) ask.hidden = pv.status === "over" || pv.status === "ended";   // nothing to ask back after the end
    PJ.followRematch(pv, "seat");
  }

  function seatBack() {
    const o = $("noseat");
    if (o) o.hidden = true;
  }

  function say(text, kind = "info", rule = null) {
    const m = $("msg");
    m.hidden = !text;
    m.textContent = text || "";
    if (text && rule) {   // the rule id opens its explanation, in this phone's language (25.1)
      const a = el("a", "rule-link", _("What rule %(rule)s says", { rule }));
      a.href = `/rules/${gid}#rule-${encodeURIComponent(rule)}`;
      m.append(" ", a);
    }
    m.className = `msg ${kind}`;
  }

  // ------------------------------------------------------------------ render
  function render() {
    const me = view.seats[view.seat];
    const alone = view.teams && view.teams[me.team] && view.teams[me.team].length < 2;   // Tock, Carbles: no partner
    $("me").replaceChildren(chip(me), el("span", "muted", alone ? "" : " · " + _("team %(team)s", { team: PJ.TEAM_NAMES[me.team] })));
    const myTurn = view.actor === view.seat && view.status === "playing";
    PJ.wake.set(myTurn);
    document.body.classList.toggle("my-turn", myTurn);
    const banner = $("banner");
    banner.className = `banner${myTurn ? " go" : ""}`;
    banner.textContent = bannerText(myTurn);
    PJ.alert.set(myTurn ? bannerText(true) : null);   // the tab title, a vibration and a chime (25.2)
    PJ.announcer(view);
    PJ.undoneInto($("undone"), view);
    PJ.followRematch(view, "seat");
    PJ.pilesInto($("piles"), view);
    PJ.countingInto($("counting"), view);
    const logEl = $("log");
    logEl.replaceChildren(...view.log.slice(-8).reverse().map((e) => PJ.logLine(view, e)));
    renderChoices(myTurn);
    zoomTo();
    renderHint(myTurn);
    renderHand(myTurn);
    renderBoardBox();
    if (mirror && bstate) showLeds();
    showOffline();
    placeFocus();
  }

  // ------------------------------------------------------------------ hints
  /* The Hint button (when the host turned hints on for this seat) and the hint:
     the strong bot's choice from this seat's own view, shown as a highlighted
     card and move with one short reason. Made on the server's bot thread; it
     arrives with the next view. */
  let hintAsked = null;   // the version a hint was asked at
  function hintBox() {
    let box = $("hintbox");
    if (!box) {
      box = el("div", "hintbox");
      box.id = "hintbox";
      const b = el("button", "button small-b hint-b", _("Hint"));
      b.id = "hint";
      b.type = "button";
      b.addEventListener("click", askHint);
      const p = el("p", "hint-text");
      p.id = "hint-text";
      box.append(b, p);
      $("action").insertBefore(box, $("choices"));
    }
    return box;
  }

  function renderHint(myTurn) {
    const me = view.seats[view.seat];
    const on = myTurn && me.hints;
    const box = hintBox();
    box.hidden = !on;
    if (!on) return;
    const h = view.hint;
    const b = $("hint"), p = $("hint-text");
    b.hidden = !!h;
    b.disabled = hintAsked === view.version;
    p.hidden = !h && hintAsked !== view.version;
    if (!h) { p.textContent = hintAsked === view.version ? _("Thinking…") : ""; return; }
    const what = h.card ? _("Play the %(card)s", { card: cardText(h.card) }) : (h.move === "doubt" ? _("Doubt") : h.move === "pass" ? _("Pass") : _("Send back the highlighted peg"));
    const said = _("Hint: %(what)s: %(reason)s.", { what, reason: h.reason });
    if (p.textContent !== said) $("said").textContent = said;   // told once, in the page's one live region
    p.textContent = said;
    if (!sel && h.steps && h.steps.length) {
      board.highlight(h.steps.map((st) => st.from_id), "hint");
      board.highlight(h.steps.map((st) => st.to_id), "hint");
    }
  }

  async function askHint() {
    if (!view) return;
    hintAsked = view.version;
    render();
    try {
      const r = await api(`/api/games/${gid}/hint`, {});
      if (r.ready) refresh();
    } catch (e) {
      hintAsked = null;
      say(e.message, "error");
      render();
    }
  }


  function bannerText(myTurn) {
    if (view.status === "ended") return _("The host has ended the game.");
    if (view.drawn) return view.drawn;
    if (view.winner) return PJ.winnerText(view, view.seat);
    if (view.status === "paused") return _("Paused by the host.");
    if (myTurn) {
      if (view.phase === "doubt") return _("Your call: doubt or pass?");
      if (view.phase === "penalty") return _("Choose the penalty peg");
      if (view.phase === "give") return _("Pass a card to your partner");
      if (view.phase === "forced") return _("Discard a card: a 10 forced you");
      return _("Your turn");
    }
    const who = seatName(view, view.actor);
    if (view.phase === "doubt") return _("Waiting for %(who)s to doubt or pass", { who });
    if (view.phase === "penalty") return _("%(who)s is choosing a penalty peg", { who });
    if (view.phase === "give") return _("%(who)s is choosing a card to pass", { who });
    if (view.phase === "forced") return _("%(who)s is discarding a card (forced by a 10)", { who });
    return _("%(who)s to play", { who });
  }

  function drawBoard(preview, moved) {
    board.clear();
    board.setPegs(preview || view.position.pegs, view.seats, sideSeat(), moved);
    // the move just made, until this phone previews its own
    board.lastMove(preview ? null : view.log[view.log.length - 1]);
  }

  /* The pegs after the steps chosen so far (a 7 split half made): drawn where they go. */
  function partial(steps) {
    const pegs = JSON.parse(JSON.stringify(view.position.pegs));
    for (const st of steps) {
      if (st.to[0] === "M") {   // a peg it lands on goes back to its start
        for (const [side, list] of Object.entries(pegs)) {
          const j = list.indexOf(st.to);
          if (j >= 0 && side !== String(st.side)) list[j] = "S";
        }
      }
      const list = pegs[st.side];
      const i = list ? list.indexOf(st.from) : -1;
      if (i >= 0) list[i] = st.to;
    }
    return pegs;
  }

  /* ------------------------------------------------------------------ focus (issue 25, 3)
     After a tap on a card, a peg or a choice the page is drawn again and the tapped button
     is gone: focus goes to the next choice (Confirm, the first choice, the first card), so a
     keyboard or switch user goes on from there, and it is scrolled into view above the
     sticky hand. */
  let focusNext = false, fromBoard = false;
  document.addEventListener("click", (ev) => {
    if (ev.target.closest && ev.target.closest("#action, #hand, #board")) {
      focusNext = true;
      fromBoard = !!ev.target.closest("#board");   // a tap on the board: keep the board where it is
    }
  }, true);
  document.addEventListener("keydown", (ev) => {
    if ((ev.key === "Enter" || ev.key === " ") && ev.target.closest && ev.target.closest("#action, #hand")) { focusNext = true; fromBoard = false; }
  }, true);

  function placeFocus() {
    if (!focusNext) return;
    const a = document.activeElement;
    if (a && a !== document.body && a.isConnected && !a.closest("[hidden]") && !a.disabled) { focusNext = false; return; }
    // in this order (not the page's): Confirm, a choice, the declared rank, Back, a card
    const next = ["#confirm:not([hidden])", "#choices button:not([disabled])", "#declare button.selected",
      "#cancel:not([hidden])", "#hand button.pcard:not([disabled])"]
      .map((q) => [...document.querySelectorAll(q)].find((b) => !b.closest("[hidden]"))).find(Boolean);
    focusNext = false;
    if (next) next.focus({ preventScroll: fromBoard });
  }

  // the sticky hand's height: what is scrolled or focused into view stops above it (4.8)
  if (window.ResizeObserver) {
    new ResizeObserver(() => document.documentElement.style.setProperty("--hand-h", `${$("hand").offsetHeight + 8}px`)).observe($("hand"));
  }

  function renderHand(myTurn) {
    const hand = $("hand");
    hand.replaceChildren();
    const playable = new Set();
    const cardPhase = CARD_PHASES.includes(view.phase);
    if (plays && plays.cards && cardPhase) {
      for (const c of plays.cards) {
        if (plays.bluffing || c.moves.length || plays.discard) playable.add(c.card);
      }
    }
    let marked = false;
    let hinted = false;   // a hand may hold two of the same card: ring one
    view.hand.forEach((card) => {
      const b = cardEl(card, { button: true });
      const active = myTurn && cardPhase && playable.has(card);
      b.disabled = !(myTurn && cardPhase);
      if (myTurn && cardPhase && !active) b.classList.add("dim");
      if (sel && sel.card === card && !marked) { b.classList.add("selected"); marked = true; }   // one copy of a double
      if (view.hint && view.hint.card === card && !sel && !hinted) { b.classList.add("hinted"); hinted = true; }
      b.addEventListener("click", () => pickCard(card));
      hand.append(b);
    });
  }

  function renderAction(myTurn) {
    renderChoices(myTurn);
    zoomTo();
    placeFocus();
  }

  /* ------------------------------------------------------------------ 8-10 players (issue 25, 4.4)
     A board of 8 sides or more drawn across a phone has holes under 5 px: there the board is
     drawn big enough for every tap target to be at least 44 px (a hole 2.25 px per unit apart,
     targets 56 px), in a box that scrolls (and pinch-zooms) and is scrolled to what matters:
     the holes to tap, else this seat's own side. A button shows the whole board. */
  const PX_PER_UNIT = 2.25;
  const svg = $("board");
  const wrap = svg.parentElement;
  const zoomBtn = $("zoom");
  const box = (svg.getAttribute("viewBox") || "0 0 1 1").split(/\s+/).map(Number);
  let zoomed = false, aimed = false, aimedAt = "";
  function needsZoom() { return Number(svg.dataset.sides) >= 8 && wrap.clientWidth * board.unit / box[2] < 44; }
  function setZoom(on) {
    zoomed = on;
    wrap.classList.toggle("zoomed", on);
    if (on) wrap.tabIndex = 0; else wrap.removeAttribute("tabindex");   // a box that scrolls: reachable by keyboard
    svg.style.width = on ? `${Math.round(box[2] * PX_PER_UNIT)}px` : "";
    svg.style.height = on ? `${Math.round(box[3] * PX_PER_UNIT)}px` : "";
    zoomBtn.textContent = on ? _("Show the whole board") : _("Zoom in on the board");
    zoomBtn.setAttribute("aria-pressed", String(on));
    if (on) zoomTo(true);
  }
  function zoomTo(always) {
    if (!zoomed) return;
    const ids = [...board.targetLayer.querySelectorAll(".target")].map((t) => t.dataset.hole);
    if (!ids.length && aimed && !always) return;
    if (!ids.length && view) ids.push(...Object.keys(board.pos).filter((h) => h.startsWith(`S-s${view.seats[view.seat].side}-`)));
    const pts = ids.map((h) => board.pos[h]).filter(Boolean);
    if (!pts.length) return;
    const key = ids.join(" ");
    if (key === aimedAt && !always) return;   // the same holes: leave the box where the player panned it
    aimed = true;
    aimedAt = key;
    const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
    const cx = (Math.min(...xs) + Math.max(...xs)) / 2, cy = (Math.min(...ys) + Math.max(...ys)) / 2;
    wrap.scrollTo({ left: (cx - box[0]) * PX_PER_UNIT - wrap.clientWidth / 2,
                    top: (cy - box[1]) * PX_PER_UNIT - wrap.clientHeight / 2 });
  }
  if (Number(svg.dataset.sides) >= 8) {
    zoomBtn.hidden = false;
    zoomBtn.addEventListener("click", () => setZoom(!zoomed));
    setZoom(needsZoom());
  }

  function renderChoices(myTurn) {
    const prompt = $("prompt"), choices = $("choices"), declare = $("declare");
    choices.replaceChildren();
    drawBoard();
    declare.hidden = true;
    $("confirm").hidden = true;
    $("cancel").hidden = true;
    if (!sel) say(view.told ? `${view.told}.` : "");
    if (view.phase === "doubt" && view.declared) {
      const d = view.declared;
      prompt.textContent = d.words ? `${d.words}.` : _("%(who)s played a card face down.", { who: seatName(view, d.seat) });
      if (myTurn) {
        const doubt = el("button", "button danger big", _("Doubt"));
        doubt.id = "doubt";
        doubt.addEventListener("click", () => send("doubt", null));
        const pass = el("button", "button big", _("Pass"));
        pass.id = "pass";
        pass.addEventListener("click", () => send("pass", null));
        choices.append(doubt, pass);
      }
      return;
    }
    if (view.phase === "penalty" && view.penalty) {
      const p = view.penalty;
      prompt.textContent = _("%(chooser)s sends one of %(victim)s's pegs on the main track back to start.", { chooser: seatName(view, p.chooser), victim: seatName(view, p.victim_seat) });
      if (myTurn && plays && plays.penalty) {
        const ids = plays.penalty.map((m) => m.steps[0].from_id);
        if (sel && sel.penalty) {
          board.highlight([sel.penalty.steps[0].from_id], "chosen");
          showConfirm(_("Send the peg on %(hole)s to start", { hole: holeWords(sel.penalty.steps[0].from) }), () => send(sel.penalty.move, null));
        } else board.highlight(ids, "victim");
        plays.penalty.forEach((m) => {
          const b = el("button", "button choice", _("Peg on %(hole)s", { hole: holeWords(m.steps[0].from) }));
          b.addEventListener("click", () => { sel = { penalty: m }; renderAction(true); });
          choices.append(b);
        });
      }
      return;
    }
    if (!myTurn) {
      prompt.textContent = view.status === "playing" ? _("Your cards are below. The board updates by itself.") : "";
      return;
    }
    if (!plays) { prompt.textContent = _("Loading your moves…"); return; }
    if (plays.options) { renderOptions(prompt, choices); return; }
    if (!sel) {
      const any = plays.cards.some((c) => plays.bluffing || c.moves.length);
      prompt.textContent = any ? _("Tap a card to play.") : _("No card can move: tap a card to discard it.");
      return;
    }
    // a card is chosen
    const cardInfo = plays.cards.find((c) => c.card === sel.card);
    if (plays.bluffing) renderDeclare(cardInfo);
    const moves = currentMoves();
    $("cancel").hidden = false;
    if (sel.onBoard && !sel.manual && moves.length) {
      prompt.textContent = _("Move the peg on the board with your %(card)s.", { card: cardName() });
      return;
    }
    if (!moves.length) {
      prompt.textContent = plays.bluffing
        ? (plays.discard ? _("Nothing can move as %(card)s. Declare another card, or discard.", { card: PJ.aRank(sel.rank) })
          : _("Nothing can move as %(card)s. Declare another card.", { card: PJ.aRank(sel.rank) }))
        : _("The %(card)s can't move any peg.", { card: cardText(sel.card) });
      if (plays.discard) offerDiscard(choices);
      return;
    }
    const cands = candidates(moves);
    const done = cands.find((m) => m.steps.length === sel.steps.length);
    if (done) {
      drawBoard(done.result, new Set(done.steps.map((s) => s.to_id)));
      board.mark(done.steps.map((s) => s.to_id), "chosen");   // thin rings: the board stays readable (4.5)
      prompt.textContent = _("Check the board, then confirm.");
      const hits = done.hits.map((h) => _("%(who)s's peg on %(src)s goes to %(dst)s", { who: seatName(view, sideSeat()[h.side]), src: holeWords(h.from), dst: holeWords(h.to) }));
      const desc = hits.length ? _("%(move)s. %(hits)s.", { move: describe(done), hits: hits.reduce((a, b) => _("%(a)s; %(b)s", { a, b })) }) : describe(done);
      showConfirm(desc, () => send(done.move, sel.card));
      const more = cands.filter((m) => m.steps.length > sel.steps.length);
      if (!more.length) return;
    }
    const k = sel.steps.length;
    if (sel.from === null) {
      const froms = uniq(cands.filter((m) => m.steps.length > k).map((m) => m.steps[k].from_id));
      if (!done) {
        prompt.textContent = k === 0 ? _("Tap the peg to move with the %(card)s.", { card: cardName() }) : _("Now tap the second peg (the rest of the %(card)s).", { card: cardName() });
        if (sel.steps.length) {   // the first part of a split drawn made, its peg ringed thinly
          drawBoard(partial(sel.steps), new Set(sel.steps.map((s) => s.to_id)));
          board.mark(sel.steps.map((s) => s.to_id), "chosen");
        }
      } else prompt.textContent = _("%(said)s Or tap another peg to split.", { said: prompt.textContent });
      board.highlight(froms, "movable");
      for (const id of froms) {
        const step = cands.find((m) => m.steps.length > k && m.steps[k].from_id === id).steps[k];
        const b = el("button", "button choice", _("%(peg)s on %(hole)s", { peg: pegName(step.side), hole: holeWords(step.from) }));
        b.addEventListener("click", () => onHoleTap(id));
        choices.append(b);
      }
      if (k === 0 && plays.discard) offerDiscard(choices);
    } else {
      const steps = cands.filter((m) => m.steps.length > k && m.steps[k].from_id === sel.from).map((m) => m.steps[k]);
      const dests = uniq(steps.map((s) => s.to_id));
      prompt.textContent = steps[0] && steps[0].swap_side !== undefined ? _("Tap the peg to swap with.") : _("Tap where it goes.");
      if (sel.steps.length) drawBoard(partial(sel.steps), new Set(sel.steps.map((s) => s.to_id)));
      board.highlight([sel.from], "chosen");
      board.highlight(dests, "dest");
      for (const id of dests) {
        const st = steps.find((s) => s.to_id === id);
        const b = el("button", "button choice", _("to %(hole)s", { hole: holeWords(st.to) }));
        b.addEventListener("click", () => onHoleTap(id));
        choices.append(b);
      }
    }
  }

  /* Tock, Carbles, Jackaroo: each play of the chosen card in words (a pass to the
     partner, a forced discard, a steal too); a move's result is drawn before confirming. */
  function renderOptions(prompt, choices) {
    const giveUp = () => {
      if (!plays.give_up) return;
      const b = el("button", "button warn-b choice", plays.give_up.words);
      b.id = "give-up";
      b.addEventListener("click", () => { sel = { giveUp: true }; render(); });
      choices.append(b);
    };
    if (sel && sel.giveUp) {
      $("cancel").hidden = false;
      prompt.textContent = _("Check, then confirm.");
      showConfirm(plays.give_up.words.toLowerCase(), () => send(plays.give_up.move, null));
      return;
    }
    if (!sel) {
      const any = plays.cards.some((c) => c.moves.length);
      prompt.textContent = plays.prompt ? `${plays.prompt}.`
        : any ? _("Tap a card to play.") : plays.give_up ? _("No card can move.") : _("No card can move: tap a card to discard it.");
      giveUp();
      return;
    }
    $("cancel").hidden = false;
    const info = plays.cards.find((c) => c.card === sel.card);
    const moves = info ? info.moves : [];
    if (!moves.length) { prompt.textContent = _("The %(card)s can't be played now.", { card: cardText(sel.card) }); giveUp(); return; }
    if (sel.option) {
      const m = sel.option;
      if (m.result) {
        try {
          drawBoard(m.result, new Set(m.steps.map((st) => st.to_id)));
          board.mark(m.steps.map((st) => st.to_id), "chosen");
        } catch (e) { drawBoard(); }   // a board this phone can't draw yet: the words say it all
      }
      prompt.textContent = _("Check, then confirm.");
      showConfirm(`${cardText(sel.card)}: ${m.words}`, () => send(m.move, sel.card));
      return;
    }
    prompt.textContent = plays.prompt ? _("%(prompt)s: the %(card)s?", { prompt: plays.prompt, card: cardText(sel.card) })
      : sel.onBoard && !sel.manual ? _("Move the peg on the board with the %(card)s, or choose here:", { card: cardText(sel.card) })
      : _("What to do with the %(card)s:", { card: cardText(sel.card) });
    moves.forEach((m, i) => {
      const b = el("button", "button choice option", m.words);
      b.dataset.move = m.move;
      if (i === 0) b.id = "option-first";
      b.addEventListener("click", () => { sel.option = m; render(); });
      choices.append(b);
    });
  }

  function renderDeclare(cardInfo) {
    const box = $("declare");
    box.hidden = false;
    box.replaceChildren(el("span", "small", _("Play the %(card)s face down as:", { card: cardText(sel.card) })));
    const ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK"];
    for (const r of ranks) {
      const b = el("button", "button rank", r);
      const n = (plays.declare[r] || []).length;
      b.disabled = !n;
      if (sel.rank === r) b.classList.add("selected");
      b.setAttribute("aria-label", r === cardInfo.rank ? _("declare %(rank)s (the real card)", { rank: PJ.aRank(r) }) : _("declare %(rank)s (a bluff)", { rank: PJ.aRank(r) }));
      b.addEventListener("click", () => {
        sel = { card: sel.card, rank: r, steps: [], from: null };
        say("");
        render();
        if (currentMoves().length) chooseOnBoard(sel.card, r);
      });
      box.append(b);
    }
  }

  function offerDiscard(box) {
    const b = el("button", "button warn-b choice", _("Discard the %(card)s", { card: cardText(sel.card) }));
    b.id = "discard";
    b.addEventListener("click", () => {
      showConfirm(_("Discard the %(card)s (no move)", { card: cardText(sel.card) }), () => send(`${PJ.rankOf(sel.card)} discard`, sel.card));
    });
    box.append(b);
  }

  function showConfirm(text, action) {
    const c = $("confirm");
    c.hidden = false;
    c.dataset.words = _("Confirm: %(what)s", { what: text });
    c.textContent = c.dataset.words;
    c.onclick = () => { if (!offline) action(); };
    $("cancel").hidden = false;
    showOffline();
  }

  /* ------------------------------------------------------------------ connection (issue 25, 3)
     While the companion can't be reached the "Your turn" banner is greyed and Confirm says
     the move waits (the choice is kept); when the connection is back, the page says so. */
  let offline = false;
  function showOffline() {
    const c = $("confirm");
    $("banner").classList.toggle("offline", offline);
    c.classList.toggle("offline", offline);
    c.disabled = offline || busy;
    c.setAttribute("aria-disabled", String(offline));
    if (offline) c.textContent = _("Connection lost: your move will wait");
    else if (c.dataset.words) c.textContent = c.dataset.words;
  }

  function connChanged(ok, before) {
    const was = offline;
    offline = !ok;
    if (view) showOffline();
    if (offline && !was) say(_("Connection lost: your move will wait"), "error");
    else if (!offline && was) {
      say(view && view.actor === view.seat && view.status === "playing" && !$("confirm").hidden
        ? _("The connection is back: you can confirm your move.") : _("The connection is back."), "info");
      refresh();
    }
  }

  const uniq = (a) => Array.from(new Set(a));
  const cardName = () => (plays.bluffing ? _("card, declared as %(card)s", { card: PJ.aRank(sel.rank) }) : cardText(sel.card));
  const pegName = (side) => _("%(colour)s peg", { colour: pgettext("peg colour", view.seats[sideSeat()[side]].colour.name.toLowerCase()) });

  function describe(m) {
    if (m.kind === "swap") {
      const s = m.steps[0];
      return _("swap the %(peg)s on %(src)s with the %(other)s on %(dst)s", { peg: pegName(s.side), src: holeWords(s.from), other: pegName(s.swap_side), dst: holeWords(s.to) });
    }
    const parts = m.steps.map((s) => _("%(peg)s %(src)s → %(dst)s", { peg: pegName(s.side), src: holeWords(s.from), dst: holeWords(s.to) }));
    let steps = parts[parts.length - 1];
    for (let i = parts.length - 2; i >= 0; i--) steps = _("%(a)s, then %(b)s", { a: parts[i], b: steps });
    const card = plays.bluffing ? _("as %(card)s", { card: PJ.aRank(sel.rank) }) : cardText(sel.card);
    return _("%(card)s: %(steps)s", { card, steps });
  }

  function currentMoves() {
    if (!plays || !sel) return [];
    if (plays.bluffing) return sel.rank ? plays.declare[sel.rank] || [] : [];
    const c = plays.cards.find((x) => x.card === sel.card);
    return c ? c.moves : [];
  }

  function candidates(moves) {
    return moves.filter((m) => sel.steps.every((s, i) => m.steps[i] && m.steps[i].from_id === s.from_id && m.steps[i].to_id === s.to_id));
  }

  // ------------------------------------------------------------------ input
  function pickCard(card) {
    if (!plays || busy) return;
    const info = plays.cards.find((c) => c.card === card);
    sel = { card, rank: info.rank, steps: [], from: null };
    if (plays.bluffing && !(plays.declare[info.rank] || []).length) {
      const first = Object.keys(plays.declare).find((r) => plays.declare[r].length);
      sel.rank = first || info.rank;
    }
    say("");
    render();
    if (plays.bluffing) chooseOnBoard(null, null);   // the board follows a bluffing card once declared
    else if (plays.options ? info.moves.some((m) => m.steps && m.steps.length) : currentMoves().length) {
      chooseOnBoard(card, sel.rank);   // Tock, Carbles, Jackaroo: its peg moves are made on the board too
    }
  }

  function onHoleTap(id) {
    if (!view || busy || view.actor !== view.seat || !plays) return;
    if (view.phase === "penalty" && plays.penalty) {
      const m = plays.penalty.find((p) => p.steps[0].from_id === id);
      if (m) { sel = { penalty: m }; renderAction(true); }
      else say(_("Tap one of the highlighted pegs."), "error");
      return;
    }
    if (plays.options) { say(sel ? _("Choose one of the plays listed.") : _("First tap a card below."), "info"); return; }
    if (!sel || view.phase !== "play") { say(_("First tap a card below."), "info"); return; }
    const moves = candidates(currentMoves());
    const k = sel.steps.length;
    const next = moves.filter((m) => m.steps.length > k);
    if (sel.from === null) {
      if (next.some((m) => m.steps[k].from_id === id)) {
        sel.from = id;
        say("");
      } else if (isOwnPeg(id)) {
        say(_("That peg has no legal move with the %(card)s.", { card: cardName() }), "error");
      } else say(_("Tap one of the highlighted pegs."), "info");
      renderAction(true);
      return;
    }
    if (id === sel.from) { sel.from = null; renderAction(true); return; }
    const step = next.map((m) => m.steps[k]).find((s) => s.from_id === sel.from && s.to_id === id);
    if (step) {
      sel.steps.push(step);
      sel.from = null;
      say("");
      renderAction(true);
      return;
    }
    if (next.some((m) => m.steps[k].from_id === id)) { sel.from = id; renderAction(true); return; }
    explainTap(id);
  }

  function isOwnPeg(id) {
    const g = board.pegLayer.querySelector(`.peg[data-hole="${id}"]`) ||
      (id.startsWith("S-s") ? board.pegLayer.querySelector(`.peg[data-side="${id.slice(3)}"]`) : null);
    return g && view.controls.includes(sideSeat()[g.dataset.side]);
  }

  /* A destination the list doesn't have: ask the referee why, in words with the rule. */
  async function explainTap(id) {
    const fromTok = tokenOf(sel.from), toTok = tokenOf(id);
    const side = sel.from.startsWith("S-s") ? sel.from.slice(3) : sideOfPegAt(sel.from);
    if (side === null || !toTok) { say(_("Tap one of the highlighted holes."), "info"); return; }
    const rank = plays.bluffing ? sel.rank : PJ.rankOf(sel.card);
    const prev = sel.steps.map((s) => `${s.side}:${s.from}-${s.to}`);
    const move = [rank, ...prev, `${side}:${fromTok}-${toTok}`].join(" ");
    try {
      await api(`/api/games/${gid}/check`, { version: view.version, move, card: sel.card });
      say(_("That move needs the whole count of the card: tap a highlighted hole."), "info");
    } catch (e) {
      if (e.status === 409) return refresh();
      say(e.body.words || (e.body.rule ? _("%(said)s (rule %(rule)s)", { said: e.message, rule: e.body.rule }) : e.message), "error", e.body.rule);
    }
  }

  function tokenOf(id) {
    if (/^S-s/.test(id)) return "S";
    const h = /^(H\d)-s\d+$/.exec(id);
    if (h) return h[1];
    return /^M\d+$/.test(id) ? id : null;
  }

  function sideOfPegAt(id) {
    const g = board.pegLayer.querySelector(`.peg[data-hole="${id}"]`);
    return g ? g.dataset.side : null;
  }

  async function send(move, card) {
    if (busy || offline) return;
    busy = true;
    $("confirm").disabled = true;
    try {
      const r = await api(`/api/games/${gid}/act`, { version: view.version, move, card });
      sel = null;
      plays = null;
      view = r.view;
      conn.seen(view.version);
      say("");
      render();
      refresh();   // this phone may act again at once (a penalty to choose, its turn): load its plays
    } catch (e) {
      if (e.status === 0) { say(_("Connection lost: your move will wait"), "error"); return; }   // not sent: the choice is kept
      if (e.status === 409) { say(e.message, "info"); view = null; await refresh(); }
      else say(e.body && e.body.words ? e.body.words : e.body && e.body.rule ? _("%(said)s (rule %(rule)s)", { said: e.message, rule: e.body.rule }) : e.message, "error", e.body && e.body.rule);
    } finally {
      busy = false;
      $("confirm").disabled = offline;
    }
  }

  $("cancel").addEventListener("click", () => {
    if (!sel) return;
    if (sel.from !== null && sel.from !== undefined) sel.from = null;
    else if (sel.steps && sel.steps.length) sel.steps.pop();
    else if (sel.manual && sel.onBoard) sel.manual = false;
    else {
      if (sel.card && mirror) chooseOnBoard(null);
      sel = null;
    }
    say("");
    render();
  });

  $("manual").addEventListener("click", () => {
    if (!sel) return;
    sel.manual = true;
    say("");
    render();
  });

  // a version event brings the view; the board has events of its own (its version), so only a
  // wake-up or the safety tick (ver null) asks both
  const conn = PJ.live(gid, (ver) => { refresh(ver); if (ver === null) refreshBoard(); }, $("conn"),
    (mirror || bb.control) ? refreshBoard : null, connChanged);
  refresh();   // without a seat: learns why (and stops listening unless the host is asked)
  refreshBoard();
})();
