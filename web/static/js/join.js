/* The join page: one tap takes the seat, or asks the host for it when another phone
   (or the computer) has it (JSON POSTs, so link previews can't). */
"use strict";

(() => {
  const take = document.getElementById("take-seat");
  const ask = document.getElementById("ask-seat");
  const btn = take || ask;
  if (!btn) return;
  btn.addEventListener("click", async () => {
    btn.disabled = true;
    const err = document.getElementById("join-error");
    try {
      const r = take ? await PJ.api("/api/join", { code: btn.dataset.code })
        : await PJ.api(`/api/games/${btn.dataset.gid}/seat-request`, { code: btn.dataset.code });
      window.location.assign(r.url);
    } catch (e) {
      err.hidden = false;
      err.textContent = e.message;
      btn.disabled = false;
    }
  });
})();
