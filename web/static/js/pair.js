/* Pairing a table display: one tap (a JSON POST, so link previews can't pair). */
"use strict";

(() => {
  const btn = document.getElementById("pair");
  if (!btn) return;
  btn.addEventListener("click", async () => {
    btn.disabled = true;
    const err = document.getElementById("pair-error");
    try {
      const r = await PJ.api("/api/display", { code: btn.dataset.code });
      window.location.assign(r.url);
    } catch (e) {
      err.hidden = false;
      err.textContent = e.message;
      btn.disabled = false;
    }
  });
})();
