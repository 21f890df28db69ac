/* Shared helpers: JSON calls, the live connection, cards, small DOM helpers. */
"use strict";

/* The page's words: the catalog /i18n/<lang>.js served from the same .po/.mo as the
   server's (web/i18n.py). Placeholders are Python's, %(name)s, so one catalog serves both. */
const I18N = window.PJ_I18N || { lang: "en", dir: "ltr", messages: {}, plural: (n) => Number(n !== 1) };
function fmt(text, params) {
  return params ? text.replace(/%\((\w+)\)[sd]/g, (m, k) => (k in params ? String(params[k]) : m)) : text;
}
function _(text, params) {
  const t = I18N.messages[text];
  return fmt(typeof t === "string" ? t : text, params);
}
function ngettext(one, many, n, params) {
  const t = I18N.messages[one];
  const text = Array.isArray(t) ? (t[I18N.plural(n)] || t[t.length - 1]) : n === 1 ? one : many;
  return fmt(text, Object.assign({ n }, params));
}
function pgettext(ctx, text, params) {
  const t = I18N.messages[`${ctx}\u0004${text}`];
  return fmt(typeof t === "string" ? t : text, params);
}

/* The language picker: this phone's choice in a cookie the server reads (a year). */
(() => {
  const pick = document.getElementById("lang-pick");
  if (!pick) return;
  pick.addEventListener("change", () => {
    document.cookie = `${pick.dataset.cookie || "pj_lang"}=${pick.value}; path=/; max-age=31536000; samesite=strict`;
    location.reload();
  });
})();

/* The board's labels (names, hole numbers, seat letters) grow with the browser's text size:
   SVG text is sized in the board's units, so scale it by the root font's share of 17 px
   (the page's size at the browser's default), up to twice. */
(() => {
  const scale = Math.min(2, parseFloat(getComputedStyle(document.documentElement).fontSize) / 17);
  if (!(scale > 1.02)) return;
  document.documentElement.dataset.textScale = scale.toFixed(2);
  document.querySelectorAll("svg.board text[data-size]").forEach((t) =>
    t.setAttribute("font-size", (parseFloat(t.dataset.size) * scale).toFixed(1)));
})();

