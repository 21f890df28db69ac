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

  clear() {
    this.targetLayer.replaceChildren();
    this.svg.querySelectorAll(".hole.movable, .hole.dest, .hole.chosen, .hole.victim, .hole.hint").forEach((h) =>
      h.classList.remove("movable", "dest", "chosen", "victim", "hint"));
  }
}
