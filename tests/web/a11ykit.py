"""Accessibility checks for the browser tests (issue 25, §3 and "Tests and figures").

* `axe_violations(page)`: axe-core (MPL-2.0, vendored from its npm package in
  tests/web/vendor/axe-core, see its README) injected into the page and run; the critical
  and serious violations. The script is served by the test itself under the page's own
  origin (a Playwright route), so the pages' Content-Security-Policy (script-src 'self')
  stays on and nothing is fetched from outside.
* `layout_problems(page, ...)`: what a reader at 320 px, at 200 % text or at 200 % zoom
  would hit: text spilling out of its button or card (a "10" out of its card), two controls
  overlapping, a target under 24 px (44 px for the board's tap targets at 8-10 players).
* `text_size(page, px)`: the browser's own text-size setting (Chromium's default font
  size, over the DevTools protocol), as a reader who set large text has it.
"""
from __future__ import annotations

import json
from pathlib import Path

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
AXE_PATH = "/__tests__/axe.min.js"   # answered by the test's route, never by the app


def serve_axe(ctx) -> None:
    """Answer AXE_PATH on every origin of this browser context with the vendored axe-core."""
    ctx.route(f"**{AXE_PATH}", lambda route: route.fulfill(path=str(AXE), content_type="text/javascript"))


def axe_violations(page, impacts=("critical", "serious")) -> list[dict]:
    """The page's axe-core violations of the given impacts: [{id, impact, help, nodes}]."""
    if not page.evaluate("typeof window.axe === 'object'"):
        origin = page.evaluate("location.origin")
        page.add_script_tag(url=origin + AXE_PATH)
    found = page.evaluate("""async () => {
        const r = await axe.run(document, { resultTypes: ["violations"] });
        return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
                                          nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) }));
    }""")
    return [v for v in found if v["impact"] in impacts]


def text_size(page, px: int) -> None:
    """Set the browser's default text size (16 px out of the box) for this page."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": px, "fixed": round(px * 13 / 16)}})


LAYOUT_JS = """(opts) => {
  const out = [];
  const visible = (e) => {
    if (e.closest("[hidden], .visually-hidden, details:not([open]) > :not(summary)")) return false;
    const s = getComputedStyle(e);
    if (s.visibility === "hidden" || s.display === "none" || Number(s.opacity) === 0) return false;
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const name = (e) => (e.id ? "#" + e.id : e.tagName.toLowerCase() + (e.className && e.className.baseVal === undefined ? "." + String(e.className).trim().split(/\\s+/).join(".") : "")) +
    " '" + (e.getAttribute("aria-label") || e.textContent || "").trim().slice(0, 30) + "'";
  const controls = [...document.querySelectorAll("button, a[href], input, select, summary, [tabindex='0'], .pcard")]
    .filter((e) => visible(e) && !e.closest("svg"));
  // 1. text inside its box: every text node's rectangles inside its control's rectangle
  for (const e of controls) {
    const box = e.getBoundingClientRect();
    const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      if (!t.textContent.trim() || t.parentElement.closest("svg") || !visible(t.parentElement)) continue;
      const range = document.createRange();
      range.selectNodeContents(t);
      for (const r of range.getClientRects()) {
        if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 2 || r.bottom > box.bottom + 2) {
          out.push(`text out of its box: ${name(e)} (${Math.round(r.left)}-${Math.round(r.right)} in ${Math.round(box.left)}-${Math.round(box.right)})`);
          break;
        }
      }
    }
  }
  // 2. no two controls overlap (one inside the other is not an overlap; the sticky hand
  //    floats over the page by design, checked on its own by the 4.8 test)
  const flat = controls.filter((e) => !e.closest(".hand"));
  for (let i = 0; i < flat.length; i++) {
    for (let j = i + 1; j < flat.length; j++) {
      const a = flat[i], b = flat[j];
      if (a.contains(b) || b.contains(a)) continue;
      const p = a.getBoundingClientRect(), q = b.getBoundingClientRect();
      const w = Math.min(p.right, q.right) - Math.max(p.left, q.left), h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
      if (w > 2 && h > 2) out.push(`overlap: ${name(a)} and ${name(b)}`);
    }
  }
  // 3. the page is no wider than the screen (no sideways scrolling to read)
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth + 1) out.push(`page wider than the screen: ${doc.scrollWidth} > ${doc.clientWidth}`);
  // 4. targets: at least min px, except a link inside a sentence (WCAG 2.5.8's inline exception)
  for (const e of controls) {
    if (e.tagName === "A" && getComputedStyle(e).display === "inline" && e.parentElement && /\\S/.test(e.parentElement.textContent.replace(e.textContent, ""))) continue;
    if (e.matches("span.pcard")) continue;   // a card shown, not a control
    const r = e.getBoundingClientRect();
    if (r.width < opts.min - 0.5 || r.height < opts.min - 0.5) out.push(`target ${Math.round(r.width)}x${Math.round(r.height)} px: ${name(e)}`);
  }
  // 5. the board's tap targets (8-10 players: 44 px)
  if (opts.board) {
    for (const t of document.querySelectorAll("svg.board .target")) {
      const r = t.getBoundingClientRect();
      if (r.width < opts.board - 0.5 || r.height < opts.board - 0.5) out.push(`board target ${Math.round(r.width)} px: ${t.dataset.hole}`);
    }
  }
  return out;
}"""


def layout_problems(page, min_target: int = 24, board_target: int | None = None) -> list[str]:
    return page.evaluate(LAYOUT_JS, {"min": min_target, "board": board_target})


def report(violations) -> str:
    return json.dumps(violations, indent=1, ensure_ascii=False)
