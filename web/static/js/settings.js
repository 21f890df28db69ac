/* The settings page: the values in force, saved to the config file and made live. */
"use strict";

(() => {
  const { boot, api, el } = PJ;
  const $ = (id) => document.getElementById(id);
  let state = boot.state;

  function showError(id, msg) {
    const e = $(id);
    e.hidden = !msg;
    e.textContent = msg || "";
  }

  function render() {
    if (!state) return;
    const v = state.values;
    $("unlock-form").hidden = true;
    $("settings-form").hidden = false;
    $("board-mode").value = v["board.mode"];
    for (const opt of $("board-mode").options) {
      opt.disabled = (["sensors", "leds"].includes(opt.value) && !state.has_wiring) ||
        (opt.value === "camera" && !state.has_camera);
    }
    $("settle").value = v["board.settle_seconds"];
    $("bot-delay").value = v["serve.bot_delay"];
    $("bot-think-ms").value = v["serve.bot_think_ms"];
    const b = $("brightness");
    b.disabled = v["wiring.leds.brightness"] === null;
    b.value = v["wiring.leds.brightness"] === null ? "" : v["wiring.leds.brightness"];
    $("config-path").textContent = state.config_path ? _("Kept in %(file)s.", { file: state.config_path })
      : _("No config file: changes last until the companion stops (start it with --config FILE).");
    PJ.boardProblemsInto($("board-status"), $("board-problems"), state.board);
  }

  $("unlock-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      state = await api("/api/settings/unlock", { code: $("code").value });
      showError("unlock-error", "");
      render();
    } catch (e) { showError("unlock-error", e.message); }
  });

  $("settings-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const v = state.values;
    const changes = {};
    const num = (id) => Number($(id).value);
    if ($("board-mode").value !== v["board.mode"]) changes["board.mode"] = $("board-mode").value;
    if (num("settle") !== v["board.settle_seconds"]) changes["board.settle_seconds"] = num("settle");
    if (num("bot-delay") !== v["serve.bot_delay"]) changes["serve.bot_delay"] = num("bot-delay");
    if (num("bot-think-ms") !== v["serve.bot_think_ms"]) changes["serve.bot_think_ms"] = num("bot-think-ms");
    if (!$("brightness").disabled && num("brightness") !== v["wiring.leds.brightness"]) {
      changes["wiring.leds.brightness"] = num("brightness");
    }
    if (!Object.keys(changes).length) { $("settings-msg").textContent = _("Nothing changed."); return; }
    $("save").disabled = true;
    try {
      state = await api("/api/settings", { changes });
      showError("settings-error", "");
      render();
      $("settings-msg").textContent = state.message;
    } catch (e) {
      $("settings-msg").textContent = "";
      showError("settings-error", e.message);
    } finally { $("save").disabled = false; }
  });

  $("board-retry").addEventListener("click", async () => {
    try {
      const st = await api("/api/board/retry", {});
      if (state) { state.board = st; render(); }
      else PJ.boardProblemsInto($("board-status"), $("board-problems"), st);
    } catch (e) { showError("settings-error", e.message); }
  });

  render();
})();
