/* The join and pairing pages: one tap sends the code (a JSON POST, so link previews
   can't): a seat's to /api/join, a table display's to /api/display (data-post). */
"use strict";

(() => {
  const btn = document.querySelector("button[data-code][data-post]");
  if (!btn) return;
  btn.addEventListener("click", async () => {
    btn.disabled = true;
    const err = document.getElementById(btn.dataset.error);
    try {
      const r = await PJ.api(btn.dataset.post, { code: btn.dataset.code });
      window.location.assign(r.url);
    } catch (e) {
      err.hidden = false;
      err.textContent = e.message;
      btn.disabled = false;
    }
  });
})();
