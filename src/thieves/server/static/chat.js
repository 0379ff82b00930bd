// The table chat (templates/chat.html): seats and spectators write to everyone
// at the table. Messages come over the table's websocket (table.js hands it
// over with a "table-socket" event) and, for the history and after a
// reconnection, from GET /api/tables/<id>/chat. Everything a person typed is
// inserted with textContent, never as markup. Muting is kept in this browser
// only (localStorage), per table. In the replay the chat is read-only and
// shows the messages written up to the move on screen.
"use strict";
(function () {
  const card = document.getElementById("chat");
  if (!card) return;
  const replay = card.dataset.mode === "replay";
  const log = document.getElementById("chat-log");
  const none = document.getElementById("chat-empty");
  const mutedNote = document.getElementById("chat-muted");
  const announce = document.getElementById("chat-announce");
  const fold = document.getElementById("chat-fold");
  const body = document.getElementById("chat-body");
  const unreadEl = document.getElementById("chat-unread");
  const jump = document.getElementById("chat-jump");  // new messages while the card is off screen
  let inView = true;
  const form = document.getElementById("chat-form");
  const input = document.getElementById("chat-text");
  const nameInput = document.getElementById("chat-name");
  const errorEl = document.getElementById("chat-error");
  const API = "/api/tables/" + CONFIG.table + "/chat";
  const PAGE = 1000;  // the server's most messages per answer (app.CHAT_PAGE)
  const messages = new Map();  // id -> message, every one this page knows
  const mine = new Set();  // ids of the messages this page sent
  const sending = new Map();  // ref -> text of the messages sent over the socket, not yet answered
  let lastId = 0, unread = 0, socket = null, nextRef = 1;

  function stored(key, fallback) {
    try { const v = localStorage.getItem(key); return v === null ? fallback : JSON.parse(v); } catch (e) { return fallback; }
  }
  function store(key, value) {
    try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* storage off: for this page only */ }
  }
  const MUTE_KEY = "thieves.chat.mute." + CONFIG.table;
  let muted = new Set(stored(MUTE_KEY, []));

  // who wrote it: a seat by its number; a spectator by the name they gave
  function author(m) { return m.seat !== null && m.seat !== undefined ? "seat:" + m.seat : "spectator:" + m.name.toLowerCase(); }
  function authorName(m) {
    if (m.name) return m.name;
    return m.seat !== null && m.seat !== undefined ? T.player_n.replace("{n}", m.seat + 1) : T.spectator_short;
  }
  function isMine(m) { return mine.has(m.id) || (CONFIG.seat !== null && m.seat === CONFIG.seat); }
  function clock(at) {
    const d = new Date(at * 1000);
    return String(d.getHours()).padStart(2, "0") + ":" + String(d.getMinutes()).padStart(2, "0");
  }

  // a speaker struck through (drawn here: no icon font needed)
  function muteIcon() {
    const NS = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(NS, "svg");
    [["viewBox", "0 0 16 16"], ["width", "14"], ["height", "14"], ["aria-hidden", "true"]]
      .forEach(([k, v]) => svg.setAttribute(k, v));
    const speaker = document.createElementNS(NS, "path");
    speaker.setAttribute("d", "M1.5 5.5h3l4-3.5v12l-4-3.5h-3z");
    speaker.setAttribute("fill", "currentColor");
    const cross = document.createElementNS(NS, "path");
    cross.setAttribute("d", "M10.5 5.5l4.5 5M15 5.5l-4.5 5");
    cross.setAttribute("stroke", "currentColor");
    cross.setAttribute("stroke-width", "1.6");
    svg.appendChild(speaker);
    svg.appendChild(cross);
    return svg;
  }

  function line(m, now) {
    const li = el("li", "chat-msg" + (m.spectator ? " spectator" : "") + (isMine(m) ? " mine" : "") + (now ? " now" : ""));
    li.dataset.id = m.id;
    const dot = el("span", "chat-dot");
    dot.style.background = m.spectator ? "#9a8f83" : SEAT_COLORS[m.seat % SEAT_COLORS.length];
    li.appendChild(dot);
    li.appendChild(el("b", "chat-who", authorName(m)));
    if (m.spectator) li.appendChild(el("span", "chat-tag", T.chat_spectator));
    if (isMine(m)) li.appendChild(el("span", "chat-tag", T.chat_you));
    li.appendChild(el("span", "chat-text", m.text));
    const when = el("time", "chat-time", replay ? T.chat_at_move.replace("{n}", moveOf(m)) : clock(m.at));
    when.dateTime = new Date(m.at * 1000).toISOString();
    when.title = new Date(m.at * 1000).toLocaleString();
    li.appendChild(when);
    if (!isMine(m)) {
      const mute = el("button", "chat-mute");
      mute.appendChild(muteIcon());
      mute.type = "button";
      mute.title = T.chat_mute.replace("{name}", authorName(m));
      mute.setAttribute("aria-label", mute.title);
      mute.addEventListener("click", () => { muted.add(author(m)); store(MUTE_KEY, [...muted]); draw(); });
      li.appendChild(mute);
    }
    return li;
  }

  // the replay step a message was written at (the public move number but in a
  // finished game with secret steps, where the server gives the step)
  function moveOf(m) { return m.step === undefined ? m.ply : m.step; }

  // the messages to show: all of them live; up to the move on screen in the replay
  function shown() {
    const all = [...messages.values()].sort((a, b) => a.id - b.id);
    if (!replay) return {list: all, at: null};
    const ply = Number(document.body.dataset.ply || 0);
    const total = Number((document.getElementById("total") || {}).textContent || 0);
    // written after a move that was taken back: shown at the last move; a finished
    // game's replay steps through secret steps too (``step``: where the message stands)
    return {list: all.filter(m => moveOf(m) <= ply || ply >= total), at: ply};
  }

  function draw() {
    const near = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    const {list, at} = shown();
    log.textContent = "";
    let hidden = 0;
    list.forEach(m => {
      if (muted.has(author(m))) { hidden += 1; return; }
      log.appendChild(line(m, at !== null && moveOf(m) === at));
    });
    none.hidden = list.length > 0;
    mutedNote.hidden = hidden === 0;
    mutedNote.querySelector(".chat-muted-text").textContent = T.chat_muted.replace("{n}", hidden);
    // the newest at the bottom (in the replay, those of the move on screen); the
    // log alone scrolls, never the page
    if (replay || near || draw.first !== false) log.scrollTop = log.scrollHeight;
    draw.first = false;
  }
  mutedNote.querySelector(".chat-unmute").addEventListener("click", () => {
    muted = new Set(); store(MUTE_KEY, []); draw();
  });

  // new messages: added once each (the socket and the history may both bring one)
  function take(list, fresh) {
    let added = 0;
    list.forEach(m => {
      if (messages.has(m.id)) return;
      messages.set(m.id, m);
      lastId = Math.max(lastId, m.id);
      added += 1;
      if (fresh && !isMine(m) && !muted.has(author(m))) {
        announce.textContent = authorName(m) + (m.spectator ? " (" + T.chat_spectator + ")" : "") + ": " + m.text;
        if (fold.getAttribute("aria-expanded") === "false" || !inView) { unread += 1; showUnread(); }
      }
    });
    if (added) draw();
  }

  async function history() {
    for (;;) {
      let got;
      try {
        const r = await fetch(API + "?since=" + lastId);
        if (!r.ok) return;
        got = await r.json();
      } catch (e) { return; }  // the socket brings the next ones; a reconnection asks again
      if (got.limits && input) input.maxLength = got.limits.chars;
      take(got.messages, false);
      if (got.messages.length < PAGE) return;
    }
  }

  // folding (phones start folded): new messages count while folded
  function showUnread() {
    const words = T.chat_unread.replace("{n}", unread);
    unreadEl.hidden = unread === 0;
    unreadEl.textContent = words;
    if (!jump) return;
    jump.hidden = unread === 0 || inView;
    jump.querySelector(".chat-unread").textContent = words;
  }
  function setFolded(folded) {
    fold.setAttribute("aria-expanded", folded ? "false" : "true");
    fold.title = folded ? fold.dataset.show : fold.dataset.hide;
    body.hidden = folded;
    card.classList.toggle("folded", folded);
    if (!folded) { unread = 0; showUnread(); log.scrollTop = log.scrollHeight; }
  }
  fold.addEventListener("click", () => setFolded(fold.getAttribute("aria-expanded") === "true"));
  if (!replay && window.matchMedia("(max-width: 639px)").matches) setFolded(true);
  if (jump && window.IntersectionObserver) {
    // the card seen unfolded: its new messages are read
    new IntersectionObserver(entries => {
      inView = entries[entries.length - 1].isIntersecting;
      if (inView && fold.getAttribute("aria-expanded") === "true") unread = 0;
      showUnread();
    }).observe(card);
    jump.addEventListener("click", () => {
      setFolded(false);
      card.scrollIntoView({block: "end"});
      if (input) input.focus({preventScroll: true});
    });
  }

  if (replay) {
    // the replay shows the messages written up to its move (replay.js sets body[data-ply])
    new MutationObserver(draw).observe(document.body, {attributes: true, attributeFilter: ["data-ply"]});
    history();
    return;
  }

  // -- writing ----------------------------------------------------------------
  function showError(text) {
    errorEl.textContent = text;
    errorEl.hidden = !text;
  }
  function refused(code, message, retryAfter) {
    let words = errorText(code, message);
    if (code === "chat_rate" && retryAfter) words += " (" + retryAfter + " s)";
    if (code === "chat_too_long" && input) words += " (" + input.value.trim().length + " / " + input.maxLength + ")";
    showError(words);
  }
  function sent(text) {
    // the text is cleared only once the server kept it (and only if it was not changed meanwhile)
    if (input.value === text) input.value = "";
    showError("");
  }
  if (nameInput) {
    nameInput.value = stored("thieves.chat.name", "");
    nameInput.addEventListener("change", () => store("thieves.chat.name", nameInput.value.trim()));
  }
  form.addEventListener("submit", ev => {
    ev.preventDefault();
    const text = input.value;
    if (!text.trim()) { refused("chat_empty"); return; }
    const msg = {type: "chat", text: text, ref: nextRef++};
    if (nameInput) msg.name = nameInput.value.trim();
    if (socket && socket.readyState === 1) {
      sending.set(msg.ref, text);
      socket.send(JSON.stringify(msg));
      return;
    }
    // no socket just now: the same over HTTP
    const payload = {text: text, name: msg.name};
    if (CONFIG.token) payload.token = CONFIG.token;
    fetch(API, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(payload)})
      .then(r => r.json().then(j => {
        if (r.ok) { mine.add(j.id); take([j], false); sent(text); }
        else refused(j.error, j.message, Number(r.headers.get("Retry-After")) || null);
      }))
      .catch(() => showError(T.chat_offline));
  });

  // -- the socket -------------------------------------------------------------
  function onFrame(ev) {
    if (!socket || ev.target !== socket) return;
    // the first frame of a new socket comes once the server counts it among the
    // table's listeners: what was written before it is asked for once
    if (!socket.synced) { socket.synced = true; history(); }
    if (typeof ev.data !== "string" || !ev.data.startsWith('{"type": "chat')) return;
    const m = JSON.parse(ev.data);
    if (m.type === "chat") take([m], true);
    else if (m.type === "chat_sent") {
      mine.add(m.id);
      if (messages.has(m.id)) draw();
      if (sending.has(m.ref)) { sent(sending.get(m.ref)); sending.delete(m.ref); }
    } else if (m.type === "chat_error") {
      sending.delete(m.ref);
      refused(m.code, m.message, m.retry_after);
    }
  }
  function attach(ws) {
    if (!ws || ws === socket) return;
    socket = ws;
    sending.clear();  // a new socket: what the old one had in flight is answered no more (the text stays)
    ws.addEventListener("message", onFrame);
  }
  window.addEventListener("table-socket", ev => attach(ev.detail));
  attach(window.tableSocket);
  history();
  draw();
})();
