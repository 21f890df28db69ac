/* The board's pegs and highlights, drawn over the holes of web/board.py's SVG.

   Reusable: pegs are <g class="peg" data-hole=...>, holes are found by id
   (M12, H3-s2, S-s2-1); highlight(ids, cls) puts a class on holes and a big
   invisible tap target over each, onTap(holeId) reports taps on holes, pegs
   and targets alike (start holes report "S-s2", their side's start). */
"use strict";

class Board {
  constructor(svg, onTap) {
    this.svg = svg;
    this.unit = parseFloat(svg.dataset.unit || "20");
    this.pegLayer = svg.querySelector("#pegs");
    this.targetLayer = svg.querySelector("#targets");
    this.onTap = onTap || (() => {});
    this.pos = {};
    svg.querySelectorAll(".hole").forEach((h) => {
      this.pos[h.id] = [parseFloat(h.getAttribute("cx")), parseFloat(h.getAttribute("cy"))];
    });
    svg.addEventListener("click", (ev) => {
      const t = ev.target.closest("[data-hole], .hole");
      if (!t) return;
      const id = t.dataset.hole || t.id;
      this.onTap(Board.normal(id));
    });
  }

  static normal(id) {
    const m = /^S-s(\d+)-\d+$/.exec(id);
    return m ? `S-s${m[1]}` : id;
  }

  static NS = "http://www.w3.org/2000/svg";

  /* pegs: {"side": ["S", "M8", "H2"]}; seats: public seat list; sideSeat: side -> seat */
  setPegs(pegs, seats, sideSeat, moved) {
    const layer = this.pegLayer;
    layer.replaceChildren();
    const r = this.unit * 0.42;
    for (const [side, tokens] of Object.entries(pegs)) {
      const seat = seats[sideSeat[side]];
      let startSlot = 0;
      for (const tok of tokens) {
        let id;
        if (tok === "S") { startSlot += 1; id = `S-s${side}-${startSlot}`; }
        else id = PJ.holeId(side, tok);
        const p = this.pos[id];
        if (!p) continue;
        const g = document.createElementNS(Board.NS, "g");
        g.setAttribute("class", `peg${moved && moved.has(id) ? " moved" : ""}`);
        g.dataset.hole = id;
        g.dataset.side = side;
        const c = document.createElementNS(Board.NS, "circle");
        c.setAttribute("cx", p[0]); c.setAttribute("cy", p[1]);
        c.setAttribute("r", tok === "S" ? r * 0.85 : r);
        c.setAttribute("fill", seat.colour.hex);
        const t = document.createElementNS(Board.NS, "text");
        t.setAttribute("x", p[0]); t.setAttribute("y", p[1] + r * 0.38);
        t.setAttribute("fill", seat.colour.ink);
        t.setAttribute("font-size", (r * (seat.label.length > 1 ? 0.85 : 1.1)).toFixed(1));
        t.setAttribute("text-anchor", "middle");
        t.textContent = seat.label;
        const title = document.createElementNS(Board.NS, "title");
        title.textContent = `${seat.name} (${seat.colour.name}) — ${PJ.holeWords(tok)}`;
        g.append(c, t, title);
        layer.append(g);
      }
    }
  }

  /* Highlight holes (ids as in steps: M12, H3-s2, S-s2) with class cls and tap targets. */
  highlight(ids, cls) {
    for (const id of ids) {
      const m = /^S-s(\d+)$/.exec(id);
      const targets = m
        ? Array.from(this.pegLayer.querySelectorAll(`.peg[data-side="${m[1]}"]`))
            .map((g) => g.dataset.hole).filter((h) => h.startsWith("S-"))
        : [id];
      for (const hid of targets) {
        const h = this.svg.getElementById(hid);
        if (!h) continue;
        h.classList.add(cls);
        const p = this.pos[hid];
        const c = document.createElementNS(Board.NS, "circle");
        c.setAttribute("cx", p[0]); c.setAttribute("cy", p[1]);
        c.setAttribute("r", this.unit * 0.62);
        c.setAttribute("class", `target ${cls}`);
        c.dataset.hole = hid;
        this.targetLayer.append(c);
      }
    }
  }

  /* Thin rings (not tap targets) on holes: a preview's destinations, drawn so they don't
     cover the pegs and holes around them while the player checks the board (issue 25, 4.5). */
  mark(ids, cls) {
    for (const id of ids) {
      const p = this.pos[id];
      if (!p) continue;
      const c = document.createElementNS(Board.NS, "circle");
      c.setAttribute("cx", p[0]); c.setAttribute("cy", p[1]);
      c.setAttribute("r", this.unit * 0.48);
      c.setAttribute("class", `mark ${cls}`);
      this.targetLayer.append(c);
    }
  }

  /* The move just made (the newest log entry's notation, "7 0:M3-M7 2:M10-M13", "J 0:M3<>1:M9"):
     a dashed ring where each peg left, a solid square round where it arrived; the shape,
     not only the colour, tells them (issue 25, 3). */
  lastMove(entry) {
    let layer = this.svg.querySelector("#last-move");
    if (!layer) {
      layer = document.createElementNS(Board.NS, "g");
      layer.id = "last-move";
      layer.setAttribute("class", "last-move");
      layer.setAttribute("aria-hidden", "true");
      this.svg.insertBefore(layer, this.pegLayer);
    }
    layer.replaceChildren();
    if (!entry || entry.cancelled || !entry.move) return;
    const u = this.unit;
    const put = (tag, attrs, cls) => {
      const e = document.createElementNS(Board.NS, tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      e.setAttribute("class", cls);
      layer.append(e);
    };
    const swap = /(\d+):(M\d+|H\d+)<>(\d+):(M\d+|H\d+)/.exec(entry.move);
    const pairs = swap ? [[swap[1], swap[2], swap[3], swap[4]], [swap[3], swap[4], swap[1], swap[2]]]
      : Array.from(entry.move.matchAll(/(\d+):(S|M\d+|H\d+)-(S|M\d+|H\d+)/g), (m) => [m[1], m[2], m[1], m[3]]);
    for (const [fs, from, ts, to] of pairs) {
      const a = from === "S" ? null : this.pos[PJ.holeId(fs, from)];
      const b = to === "S" ? null : this.pos[PJ.holeId(ts, to)];
      if (a && !swap) put("circle", { cx: a[0], cy: a[1], r: u * 0.5 }, "last-from");
      if (b) put("rect", { x: b[0] - u * 0.55, y: b[1] - u * 0.55, width: u * 1.1, height: u * 1.1, rx: u * 0.12 }, "last-to");
    }
  }

  clear() {
    this.targetLayer.replaceChildren();
    this.svg.querySelectorAll(".hole.movable, .hole.dest, .hole.chosen, .hole.victim, .hole.hint").forEach((h) =>
      h.classList.remove("movable", "dest", "chosen", "victim", "hint"));
  }
}
