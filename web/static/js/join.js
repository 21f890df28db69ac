/* The join page: one tap takes the seat (a JSON POST, so link previews can't). */
"use strict";

(() => {
  const btn = document.getElementById("take-seat");
  if (!btn) return;
  btn.addEventListener("click", async () => {
    btn.disabled = true;
    const err = document.getElementById("join-error");
    try {
      const r = await PJ.api("/api/join", { code: btn.dataset.code });
      window.location.assign(r.url);
    } catch (e) {
      err.hidden = false;
      err.textContent = e.message;
      btn.disabled = false;
    }
  });
})();
