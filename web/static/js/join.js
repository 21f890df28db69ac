/* The join and pairing pages: one tap sends the code (a JSON POST, so link previews
   can't) to the button's data-post: a seat's to /api/join, or a request for a seat another
   phone (or the computer) holds to the host; a table display's to /api/display. */
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
