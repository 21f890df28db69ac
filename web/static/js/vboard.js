/* The board's LEDs mirrored on the page, and the simulated board you can drag pegs on.

   LedMirror draws what each LED under a hole shows (colour and pattern, from
   GET /api/games/ID/board) as a glow under the hole: steady, slow blink, fast blink
   or a pulse that never goes dark, so the roles can be told apart without colour.

   VirtualBoard (simulation mode) stands in for the wooden board: its pegs are
   where the simulated board says they are; picking one up (pointer down, mouse or
   touch) lifts it off its reed switch (POST .../board/lift), dropping it on a hole
   puts it there (POST .../board/place), dropping it anywhere else keeps it in the
   hand (the tray). The referee sees exactly what real switches would report. */
"use strict";

const LED_WORDS = {
  "can-move": _("slow blink: this peg can move"),
  legal: _("steady: the peg in hand may go here"),
  hit: _("pulse: a hit peg goes here"),
  wrong: _("fast blink: wrong, put it right"),
  selected: _("white: the peg in your hand came from here"),
  hint: _("double flash: the hint's move, this peg or where it goes"),
};

class LedMirror {
  /* A hole id as a player finds it: "M21" hole 21, "H3-s1" home hole 3, "S-s1-5" start. */
  static holeName(hole) {
    if (hole[0] === "M") return _("hole %(number)s", { number: hole.slice(1) });
    if (hole[0] === "H") return _("home hole %(number)s", { number: hole.slice(1).split("-")[0] });
    return _("start");
  }

  constructor(board) {
    this.board = board;
    this.layer = board.svg.querySelector("#leds");
  }

  render(leds) {
    const layer = this.layer;
    if (!layer) return;
    const keep = new Set();
    for (const [hole, led] of Object.entries(leds || {})) {
      const p = this.board.pos[hole];
      if (!p) continue;
      keep.add(hole);
      let c = layer.querySelector(`[data-led="${hole}"]`);
      const cls = `led led-${led.pattern} role-${led.role || "custom"}`;
      if (c && c.getAttribute("class") === cls && c.getAttribute("fill") === led.rgb) continue;
      if (c) c.remove();   // a new look starts its pattern afresh, as the LED does
      c = document.createElementNS(Board.NS, "circle");
      c.setAttribute("cx", p[0]);
      c.setAttribute("cy", p[1]);
      c.setAttribute("r", this.board.unit * 0.66);
      c.setAttribute("fill", led.rgb);
      c.setAttribute("class", cls);
      c.dataset.led = hole;
      c.dataset.role = led.role || "";
      if (led.period) c.style.animationDuration = `${led.period}s`;
      const t = document.createElementNS(Board.NS, "title");
      // a hole that wants a particular peg glows in that peg's colour, and says so
      const what = led.want ? _("%(who)s's peg goes here", { who: led.want }) : LED_WORDS[led.role] || led.pattern;
      t.textContent = `${LedMirror.holeName(hole)}: ${what}`;
      if (led.want) c.dataset.want = led.want;
      c.append(t);
      layer.append(c);
    }
    layer.querySelectorAll("[data-led]").forEach((c) => { if (!keep.has(c.dataset.led)) c.remove(); });
  }
}

class VirtualBoard {
  /* board: a Board over the table's SVG; tray: the element listing the pegs in the hand;
     gid; look(side) -> {hex, ink, label, name} for a side's pegs; onState(state) after each change;
     readOnly: draw the pegs but let nobody drag them */
  constructor(board, tray, gid, look, onState, readOnly = false) {
    this.board = board;
    this.readOnly = readOnly;   // a display the host has not paired: look, don't touch
    this.svg = board.svg;
    this.tray = tray;
    this.gid = gid;
    this.look = look;
    this.onState = onState;
    this.state = null;
    this.drag = null;
    if (!readOnly) this.svg.classList.add("virtual");
    this.svg.addEventListener("pointerdown", (ev) => this.down(ev, ev.target.closest(".peg")));
    this.tray.addEventListener("pointerdown", (ev) => this.down(ev, ev.target.closest(".tray-peg")));
    for (const el of [this.svg, this.tray]) {
      el.addEventListener("pointermove", (ev) => this.move(ev));
      el.addEventListener("pointerup", (ev) => this.up(ev));
      el.addEventListener("pointercancel", (ev) => this.up(ev, true));
    }
  }