const PJ = (() => {
  const CSRF = "X-Pegs-Request";
  const bootEl = document.getElementById("boot");
  const boot = bootEl ? JSON.parse(bootEl.textContent) : {};

  class ApiError extends Error {
    constructor(status, body) {
      super((body && body.error) || _("error %(status)s", { status }));
      this.status = status;
      this.body = body || {};
    }
  }

  async function api(path, body) {
    const opts = { credentials: "same-origin", cache: "no-store", headers: { "X-Pegs-Lang": I18N.lang } };
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
      throw new ApiError(0, { error: _("no connection to the companion; check the Wi-Fi") });
    }
    let data = null;
    try { data = await resp.json(); } catch (e) { data = null; }
    if (!resp.ok) throw new ApiError(resp.status, data);
    return data;
  }

  /* Live updates: server-sent events carry the version; on a new one (or on
     waking up, or every 20 s as a safety net) call refresh(). With a board, "board"
     events say its state changed (a peg lifted, the LEDs, a message): onBoard().
     stop() ends it all (a phone that lost its seat must not keep asking); start() again. */
  function live(gid, refresh, connEl, onBoard, onConn) {
    let client = sessionStorage.getItem("pj-client");
    if (!client) {
      const a = new Uint8Array(12);
      crypto.getRandomValues(a);
      client = Array.from(a, (b) => b.toString(16).padStart(2, "0")).join("");
      sessionStorage.setItem("pj-client", client);
    }
    let es = null, known = -1, retryTimer = null, ticker = null, on = false;
    let wasOk = null;
    const setConn = (ok) => {
      if (onConn && ok !== null && ok !== wasOk) onConn(ok, wasOk);
      if (ok !== null) wasOk = ok;
      if (!connEl) return;
      connEl.textContent = ok === null ? _("stopped") : ok ? _("live") : _("reconnecting…");
      connEl.classList.toggle("ok", ok === true);
    };
    const open = () => {
      if (!on) return;
      if (es) es.close();
      es = new EventSource(`/api/games/${gid}/events?client=${client}`);
      es.addEventListener("version", (ev) => {
        setConn(true);
        const v = JSON.parse(ev.data).version;
        if (v !== known) { known = v; refresh(v); }
      });
      if (onBoard) es.addEventListener("board", (ev) => onBoard(JSON.parse(ev.data).board));   // its board version
      es.onopen = () => setConn(true);
      es.onerror = () => {
        setConn(false);
        if (es && es.readyState === EventSource.CLOSED) {
          clearTimeout(retryTimer);
          retryTimer = setTimeout(open, 2000);
        }
      };
    };
    document.addEventListener("visibilitychange", () => {
      if (on && document.visibilityState === "visible") {
        refresh(null);
        if (!es || es.readyState === EventSource.CLOSED) open();
      }
    });
    window.addEventListener("online", () => { if (on) { refresh(null); open(); } });
    // the phone's own network gone (Wi-Fi off, out of range): the companion can't be reached
    window.addEventListener("offline", () => { if (on) setConn(false); });
    const handle = {
      seen(v) { if (v > known) known = v; },
      start() {
        if (on) return;
        on = true;
        ticker = setInterval(() => { if (document.visibilityState === "visible") refresh(null); }, 20000);
        open();
      },
      stop() {
        on = false;
        clearInterval(ticker);
        clearTimeout(retryTimer);
        if (es) { es.close(); es = null; }
        setConn(null);
      },
      get running() { return on; },
    };
    handle.start();
    return handle;
  }

  /* Keep the screen on while it is this phone's turn. The Screen Wake Lock API where
     offered (only in secure contexts: not on plain http on the LAN) and granted; else the
     fallback NoSleep.js made well known, a video playing, whose media (a tiny clip with
     a silent sound track) are NoSleep.js's (MIT), served from /static/media. Each engine
     grants the screen to a playing video on its own terms: Blink (VideoWakeLock) only to
     one that is audible or covers over 20 % of the view, at least 75 % on screen, so the
     video is full-screen at 1 % opacity behind the page; Gecko only to one with a sound
     track; WebKit only to an unmuted one without the loop attribute, so it loops by
     seeking and plays unmuted there (the track is silent). Where the browser won't start
     it without a tap, the next tap on the page starts it.
     <html data-awake="lock|video|off"> says which holds the screen now. */
  const wake = (() => {
    let lock = null, want = false, video = null, armed = false;
    const ua = navigator.userAgent;
    const webkit = /iP(hone|ad|od)/.test(ua) || (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1) ||
      (/Safari\//.test(ua) && !/Chrom(e|ium)|Edg|Firefox|Android/.test(ua));
    const mark = () => {
      document.documentElement.dataset.awake = lock ? "lock" : video && !video.paused ? "video" : "off";
    };
    const makeVideo = () => {
      const v = document.createElement("video");
      v.id = "keep-awake";
      v.className = "keep-awake";
      v.muted = !webkit;
      if (!webkit) v.setAttribute("muted", "");
      v.setAttribute("playsinline", "");
      v.setAttribute("aria-hidden", "true");
      v.tabIndex = -1;
      for (const [ext, type] of [["webm", "video/webm"], ["mp4", "video/mp4"]]) {
        const src = document.createElement("source");
        src.src = `/static/media/keep-awake.${ext}`;
        src.type = type;
        v.append(src);
      }
      // loop by seeking (a looping element doesn't hold the screen on WebKit); the mp4 is
      // longer than need be: keep to its first half second, as NoSleep.js does
      v.addEventListener("timeupdate", () => { if (v.duration > 1 && v.currentTime > 0.5) v.currentTime = Math.random() * 0.5; });
      v.addEventListener("ended", () => { v.currentTime = 0; if (want) v.play().catch(armTap); });
      v.addEventListener("playing", mark);
      v.addEventListener("pause", mark);
      document.body.append(v);
      return v;
    };
    const armTap = () => {
      if (armed) return;
      armed = true;
      document.addEventListener("pointerdown", () => { armed = false; playVideo(); }, { once: true, capture: true });
    };
    function playVideo() {
      if (!want || document.visibilityState !== "visible") return;
      if (!video) video = makeVideo();
      if (!video.paused) return;
      const p = video.play();
      if (p) p.catch(armTap);
    }
    const acquire = async () => {
      if (!want || document.visibilityState !== "visible") return;
      if (lock) return;
      if ("wakeLock" in navigator) {
        try {
          const got = await navigator.wakeLock.request("screen");
          if (!want) { got.release().catch(() => {}); return; }   // the turn ended meanwhile
          lock = got;
          lock.addEventListener("release", () => { lock = null; mark(); });
          if (video) video.pause();
          mark();
          return;
        } catch (e) { lock = null; }   // refused (battery saver, a policy): the video then
      }
      playVideo();
    };
    document.addEventListener("visibilitychange", acquire);
    return {
      set(on) {
        want = on;
        if (on) acquire();
        else {
          if (lock) { lock.release().catch(() => {}); lock = null; }
          if (video) video.pause();
          mark();
        }
      },
    };
  })();

  const SUITS = { S: ["♠", "spades", false], H: ["♥", "hearts", true], D: ["♦", "diamonds", true], C: ["♣", "clubs", false] };
  // the ranks' names and with their article, the same messages as companion/words.py
  const RANK_WORDS = { A: pgettext("rank", "ace"), J: pgettext("rank", "jack"), Q: pgettext("rank", "queen"),
    K: pgettext("rank", "king"), JK: pgettext("rank", "joker"), Jr: pgettext("rank", "red jack"),
    Jb: pgettext("rank", "black jack"), Qr: pgettext("rank", "red queen"), Qb: pgettext("rank", "black queen") };
  const A_RANK = { A: pgettext("a card", "an ace"), J: pgettext("a card", "a jack"), Q: pgettext("a card", "a queen"),
    K: pgettext("a card", "a king"), JK: pgettext("a card", "a joker"), Jr: pgettext("a card", "a red jack"),
    Jb: pgettext("a card", "a black jack"), Qr: pgettext("a card", "a red queen"), Qb: pgettext("a card", "a black queen"),
    2: pgettext("a card", "a 2"), 3: pgettext("a card", "a 3"), 4: pgettext("a card", "a 4"), 5: pgettext("a card", "a 5"),
    6: pgettext("a card", "a 6"), 7: pgettext("a card", "a 7"), 8: pgettext("a card", "an 8"), 9: pgettext("a card", "a 9"),
    10: pgettext("a card", "a 10") };
  // a card's own name, as its button says it to a screen reader ("Ace of spades")
  const CARD_NAME = { A: pgettext("card name", "Ace"), J: pgettext("card name", "Jack"), Q: pgettext("card name", "Queen"),
    K: pgettext("card name", "King") };
  const OF_SUIT = { S: (rank) => _("%(rank)s of spades", { rank }), H: (rank) => _("%(rank)s of hearts", { rank }),
    D: (rank) => _("%(rank)s of diamonds", { rank }), C: (rank) => _("%(rank)s of clubs", { rank }) };

  /* A rank with its article, as the server's words say it: "a jack", "an 8", "an ace". */
  function aRank(rank) {
    return A_RANK[rank] || _("a card %(rank)s", { rank });
  }

  function rankOf(card) { return card === "JK" ? "JK" : card.slice(0, -1); }

  function cardText(card) {
    if (!card) return "";
    if (card === "JK") return RANK_WORDS.JK;
    const s = SUITS[card.slice(-1)];
    return `${card.slice(0, -1)}${s ? s[0] : ""}`;
  }

  function cardWords(card) {
    if (card === "JK") return pgettext("card name", "Joker");
    const r = rankOf(card), s = OF_SUIT[card.slice(-1)];
    const rank = CARD_NAME[r] || r;
    return s ? s(rank) : rank;
  }

  /* A card face as a button (or a span when not interactive). */
  function cardEl(card, opts = {}) {
    const el = document.createElement(opts.button ? "button" : "span");
    if (opts.button) el.type = "button";
    el.className = "pcard";
    if (card === "hidden") {
      el.classList.add("back");
      el.setAttribute("aria-label", _("a card face down"));
      if (!opts.button) el.setAttribute("role", "img");
      el.textContent = "?";
      return el;
    }
    const r = rankOf(card);
    const s = SUITS[card.slice(-1)];
    if (card === "JK") el.classList.add("joker");
    else if (s && s[2]) el.classList.add("red");
    // its name starts with what it shows ("A", "10", "JK"), so voice control finds it by that
    const shown = card === "JK" ? "JK" : r, words = cardWords(card);
    el.setAttribute("aria-label", words === shown || words.startsWith(`${shown} `) ? words : `${shown} ${words}`);
    if (!opts.button) el.setAttribute("role", "img");   // a span is named to screen readers only as an image
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
    if (withName) {   // the name isolated (<bdi>): a Latin name reads right in an Arabic line
      const [before, after] = _("%(name)s (%(colour)s)").split("%(name)s");
      const b = document.createElement("bdi");
      b.textContent = seat.name;
      wrap.append(document.createTextNode(" " + before), b,
                  document.createTextNode(fmt(after || "", { colour: colourName(seat.colour) })));
    }
    return wrap;
  }

  function colourName(colour) { return pgettext("colour", colour.name); }

  /* A list in words, as the server's (companion.message.Join): "A", "A and B", "A, B and C". */
  function joinNames(items) {
    if (items.length < 2) return items.join("");
    let tail = _("%(a)s and %(b)s", { a: items[items.length - 2], b: items[items.length - 1] });
    for (let i = items.length - 3; i >= 0; i--) tail = _("%(a)s, %(b)s", { a: items[i], b: tail });
    return tail;
  }

  /* The winner in words (issue 25 §4.3): one seat "wins", a team "win", in each language's
     plural forms; `mine`: this phone's seat (null: a watcher or the table). */
  function winnerText(view, mine, table = false) {
    const w = view.winner;
    if (mine !== null && mine !== undefined && w.includes(mine)) {
      const partners = w.filter((s) => s !== mine).map((s) => seatName(view, s));
      return partners.length ? _("You and %(names)s win!", { names: joinNames(partners) }) : _("You win!");
    }
    const names = joinNames(w.map((s) => seatName(view, s)));
    return table ? ngettext("%(names)s wins!", "%(names)s win!", w.length, { names })
      : ngettext("%(names)s wins the game.", "%(names)s win the game.", w.length, { names });
  }

  /* The host's last undo, in words, shown and told once (issue 25 §4.2): `box` shows it
     until the next move; the page's live region says it when it is new. */
  const undoneInto = (() => {
    let seen;   // undefined until the first view: an undo made before the page loaded is shown, not told
    return (box, view) => {
      const u = view.undone;
      if (box) {
        box.hidden = !u;
        box.textContent = u ? u.words : "";
      }
      const key = u ? u.at : 0;
      const region = document.getElementById("said");
      if (seen !== undefined && u && key !== seen && region) region.textContent = u.words;
      seen = key;
    };
  })();

  /* The host started the next game (issue 25 §4.11): this phone takes its own cookie there
     (a seat, the host's, a paired display's), then opens its page at the new table. */
  let following = false;
  async function followRematch(view, page) {
    if (!view.rematch || following) return;
    following = true;
    try { await api(`/api/games/${view.gid}/follow`, {}); } catch (e) { /* a watcher: the page is public */ }
    location.href = `/${page}/${view.rematch}`;
  }

  function seatName(view, seat) {
    const s = view.seats[seat];
    return _("%(name)s (%(colour)s)", { name: `\u2068${s.name}\u2069`, colour: colourName(s.colour) });
  }

  const TEAM_NAMES = "ABCDEFGHIJKL";   // up to 12 teams (Carbles and Tock: each player alone)

  /* Hole ids (see web/board.py): M12, H3-s2, S-s2 (start of side 2). */
  function holeId(side, token) {
    if (token === "S") return `S-s${side}`;
    if (token[0] === "H") return `${token}-s${side}`;
    return token;
  }

  function holeWords(token) {
    if (token === "S") return _("start");
    if (token[0] === "H") return _("home %(number)s", { number: token.slice(1) });
    return _("hole %(number)s", { number: token.slice(1) });
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
    // a red queen's card (JR-P6) and a passed card (TK-V4) reach only the two phones concerned
    if (entry.stolen) li.append(" ", el("strong", "secret-card", _("The card taken: %(card)s (only the two of you see it).", { card: cardWords(entry.stolen) })));
    else if (entry.card && /^\S+ pass \d+$/.test(entry.move)) li.append(" ", el("strong", "secret-card", _("The card: %(card)s (only the two of you see it).", { card: cardWords(entry.card) })));
    if (entry.cancelled) {
      li.classList.add("cancelled");
      li.append(" ", el("strong", "cancel-tag", _("cancelled: the bluff was caught")));
    }
    const d = el("details", "notation");
    d.append(el("summary", null, _("details")));
    if (entry.card) d.append(cardEl(entry.card), document.createTextNode(" "));
    d.append(el("code", null, entry.move));
    li.append(document.createTextNode(" "), d);
    return li;
  }

  /* A move the board fits, in words; its notation in a details view (issue 14.4). */
  function candidateLine(c) {
    const li = el("li", null, c.words);
    const d = el("details", "notation");
    d.append(el("summary", null, _("details")), el("code", null, c.move));
    li.append(document.createTextNode(" "), d);
    return li;
  }

  function pilesInto(box, view) {
    box.replaceChildren();
    const stock = el("div", "pile");
    stock.append(el("span", "pile-n", String(view.stock)), el("span", "pile-l", ngettext("card in the stock", "cards in the stock", view.stock)));
    const disc = el("div", "pile");
    if (view.discard_top) disc.append(cardEl(view.discard_top));
    else disc.append(el("span", "pile-n", "—"));
    disc.append(el("span", "pile-l", view.discard_top === "hidden" ? _("top of the discard pile (face down)") : _("top of the discard pile")));
    box.append(stock, disc);
  }

  function countingInto(box, view) {
    if (!view.counting) { box.hidden = true; return; }
    box.hidden = false;
    box.replaceChildren(el("h2", "small-h", _("Counting (stuck turns in a row)")));
    const ul = el("ul", "count-list");
    view.counting.forEach((n, i) => {
      const li = el("li");
      li.append(chip(view.seats[i]), document.createTextNode(`: ${n}`));
      ul.append(li);
    });
    box.append(ul);
  }

  /* The simulated board replaying a move made elsewhere (a phone, the computer): its
     pegs are on their way by themselves, so there is nothing to do but wait a moment.
     (Once they have stopped, a board still not matching the game is a job for people.) */
  const CATCH_UP_WORDS = _("The board is catching up with the last move: its pegs move by themselves.");
  function catchingUp(st, mode) {
    return !!(st && st.attached && mode === "simulation" && st.state === "sync" && st.board && st.board.busy);
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

  /* The turn alert (issue 25.2): when something waits for this phone (its turn, a doubt,
     a phone asking the host for a seat) the tab title says so, the phone vibrates where it
     can and a short chime plays, made here with Web Audio (no sound file). Sound and
     vibration are switched per phone; the choice stays in localStorage. */
  const alert = (() => {
    const SOUND = "pj-alert-sound", VIBRATE = "pj-alert-vibrate";
    const enabled = (key) => localStorage.getItem(key) !== "off";
    const base = document.title;
    let ctx = null, waiting = null;
    const unlock = () => {   // browsers start audio only after a tap: make it on the first one
      const AC = window.AudioContext || window.webkitAudioContext;
      if (!ctx && AC) ctx = new AC();
    };
    document.addEventListener("pointerdown", unlock, { capture: true });
    for (const [id, key] of [["alert-sound", SOUND], ["alert-vibrate", VIBRATE]]) {
      const cb = document.getElementById(id);
      if (!cb) continue;
      cb.checked = enabled(key);
      cb.addEventListener("change", () => localStorage.setItem(key, cb.checked ? "on" : "off"));
    }
    function chime() {
      if (!enabled(SOUND)) return;
      unlock();
      if (!ctx) return;
      if (ctx.state === "suspended") ctx.resume().catch(() => {});
      const t = ctx.currentTime;
      [[660, 0], [880, 0.15]].forEach(([freq, at]) => {   // two rising notes, 0.5 s in all
        const osc = ctx.createOscillator(), gain = ctx.createGain();
        osc.type = "sine";
        osc.frequency.value = freq;
        gain.gain.setValueAtTime(0.0001, t + at);
        gain.gain.exponentialRampToValueAtTime(0.25, t + at + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, t + at + 0.33);
        osc.connect(gain).connect(ctx.destination);
        osc.start(t + at);
        osc.stop(t + at + 0.35);
      });
    }
    return {
      /* words: what waits for this phone ("Your turn"), or null when nothing does. */
      set(words) {
        if (!words) { waiting = null; document.title = base; return; }
        document.title = _("● %(what)s", { what: words });
        if (waiting === words) return;   // already told
        waiting = words;
        // browsers refuse both until the page has been tapped once (and log the refusal):
        // a phone that has not been touched since it loaded gets the title only
        if (navigator.userActivation && !navigator.userActivation.hasBeenActive) return;
        if (enabled(VIBRATE) && navigator.vibrate) navigator.vibrate([180, 90, 180]);
        chime();
      },
    };
  })();

  /* The newest log line for screen readers, in the page's one polite live region (#said),
     and aloud on the table display when its switch is on; never the first view's (old) lines. */
  const announcer = (() => {
    let seen = null;
    const speak = document.getElementById("speak");
    if (speak) {
      speak.checked = localStorage.getItem("pj-speak") === "on";
      speak.addEventListener("change", () => localStorage.setItem("pj-speak", speak.checked ? "on" : "off"));
    }
    return (view) => {
      const last = view.log.length ? view.log[view.log.length - 1] : null;
      const n = last ? `${view.log.length}|${last.seat}|${last.move}|${last.words || ""}` : "";
      const first = seen === null;
      if (n === seen) return;
      seen = n;
      if (first || !last) return;
      const words = last.words || last.move;
      const region = document.getElementById("said");
      if (region) region.textContent = words;
      if (speak && speak.checked && window.speechSynthesis) {
        const u = new SpeechSynthesisUtterance(words);
        u.lang = I18N.lang.replace("_", "-");
        window.speechSynthesis.speak(u);
      }
    };
  })();

  return { alert, announcer, boot, api, ApiError, live, wake, cardEl, cardText, cardWords, rankOf, aRank, el, chip, seatName, colourName,
           joinNames, winnerText, undoneInto, followRematch,
           holeId, holeWords, logLine, candidateLine, pilesInto, countingInto, boardProblemsInto, TEAM_NAMES,
           CATCH_UP_WORDS, catchingUp };
})();
