/* Shared helpers: JSON calls, the live connection, cards, small DOM helpers. */
"use strict";

const PJ = (() => {
  const CSRF = "X-Pegs-Request";
  const bootEl = document.getElementById("boot");
  const boot = bootEl ? JSON.parse(bootEl.textContent) : {};

  class ApiError extends Error {
    constructor(status, body) {
      super((body && body.error) || `error ${status}`);
      this.status = status;
      this.body = body || {};
    }
  }

  async function api(path, body) {
    const opts = { credentials: "same-origin", cache: "no-store", headers: {} };
    if (body !== undefined) {
      opts.method = "POST";
      opts.headers["Content-Type"] = "application/json";
      opts.headers[CSRF] = "1";
      opts.body = JSON.stringify(body);
    }
    let resp;
    try {
      resp = await fetch(path, opts);
    } catch (e) {
      throw new ApiError(0, { error: "no connection to the companion; check the Wi-Fi" });
    }
    let data = null;
    try { data = await resp.json(); } catch (e) { data = null; }
    if (!resp.ok) throw new ApiError(resp.status, data);
    return data;
  }

  /* Live updates: server-sent events carry the version; on a new one (or on
     waking up, or every 20 s as a safety net) call refresh(). With a board, "board"
     events say its state changed (a peg lifted, the LEDs, a message): onBoard(). */
  function live(gid, refresh, connEl, onBoard) {
    let client = sessionStorage.getItem("pj-client");
    if (!client) {
      const a = new Uint8Array(12);
      crypto.getRandomValues(a);
      client = Array.from(a, (b) => b.toString(16).padStart(2, "0")).join("");
      sessionStorage.setItem("pj-client", client);
    }
    let es = null, known = -1, retryTimer = null;
    const setConn = (ok) => {
      if (!connEl) return;
      connEl.textContent = ok ? "live" : "reconnecting…";
      connEl.classList.toggle("ok", ok);
    };
    const open = () => {
      if (es) es.close();
      es = new EventSource(`/api/games/${gid}/events?client=${client}`);
      es.addEventListener("version", (ev) => {
        setConn(true);
        const v = JSON.parse(ev.data).version;
        if (v !== known) { known = v; refresh(v); }
      });
      if (onBoard) es.addEventListener("board", (ev) => onBoard(JSON.parse(ev.data).board));
      es.onopen = () => setConn(true);
      es.onerror = () => {
        setConn(false);
        if (es.readyState === EventSource.CLOSED) {
          clearTimeout(retryTimer);
          retryTimer = setTimeout(open, 2000);
        }
      };
    };
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") {
        refresh(null);
        if (!es || es.readyState === EventSource.CLOSED) open();
      }
    });
    window.addEventListener("online", () => { refresh(null); open(); });
    setInterval(() => { if (document.visibilityState === "visible") refresh(null); }, 20000);
    open();
    return { seen(v) { if (v > known) known = v; } };
  }

  /* Keep the screen on while it is this phone's turn (Screen Wake Lock API, where available). */
  const wake = (() => {
    let lock = null, want = false;
    const acquire = async () => {
      if (!want || lock || !("wakeLock" in navigator) || document.visibilityState !== "visible") return;
      try {
        lock = await navigator.wakeLock.request("screen");
        lock.addEventListener("release", () => { lock = null; });
      } catch (e) { lock = null; }
    };
    document.addEventListener("visibilitychange", acquire);
    return {
      set(on) {
        want = on;
        if (on) acquire();
        else if (lock) { lock.release().catch(() => {}); lock = null; }
      },
    };
  })();

  const SUITS = { S: ["♠", "spades", false], H: ["♥", "hearts", true], D: ["♦", "diamonds", true], C: ["♣", "clubs", false] };
  const RANK_WORDS = { A: "Ace", J: "Jack", Q: "Queen", K: "King", JK: "Joker" };

  function rankOf(card) { return card === "JK" ? "JK" : card.slice(0, -1); }

  function cardText(card) {
    if (!card) return "";
    if (card === "JK") return "Joker";
    const s = SUITS[card.slice(-1)];
    return `${card.slice(0, -1)}${s ? s[0] : ""}`;
  }

  function cardWords(card) {
    if (card === "JK") return "Joker";
    const r = rankOf(card), s = SUITS[card.slice(-1)];
    return `${RANK_WORDS[r] || r} of ${s ? s[1] : "?"}`;
  }

  /* A card face as a button (or a span when not interactive). */
  function cardEl(card, opts = {}) {
    const el = document.createElement(opts.button ? "button" : "span");
    if (opts.button) el.type = "button";
    el.className = "pcard";
    if (card === "hidden") {
      el.classList.add("back");
      el.setAttribute("aria-label", "a card face down");
      el.textContent = "?";
      return el;
    }
    const r = rankOf(card);
    const s = SUITS[card.slice(-1)];
    if (card === "JK") el.classList.add("joker");
    else if (s && s[2]) el.classList.add("red");
    el.setAttribute("aria-label", cardWords(card));
    const rk = document.createElement("span");
    rk.className = "rank";
    rk.textContent = card === "JK" ? "JK" : r;
    const su = document.createElement("span");
    su.className = "suit";
    su.textContent = card === "JK" ? "★" : s ? s[0] : "";
    el.append(rk, su);
    return el;
  }

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  /* A colour chip with the seat's label, and its name beside it (colour is never the only cue). */
  function chip(seat, withName = true) {
    const wrap = el("span", "who");
    const c = el("span", `chip col-${seat.colour.key}`, seat.label);
    c.setAttribute("aria-hidden", "true");
    wrap.append(c);
    if (withName) wrap.append(document.createTextNode(` ${seat.name} (${seat.colour.name})`));
    return wrap;
  }

  function seatName(view, seat) {
    const s = view.seats[seat];
    return `${s.name} (${s.colour.name})`;
  }

  const TEAM_NAMES = "ABCDE";

  /* Hole ids (see web/board.py): M12, H3-s2, S-s2 (start of side 2). */
  function holeId(side, token) {
    if (token === "S") return `S-s${side}`;
    if (token[0] === "H") return `${token}-s${side}`;
    return token;
  }

  function holeWords(token) {
    if (token === "S") return "start";
    if (token[0] === "H") return `home ${token.slice(1)}`;
    return `hole ${token.slice(1)}`;
  }

  /* A log entry in words ("Bob (Blue) moved a peg 7 forward with a 7, ..."); the card and
     the notation ("7♥ 1:M10-M17") sit in a details view. A cancelled move is marked so. */
  function logLine(view, entry) {
    const li = el("li");
    const seat = entry.seat !== null && entry.seat !== undefined ? view.seats[entry.seat] : null;
    if (!entry.words) {
      if (seat) li.append(chip(seat));
      const t = el("span", "logmove");
      t.append(document.createTextNode(" "));
      if (entry.card) { t.append(cardEl(entry.card)); t.append(document.createTextNode(" ")); }
      t.append(document.createTextNode(entry.move));
      li.append(t);
      return li;
    }
    if (seat) li.append(chip(seat, false), document.createTextNode(" "));
    li.append(el("span", "logwords", entry.words));
    if (entry.cancelled) {
      li.classList.add("cancelled");
      li.append(" ", el("strong", "cancel-tag", "cancelled: the bluff was caught"));
    }
    const d = el("details", "notation");
    d.append(el("summary", null, "details"));
    if (entry.card) d.append(cardEl(entry.card), document.createTextNode(" "));
    d.append(el("code", null, entry.move));
    li.append(document.createTextNode(" "), d);
    return li;
  }

  function pilesInto(box, view) {
    box.replaceChildren();
    const stock = el("div", "pile");
    stock.append(el("span", "pile-n", String(view.stock)), el("span", "pile-l", "cards in the stock"));
    const disc = el("div", "pile");
    if (view.discard_top) disc.append(cardEl(view.discard_top));
    else disc.append(el("span", "pile-n", "—"));
    disc.append(el("span", "pile-l", view.discard_top === "hidden" ? "top of the discard pile (face down)" : "top of the discard pile"));
    box.append(stock, disc);
  }

  function countingInto(box, view) {
    if (!view.counting) { box.hidden = true; return; }
    box.hidden = false;
    box.replaceChildren(el("h2", "small-h", "Counting (stuck turns in a row)"));
    const ul = el("ul", "count-list");
    view.counting.forEach((n, i) => {
      const li = el("li");
      li.append(chip(view.seats[i]), document.createTextNode(`: ${n}`));
      ul.append(li);
    });
    box.append(ul);
  }

  /* A safe start's report (BoardControl.status()): what failed and how to fix it. */
  function boardProblemsInto(box, list, status) {
    const problems = (status && status.problems) || [];
    box.hidden = !problems.length;
    list.replaceChildren(...problems.map((p) => {
      const li = el("li");
      li.append(el("strong", null, p.what), document.createTextNode(" " + p.fix));
      return li;
    }));
  }

  return { boot, api, ApiError, live, wake, cardEl, cardText, cardWords, rankOf, el, chip, seatName,
           holeId, holeWords, logLine, pilesInto, countingInto, boardProblemsInto, TEAM_NAMES };
})();
