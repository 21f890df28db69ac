/* The camera page: a picture, the markers and holes the camera reads there, taps when the
   markers are missing, the colour warnings, Save. */
"use strict";

(() => {
  const { boot, api } = PJ;
  const $ = (id) => document.getElementById(id);
  const NS = "http://www.w3.org/2000/svg";
  let size = null, taps = [], tapNames = [], lastColours = null, tapping = false, lastPoints = null;
  let hasEmpty = false;
  const FILL = { Red: "#d62728", Blue: "#1f5fbf", Green: "#2e9e3e", Yellow: "#f5c800", Black: "#222222",
    White: "#f7f7f7", Orange: "#ff7f0e", Purple: "#7b3fa0", Pink: "#f27db5", Teal: "#139a9a",
    Brown: "#8c564b", Grey: "#8a8a8a" };

  function say(id, msg) { const e = $(id); e.hidden = !msg; e.textContent = msg || ""; }

  function colourPickers() {
    const box = $("colours");
    boot.defaults.forEach((key, side) => {
      const label = document.createElement("label");
      label.htmlFor = `colour-${side}`;
      label.textContent = _("Side %(number)s", { number: side + 1 });
      const sel = document.createElement("select");
      sel.id = `colour-${side}`;
      const none = new Option(_("no pegs"), "");
      sel.add(none);
      for (const c of boot.colours) sel.add(new Option(pgettext("colour", c.name), c.key));
      sel.value = key;
      box.append(label, sel);
    });
  }
  function colours() {
    return boot.defaults.map((_, side) => $(`colour-${side}`).value || null);
  }

  function svg(tag, attrs, cls) {
    const n = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
    if (cls) n.setAttribute("class", cls);
    return n;
  }

  function draw(res) {
    const o = $("overlay");
    o.replaceChildren();
    o.setAttribute("viewBox", `0 0 ${res.size[0]} ${res.size[1]}`);
    for (const [id, c] of Object.entries(res.markers || {})) {
      o.append(svg("polygon", { points: c.map((p) => p.join(",")).join(" "), "data-marker": id }, "marker"));
    }
    const r = Math.max(5, res.size[0] / 150);
    for (const h of res.holes || []) {
      const n = svg("circle", { cx: h.x, cy: h.y, r, "data-hole": h.id }, `hole ${h.state}`);
      if (h.state === "filled") n.setAttribute("fill", FILL[h.colour] || "#888");
      const t = document.createElementNS(NS, "title");
      t.textContent = `${h.id}: ${h.state === "filled" ? (h.colour || "a") + " peg" : h.state}`;
      n.append(t);
      o.append(n);
    }
    for (const p of taps) o.append(svg("circle", { cx: p[0], cy: p[1], r: r * 1.2 }, "tap"));
    $("legend").hidden = false;
  }

  function words(res) {
    const list = $("warnings");
    list.replaceChildren();
    for (const w of [...res.weak, ...res.warnings.filter((x) => !res.weak.includes(x))]) {
      const li = document.createElement("li");
      li.textContent = w;
      list.append(li);
    }
    // the camera's measured height, tilt and lens, and the working envelope for these pegs
    for (const c of res.camera || []) {
      const li = document.createElement("li");
      li.className = "camera-info";
      li.textContent = c;
      list.append(li);
    }
    const filled = res.holes.filter((h) => h.state === "filled").length;
    const unsure = res.holes.filter((h) => h.state === "unsure").length;
    if (res.holes.length) {
      const read = unsure ? ngettext("The camera reads %(filled)s pegs and %(n)s unsure hole.",
                                     "The camera reads %(filled)s pegs and %(n)s unsure holes.", unsure, { filled })
        : _("The camera reads %(filled)s pegs.", { filled });
      const apart = _("It can tell every colour apart: save it.");
      say("cam-msg", res.ok ? `${read} ${apart}` : read);
    }
    $("accept-row").hidden = res.ok || !res.holes.length;
    $("save").disabled = !res.holes.length;
  }

  function askTaps(res) {
    tapping = true;
    tapNames = res.tap;
    taps = [];
    const found = Object.keys(res.markers).length;
    say("cam-msg", _("The camera found %(found)s of the board's markers (it needs %(needed)s).", { found, needed: res.markers_needed }));
    showTapHelp();
  }
  function showTapHelp() {
    const next = tapNames[taps.length];
    say("tap-help", next ? _("Tap hole %(hole)s of the main track on the picture (%(k)s of 4: holes %(holes)s).",
      { hole: next.replace(/^M/, ""), k: taps.length + 1, holes: tapNames.map((h) => h.replace(/^M/, "")).join(", ") }) : "");
    $("tap-reset").hidden = taps.length === 0;
  }

  async function analyse(points) {
    say("cam-error", "");
    lastColours = colours();
    lastPoints = points;
    const body = { colours: lastColours };
    if (points) body.points = points;
    let res;
    try { res = await api("/api/camera/analyse", body); } catch (e) { say("cam-error", e.message); return; }
    draw(res);
    if (res.error && !points && Object.keys(res.markers).length < res.markers_needed) {
      askTaps(res);
      $("save").disabled = true;
      $("warnings").replaceChildren();
      return;
    }
    tapping = false;
    say("tap-help", "");
    $("tap-reset").hidden = !points;
    if (res.error) {
      say("cam-error", res.error);
      $("save").disabled = true;
      if (hasEmpty && res.error.includes("empty-board picture")) {
        showEmpty(_("Taken, but the camera can't use it (see the message above): retake it, or don't use it."), false);
      }
      return res;
    }
    words(res);
    if (res.empty_used) showEmpty(_("Done: the camera uses it for the start holes."));
    return res;
  }

  function showEmpty(msg, ok = hasEmpty) {
    $("empty-state").textContent = msg;
    $("empty-state").classList.toggle("done", ok);
    $("take-empty").textContent = hasEmpty ? _("Retake the empty board") : _("Take a picture of the empty board");
    $("drop-empty").hidden = !hasEmpty;
    $("empty-snap").hidden = !hasEmpty;
  }

  async function takeEmpty() {
    say("cam-error", "");
    $("empty-state").textContent = _("Taking a picture of the empty board…");
    let res;
    try { res = await api("/api/camera/empty", {}); } catch (e) { say("cam-error", e.message);
      showEmpty(hasEmpty ? _("The earlier picture of the empty board is kept.") : _("Not taken.")); return; }
    hasEmpty = true;
    const img = $("empty-snap");
    await new Promise((ok) => { img.onload = ok; img.onerror = ok; img.src = `/api/camera/empty.jpg?t=${Date.now()}`; });
    if (!size) {     // no set-up picture yet: that comes next
      showEmpty(_("Done. Now put every colour's pegs back in its start holes and take the picture above."));
      return;
    }
    showEmpty(_("Done. The camera reads the picture with the pegs again…"));
    await analyse(lastPoints);
    if (tapping) showEmpty(_("Done. Now tap the four holes on the picture above."));
  }

  async function dropEmpty() {
    say("cam-error", "");
    try { await api("/api/camera/empty", { drop: true }); } catch (e) { say("cam-error", e.message); return; }
    hasEmpty = false;
    showEmpty(_("Not used: the camera learns the start holes from their neighbours."));
    if (size) await analyse(lastPoints);
  }

  async function take() {
    say("cam-error", "");
    say("cam-msg", _("Taking a picture…"));
    taps = [];
    let res;
    try { res = await api("/api/camera/snapshot", {}); } catch (e) { say("cam-error", e.message); say("cam-msg", ""); return; }
    size = res.size;
    const img = $("snap");
    await new Promise((ok) => { img.onload = ok; img.onerror = ok; img.src = `/api/camera/snapshot.jpg?t=${Date.now()}`; });
    $("view").hidden = false;
    await analyse(null);
  }

  $("view").addEventListener("click", (ev) => {    // the overlay covers the picture: listen on both
    if (!tapping || !size) return;
    const box = $("snap").getBoundingClientRect();
    const x = (ev.clientX - box.left) * size[0] / box.width;
    const y = (ev.clientY - box.top) * size[1] / box.height;
    taps.push([Math.round(x * 10) / 10, Math.round(y * 10) / 10]);
    const o = $("overlay");
    o.append(svg("circle", { cx: x, cy: y, r: Math.max(6, size[0] / 120) }, "tap"));
    showTapHelp();
    if (taps.length === 4) analyse(taps);
  });
  $("tap-reset").addEventListener("click", () => { taps = []; tapping = true; analyse(null); });
  $("take").addEventListener("click", take);
  $("take-empty").addEventListener("click", takeEmpty);
  $("drop-empty").addEventListener("click", dropEmpty);
  $("save").addEventListener("click", async () => {
    say("cam-error", "");
    try {
      const res = await api("/api/camera/save", { accept_weak: $("accept-weak").checked });
      say("cam-msg", res.message);
    } catch (e) { say("cam-error", e.message); }
  });
  colourPickers();
  if (boot.empty) {      // taken before this page was (re)loaded
    hasEmpty = true;
    $("empty-snap").src = `/api/camera/empty.jpg?t=${Date.now()}`;
    showEmpty(_("Done: the next reading uses it."));
  }
  $("target").textContent = boot.target ? _("Save writes %(file)s.", { file: boot.target }) : _("There is no config file to save beside.");
})();
