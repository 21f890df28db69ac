/* New table form: preset (with its description and differences), players and
   teams, names, peg colours, computer seats, the shoe, drawing for partners. */
"use strict";

(() => {
  const { boot, api, el } = PJ;
  const $ = (id) => document.getElementById(id);
  const presets = Object.fromEntries(boot.presets.map((p) => [p.name, p]));
  const palette = boot.palette;
  let players = 4, teams = 2, sections = 4;
  const switches = {};   // Tock, Carbles: the preset's switches that are on
  // Tock, Carbles, Jackaroo list their own seat counts, teams and board sections
  const related = () => !!presets[presetSel.value].layouts;
  const names = [], colours = [...boot.defaults], bots = [];
  const picked = [];   // seats whose colour the host chose: defaults don't overwrite them

  const presetSel = $("preset");
  for (const p of boot.presets) {
    const o = el("option", null, p.title || p.name.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase()));
    o.value = p.name;
    presetSel.append(o);
  }
  presetSel.addEventListener("change", showPreset);

  function showPreset() {
    const p = presets[presetSel.value];
    $("preset-desc").textContent = p.description;
    const ul = $("preset-diff");
    const lines = p.differences.length ? p.differences : [_("none: this is the basic game")];
    ul.replaceChildren(...lines.map((d) => el("li", null, d)), ...p.rulings.map((r) => el("li", "muted", _("Ruling: %(ruling)s", { ruling: r }))));
    $("decks").value = p.decks;
    $("jokers_per_deck").value = p.jokers_per_deck;
    $("extra_jokers").value = p.extra_jokers;
    $("shoe-box").hidden = !!p.layouts;   // the related games' own deck (RELATED-GAMES.md)
    const sw = $("switches");
    sw.replaceChildren(...(p.switches || []).map((x) => {
      const lab = el("label", "check");
      const cb = el("input");
      cb.type = "checkbox";
      cb.id = `switch-${x.name}`;
      cb.checked = !!switches[x.name];
      cb.addEventListener("change", () => { switches[x.name] = cb.checked; });
      lab.append(cb, document.createTextNode(` ${x.doc}`));
      return lab;
    }));
    if (p.layouts && !p.layouts[String(players)]) players = Number(Object.keys(p.layouts).includes("4") ? 4 : Object.keys(p.layouts)[0]);
    if (!p.layouts && !boot.layouts[String(players)]) players = 4;
    if (!p.layouts && !boot.layouts[String(players)].includes(teams)) teams = 2;
    if (p.layouts) sections = p.layouts[String(players)].default_sections;
    renderPlayers();
  }

  function seg(box, values, current, label, onPick) {
    box.replaceChildren();
    for (const v of values) {
      const b = el("button", "seg-b", label(v));
      b.type = "button";
      b.setAttribute("role", "radio");
      b.setAttribute("aria-checked", String(v === current));
      b.dataset.value = v;
      b.addEventListener("click", () => onPick(v));
      box.append(b);
    }
  }

  function renderPlayers() {
    const p = presets[presetSel.value];
    const counts = p.layouts ? Object.keys(p.layouts).map(Number) : [2, 4, 6, 8, 10];
    seg($("players"), counts, players, (n) => ngettext("%(n)s player", "%(n)s players", n), (n) => {
      players = n;
      teams = p.layouts ? p.layouts[String(n)].teams : 2;
      if (p.layouts) sections = p.layouts[String(n)].default_sections;
      renderPlayers();
    });
    if (p.layouts) {
      const lay = p.layouts[String(players)];
      teams = lay.teams;
      seg($("teams"), [teams], teams, (t) => (t === players ? _("each on their own") : ngettext("%(n)s team of 2, partners opposite", "%(n)s teams of 2, partners opposite", t)), () => {});
      $("sections").hidden = lay.sections.length < 2;
      seg($("sections"), lay.sections, sections, (x) => ngettext("board of %(n)s section", "board of %(n)s sections", x), (x) => {
        sections = x;
        renderPlayers();
      });
    } else {
      $("sections").hidden = true;
      const layouts = boot.layouts[String(players)];
      seg($("teams"), layouts, teams, (t) => (players === 2 ? _("1 against 1") : ngettext("%(n)s team of %(size)s", "%(n)s teams of %(size)s", t, { size: players / t })), (t) => {
        teams = t;
        renderPlayers();
      });
    }
    const solo = related() && teams === players;   // no partners to draw for
    $("draw").closest("label").hidden = solo;
    if (solo && $("draw").checked) { $("draw").checked = false; $("dealer-row").hidden = false; }
    const dealer = $("dealer");
    const prev = dealer.value;
    dealer.replaceChildren(...Array.from({ length: players }, (unused, i) => {
      const o = el("option", null, names[i] ? _("Seat %(number)s (%(name)s)", { number: i + 1, name: names[i] }) : _("Seat %(number)s", { number: i + 1 }));
      o.value = i;
      return o;
    }));
    dealer.value = prev !== "" && Number(prev) < players ? prev : players - 1;
    renderSeats();
    shoeSize();
  }

  function renderSeats() {
    const ol = $("seats");
    ol.replaceChildren();
    const draw = $("draw").checked;
    $("seats-help").textContent = draw
      ? _("Names in any order: the draw seats everyone. Peg colours belong to the seats round the board.")
      : _("In seating order, clockwise round the board. Pick each seat's peg colour to match the pegs on the board.");
    for (let i = 0; i < players; i++) {
      // RG-B4: in Tock, Carbles, Jackaroo a seat's colour is its side's (seat i on side i·S/n)
      if (!picked[i]) colours[i] = related() ? boot.side_defaults[Math.floor(i * sections / players)] : boot.defaults[i];
    }
    for (let i = 0; i < players; i++) {
      const li = el("li", "seat-row");
      const solo = related() && teams === players;
      const team = el("span", "team-tag", draw || solo ? _("Seat %(number)s", { number: i + 1 }) : _("Seat %(number)s", { number: i + 1 }) + " · " + _("team %(team)s", { team: PJ.TEAM_NAMES[i % teams] }));
      const name = el("input");
      name.type = "text";
      name.maxLength = 24;
      name.placeholder = _("Player %(number)s", { number: i + 1 });
      name.value = names[i] || "";
      name.id = `name-${i}`;
      name.setAttribute("aria-label", _("Name of player %(number)s", { number: i + 1 }));
      name.autocomplete = "off";
      name.addEventListener("input", () => { names[i] = name.value; });
      const col = el("select", "colour-sel");
      col.id = `colour-${i}`;
      col.setAttribute("aria-label", _("Peg colour of seat %(number)s", { number: i + 1 }));
      for (const c of palette) {
        const o = el("option", null, `● ${pgettext("colour", c.name)}`);
        o.value = c.key;
        col.append(o);
      }
      if (!colours[i]) colours[i] = palette.map((c) => c.key).find((k) => !colours.includes(k));
      col.value = colours[i];
      const sw = el("span", `chip col-${colours[i]}`, "");
      sw.setAttribute("aria-hidden", "true");
      col.addEventListener("change", () => {
        colours[i] = col.value;
        picked[i] = true;
        sw.className = `chip col-${col.value}`;
      });
      const bot = el("label", "check small");
      const cb = el("input");
      cb.type = "checkbox";
      cb.id = `bot-${i}`;
      cb.checked = !!bots[i];
      // the computer's level for this seat (issue 17): easy, medium (greedy), hard (strong)
      const level = el("select", "level");
      level.id = `level-${i}`;
      level.setAttribute("aria-label", _("Level of the computer at seat %(number)s", { number: i + 1 }));
      for (const v of ["easy", "medium", "hard"]) {
        const o = el("option", null, { easy: _("easy"), medium: _("medium"), hard: _("hard") }[v]);
        o.value = v;
        level.append(o);
      }
      level.value = typeof bots[i] === "string" ? bots[i] : "medium";
      level.hidden = !bots[i];
      level.addEventListener("change", () => { bots[i] = level.value; });
      cb.addEventListener("change", () => { bots[i] = cb.checked ? level.value : false; level.hidden = !cb.checked; });
      bot.append(cb, document.createTextNode(" " + _("computer plays")));
      const colRow = el("div", "colour-row");
      colRow.append(sw, col, bot, level);
      li.append(team, name, colRow);
      ol.append(li);
    }
  }

  function shoeSize() {
    const d = +$("decks").value, j = +$("jokers_per_deck").value, x = +$("extra_jokers").value;
    $("shoe-size").textContent = ngettext("%(n)s card in the shoe.", "%(n)s cards in the shoe.", d * (52 + j) + x);
  }
  ["decks", "jokers_per_deck", "extra_jokers"].forEach((id) => $(id).addEventListener("input", shoeSize));
  $("draw").addEventListener("change", () => {
    $("dealer-row").hidden = $("draw").checked;
    renderSeats();
  });

  $("new-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const err = $("form-error");
    err.hidden = true;
    const rel = related();
    const body = {
      preset: presetSel.value,
      players,
      teams,
      names: Array.from({ length: players }, (unused, i) => (names[i] || "").trim() || _("Player %(number)s", { number: i + 1 })),
      colours: colours.slice(0, players),
      bots: Array.from({ length: players }, (unused, i) => (bots[i] ? (typeof bots[i] === "string" ? bots[i] : "medium") : null)),
      decks: +$("decks").value,
      jokers_per_deck: +$("jokers_per_deck").value,
      extra_jokers: +$("extra_jokers").value,
      draw_for_partners: $("draw").checked,
      dealer: +$("dealer").value,
    };
    if (rel) {   // their own deck; the board's sections and the switches instead
      delete body.decks; delete body.jokers_per_deck; delete body.extra_jokers;
      body.sections = sections;
      body.switches = Object.fromEntries((presets[presetSel.value].switches || []).map((x) => [x.name, !!switches[x.name]]));
      if (teams === players) body.draw_for_partners = false;
    }
    const btn = $("create");
    btn.disabled = true;
    try {
      const r = await api("/api/games", body);
      window.location.assign(r.host_url);
    } catch (e) {
      err.hidden = false;
      err.textContent = e.message;
      btn.disabled = false;
    }
  });

  showPreset();
})();