  /* the simulated board's pegs ({hole: side}) and the pegs in the hand */
  render(state) {
    this.state = state;
    if (this.drag) return;   // drawn again when the peg is put down
    const layer = this.board.pegLayer;
    layer.replaceChildren();
    const r = this.board.unit * 0.42;
    const b = state.board || { pegs: {}, tray: [] };
    for (const [hole, side] of Object.entries(b.pegs)) {
      const p = this.board.pos[hole];
      if (!p) continue;
      layer.append(this.pegEl(p[0], p[1], hole.startsWith("S-") ? r * 0.85 : r, side, hole));
    }
    const hit = new Set((state.hits || []).map((h) => h.side));
    this.tray.replaceChildren();
    b.tray.forEach((side, i) => {
      const L = this.look(side);
      const t = document.createElement("button");
      t.type = "button";
      t.className = `tray-peg chip col-${L.key}${hit.has(side) ? " hit" : ""}`;
      t.textContent = L.label;
      t.dataset.side = side;
      t.dataset.i = i;
      t.setAttribute("aria-label", hit.has(side) ? _("%(colour)s peg in the hand (a hit peg: put it where the pulsing hole is)", { colour: pgettext("colour", L.name) })
        : _("%(colour)s peg in the hand", { colour: pgettext("colour", L.name) }));
      this.tray.append(t);
    });
    if (!b.tray.length) {
      const e = document.createElement("span");
      e.className = "muted small";
      e.textContent = _("none");
      this.tray.append(e);
    }
  }

  pegEl(x, y, r, side, hole) {
    const L = this.look(side);
    const g = document.createElementNS(Board.NS, "g");
    g.setAttribute("class", "peg");
    if (hole) g.dataset.hole = hole;
    g.dataset.side = side;
    const c = document.createElementNS(Board.NS, "circle");
    c.setAttribute("cx", x); c.setAttribute("cy", y); c.setAttribute("r", r);
    c.setAttribute("fill", L.hex);
    const t = document.createElementNS(Board.NS, "text");
    t.setAttribute("x", x); t.setAttribute("y", y + r * 0.38);
    t.setAttribute("fill", L.ink);
    t.setAttribute("font-size", (r * (L.label.length > 1 ? 0.85 : 1.1)).toFixed(1));
    t.setAttribute("text-anchor", "middle");
    t.textContent = L.label;
    const title = document.createElementNS(Board.NS, "title");
    title.textContent = hole ? _("%(colour)s peg on %(hole)s: drag it", { colour: pgettext("colour", L.name), hole: LedMirror.holeName(hole) })
      : _("%(colour)s peg: drag it", { colour: pgettext("colour", L.name) });
    g.append(c, t, title);
    return g;
  }

  svgPoint(ev) {
    const pt = this.svg.createSVGPoint();
    pt.x = ev.clientX; pt.y = ev.clientY;
    return pt.matrixTransform(this.svg.getScreenCTM().inverse());
  }

  holeAt(ev) {
    const p = this.svgPoint(ev);
    let best = null, bestD = this.board.unit * 0.75;
    for (const [id, q] of Object.entries(this.board.pos)) {
      const d = Math.hypot(q[0] - p.x, q[1] - p.y);
      if (d < bestD) { best = id; bestD = d; }
    }
    return best;
  }

  down(ev, el) {
    if (this.readOnly || !el || this.drag || !this.state || !this.state.board) return;
    ev.preventDefault();
    const side = Number(el.dataset.side);
    const ghost = document.createElement("div");
    const L = this.look(side);
    ghost.className = `drag-ghost chip col-${L.key}`;
    ghost.textContent = L.label;
    document.body.append(ghost);
    this.drag = { side, from: el.dataset.hole || null, el, ghost, id: ev.pointerId, lifted: null };
    (el.closest("svg") ? this.svg : this.tray).setPointerCapture(ev.pointerId);
    this.place(ghost, ev);
    el.classList.add("lifting");
    if (this.drag.from) {   // the peg leaves its hole now: the switch opens
      this.drag.lifted = this.post("lift", { hole: this.drag.from }).catch((e) => { this.fail(e); return null; });
    }
  }

  place(ghost, ev) {
    ghost.style.left = `${ev.clientX}px`;
    ghost.style.top = `${ev.clientY}px`;
  }

  move(ev) {
    if (!this.drag || ev.pointerId !== this.drag.id) return;
    this.place(this.drag.ghost, ev);
  }

  async up(ev, cancelled) {
    const d = this.drag;
    if (!d || ev.pointerId !== d.id) return;
    d.ghost.remove();
    const hole = cancelled ? null : this.holeAt(ev);
    if (d.lifted) await d.lifted;
    this.drag = null;
    if (hole) {
      try { await this.post("place", { hole, side: d.side }); }
      catch (e) { this.fail(e); }
    } else if (this.state) this.render(this.state);   // kept in the hand
  }

  async post(what, body) {
    const st = await PJ.api(`/api/games/${this.gid}/board/${what}`, body);
    if (!this.drag) this.render(st);
    else this.state = st;
    if (this.onState) this.onState(st);
    return st;
  }

  fail(e) {
    if (this.onState) this.onState(null, e.message);
    if (this.state) this.render(this.state);
  }
}
