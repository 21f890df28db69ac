/* A lost host phone: the admin code makes this phone the table's host (POST .../recover). */
"use strict";

(() => {
  const form = document.getElementById("recover-form");
  if (!form) return;
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const err = document.getElementById("recover-error");
    try {
      const r = await PJ.api(`/api/games/${form.dataset.gid}/recover`, { code: document.getElementById("code").value });
      window.location.assign(r.url);
    } catch (e) {
      err.hidden = false;
      err.textContent = e.message;
    }
  });
})();
