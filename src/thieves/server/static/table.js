// The live table: one websocket, redrawn on every state message.
"use strict";
(function () {
  const board = document.getElementById("board");
  const bar = document.getElementById("actionbar");
  const statusEl = document.getElementById("status-text");
  const statusBar = document.getElementById("statusbar");
  const errorEl = document.getElementById("error");
  const conn = document.getElementById("conn");
  let ws = null, view = null, retry = 500, pending = false;
  let base = null;  // the last view this socket brought (what its patches change)

  // moves that end the turn (or pass) ask first, unless the player turned it off
  function askFirst() {
    try { return localStorage.getItem("thieves.confirm") !== "0"; } catch (e) { return true; }
  }
  // A move that ends the turn is confirmed on the page, as on Board Game
  // Arena: a bar asks, and confirms by itself after a few seconds unless the
  // player cancels (a misclick is caught, a deliberate click costs nothing).
  // The same bar asks a gesture's question (data-confirm, or a route tapped
  // on a phone): then only the player's answer sends it.
  const CONFIRM_SECONDS = 3;
  const confirmBar = document.getElementById("confirmbar");
  const yesBtn = document.getElementById("confirm-yes"), firstBtn = document.getElementById("confirm-first");
  let asking = null;  // {action, then, timer, gesture}
  function cancelAsk() {
    if (!asking) return;
    clearInterval(asking.timer);
    asking = null;
    confirmBar.hidden = true;
    firstBtn.hidden = true;
    yesBtn.textContent = T.confirm_yes;
    clearPreview();
  }
  function ask(a) {
    cancelAsk();
    const words = T.confirm_end.replace("{action}", a.text && a.text !== a.action ? a.text : a.action);
    let left = CONFIRM_SECONDS;
    const text = confirmBar.querySelector(".confirm-text");
    const tick = () => { text.textContent = words + " " + T.confirm_auto.replace("{n}", left); };
    tick();
    confirmBar.hidden = false;
    asking = {action: a.action, then: [], gesture: false, timer: setInterval(() => {
      left -= 1;
      if (left <= 0) { const go = asking.action; cancelAsk(); transmit(go); } else tick();
    }, 1000)};
    yesBtn.focus({preventScroll: true});
  }
  // a gesture asked first: Yes (all its steps), only the first step (when it
  // has more), or Cancel; its route stays drawn meanwhile
  function askGesture(action, then, question, node) {
    cancelAsk();
    const a = view && view.legal.find(x => x.action === action);
    const name = a && a.text && a.text !== a.action ? a.text : action;
    confirmBar.querySelector(".confirm-text").textContent = question
      || (then.length ? T.confirm_route.replace("{n}", then.length + 1) : T.confirm_one.replace("{action}", name));
    firstBtn.hidden = !then.length;
    yesBtn.textContent = then.length ? T.confirm_all.replace("{n}", then.length + 1) : T.confirm_yes;
    confirmBar.hidden = false;
    asking = {action: action, then: then, gesture: true, timer: null, ply: view ? view.ply : null};
    showPreview(node);
    yesBtn.focus({preventScroll: true});
  }
  yesBtn.addEventListener("click", () => {
    if (asking) { const go = asking; cancelAsk(); transmit(go.action, go.then); }
  });
  firstBtn.addEventListener("click", () => {
    if (asking) { const go = asking; cancelAsk(); transmit(go.action); }
  });
  document.getElementById("confirm-no").addEventListener("click", cancelAsk);
  function send(action, then) {
    if (!ws || ws.readyState !== 1 || pending) return;
    const a = view && view.legal.find(x => x.action === action);
    if (a && a.ends_turn && askFirst() && !(then && then.length)) { ask(a); return; }
    transmit(action, then);
  }
  function transmit(action, then) {
    if (!ws || ws.readyState !== 1 || pending) return;
    pending = true;
    document.body.classList.add("busy");
    // the move number this action was chosen at: if the table moved on
    // meanwhile (or this is a resend), the server refuses it as "stale";
    // ``then``: a gesture's further steps (the table takes them while they are legal)
    const msg = {type: "action", action: action, ply: view ? view.ply : null};
    if (then && then.length) msg.then = then;
    ws.send(JSON.stringify(msg));
  }

  // -- gestures (docs/engine.md "Gestures"): a board target may stand for
  // several decisions (data-then), show its route first (data-path) and ask
  // a question first (data-confirm). With a finger (or on the phone layout)
  // the first tap on a route shows it and asks in the bar; the bar, or a
  // second tap on it, sends.
  const SVG_NS = "http://www.w3.org/2000/svg";
  let lastPointer = "mouse";
  document.addEventListener("pointerdown", ev => { lastPointer = ev.pointerType || "mouse"; }, true);
  function thenOf(node) {
    try {
      const t = JSON.parse(node.getAttribute("data-then") || "[]");
      return Array.isArray(t) ? t.filter(x => typeof x === "string") : [];
    } catch (e) { return []; }
  }
  function touchLike(ev) {
    const kind = ev && ev.pointerType ? ev.pointerType : (ev && ev.type === "click" ? lastPointer : "");
    return kind === "touch" || NARROW.matches;
  }
  function showPreview(node) {
    clearPreview();
    const pts = node && node.getAttribute("data-path");
    const parent = node && node.parentNode;
    if (!pts || !parent || !board.contains(parent)) return;
    const line = document.createElementNS(SVG_NS, "polyline");
    line.setAttribute("class", "route-preview");
    line.setAttribute("points", pts);
    // the points are in the coordinates of what the target group draws: beside
    // it, under the same transforms (an inset scaled down, a city turned on a
    // phone), so it zooms and turns with the board
    const own = node.getAttribute("transform");
    if (own) line.setAttribute("transform", own);
    parent.appendChild(line);
  }
  function clearPreview() { board.querySelectorAll(".route-preview").forEach(n => n.remove()); }
  function chooseOnBoard(action, node, ev) {
    const then = thenOf(node), question = node.getAttribute("data-confirm");
    const route = then.length > 0 || node.hasAttribute("data-path");
    const again = asking && asking.gesture && asking.action === action;
    if (again) { cancelAsk(); transmit(action, then); return; }    // the second tap
    if (question || (route && touchLike(ev))) { askGesture(action, then, question, node); return; }
    send(action, then);
  }
  function setupGestures() {
    board.querySelectorAll(".svg-holder .clickable[data-path]").forEach(node => {
      const on = () => showPreview(node);
      const off = () => { if (!(asking && asking.gesture)) clearPreview(); };
      node.addEventListener("mouseenter", on); node.addEventListener("mouseleave", off);
      node.addEventListener("focus", on); node.addEventListener("blur", off);
    });
  }

  // -- two-click choices: a picker (g.pickable[data-pick]) shows the targets
  // that need it (data-needs) while it is picked; one pick at a time, kept
  // while the decision is the same (same move number), reset on a new one
  const PICK = {ply: null, key: undefined};
  function setupPicks(v) {
    const pickers = [...board.querySelectorAll(".svg-holder .pickable[data-pick]")];
    if (v.ply !== PICK.ply) { PICK.ply = v.ply; PICK.key = undefined; }
    const keys = new Set(pickers.map(p => p.getAttribute("data-pick")));
    if (PICK.key === undefined || (PICK.key !== null && !keys.has(PICK.key))) {
      const first = pickers.find(p => p.getAttribute("data-pick-default") === "1");
      PICK.key = first ? first.getAttribute("data-pick") : null;
    }
    if (v.legal.length) {
      pickers.forEach(p => {
        const key = p.getAttribute("data-pick");
        p.addEventListener("click", ev => { ev.stopPropagation(); togglePick(key); });
        p.addEventListener("keydown", ev => {
          if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); togglePick(key); }
        });
      });
    } else {
      pickers.forEach(p => p.removeAttribute("tabindex"));
    }
    applyPicks();
  }
  function togglePick(key) {
    PICK.key = PICK.key === key ? null : key;
    if (asking && asking.gesture) cancelAsk();
    applyPicks();
    FRAME.showPicked();  // the targets it opened come on screen
  }
  function applyPicks() {
    board.querySelectorAll(".svg-holder .pickable[data-pick]").forEach(p => {
      const on = p.getAttribute("data-pick") === PICK.key;
      p.classList.toggle("picked", on);
      p.setAttribute("aria-pressed", on ? "true" : "false");
    });
    // hidden for real (display: none): not clickable, not focusable, not measured
    board.querySelectorAll(".svg-holder [data-needs]").forEach(n => {
      n.classList.toggle("needs-off", n.getAttribute("data-needs") !== PICK.key);
    });
  }
  document.addEventListener("keydown", ev => {
    if (ev.key !== "Escape") return;
    if (asking && asking.gesture) { cancelAsk(); return; }
    if (PICK.key) { PICK.key = null; applyPicks(); }
  });

  function fill(bot, button) {
    button.disabled = true;
    fetch("/api/tables/" + CONFIG.table + "/fill", {
      method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({token: CONFIG.token, bot: bot}),
    }).then(r => r.ok ? null : r.json().then(e => showError(errorText(e.error, e.message))))
      .catch(() => showError(T.reconnecting))
      .finally(() => { button.disabled = false; });
  }

  // Turn alerts (each optional, kept in this browser): a short sound, and a
  // system notification when the tab is hidden. Screen readers hear
  // "your turn" through #announce in any case.
  function pref(key) { try { return localStorage.getItem(key) === "1"; } catch (e) { return false; } }
  function setPref(key, on) { try { localStorage.setItem(key, on ? "1" : "0"); } catch (e) { /* off */ } }
  function beep() {
    try {
      const ctx = beep.ctx || (beep.ctx = new (window.AudioContext || window.webkitAudioContext)());
      const osc = ctx.createOscillator(), gain = ctx.createGain();
      osc.frequency.value = 880;
      gain.gain.setValueAtTime(0.15, ctx.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.35);
      osc.connect(gain); gain.connect(ctx.destination);
      osc.start(); osc.stop(ctx.currentTime + 0.35);
    } catch (e) { /* no audio here */ }
  }
  function alertTurn(v) {
    if (pref("thieves.sound")) beep();
    if (document.hidden && pref("thieves.notify") && window.Notification && Notification.permission === "granted") {
      try {
        const n = new Notification(T.your_turn + " — " + v.game_name, {body: v.prompt || "", tag: "thieves-" + CONFIG.table});
        n.onclick = () => { window.focus(); n.close(); };
      } catch (e) { /* notifications refused */ }
    }
  }
  function setupAlerts() {
    const box = document.getElementById("alerts");
    if (!box) return;
    const sound = box.querySelector("input[name=sound]"), notify = box.querySelector("input[name=notify]");
    sound.checked = pref("thieves.sound");
    notify.checked = pref("thieves.notify") && window.Notification && Notification.permission === "granted";
    if (!window.Notification) notify.disabled = true;
    sound.addEventListener("change", () => { setPref("thieves.sound", sound.checked); if (sound.checked) beep(); });
    notify.addEventListener("change", () => {
      if (!notify.checked) { setPref("thieves.notify", false); return; }
      Promise.resolve(Notification.requestPermission()).then(p => {
        notify.checked = p === "granted";
        setPref("thieves.notify", notify.checked);
      });
    });
  }
  setupAlerts();
  (function setupConfirmOption() {
    const box = document.getElementById("alerts");
    if (!box) return;
    const lab = el("label", "confirm-opt");
    const cb = el("input");
    cb.type = "checkbox";
    cb.checked = askFirst();
    cb.addEventListener("change", () => {
      try { localStorage.setItem("thieves.confirm", cb.checked ? "1" : "0"); } catch (e) { /* storage off */ }
    });
    lab.appendChild(cb);
    lab.appendChild(document.createTextNode(" " + T.ask_confirm));
    box.appendChild(lab);
  })();

  // A profile kept in this browser plays this seat: its result counts in the ratings.
  (function linkProfile() {
    let key = null;
    try { key = localStorage.getItem("thieves.profile"); } catch (e) { /* storage off */ }
    if (!key || !CONFIG.token) return;
    fetch("/api/tables/" + CONFIG.table + "/profile", {
      method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({token: CONFIG.token, key: key}),
    }).catch(() => { /* not rated: the game itself goes on */ });
  })();

  // The clocks: seconds left as of the last change; the running ones count
  // down here between two messages (the server decides time-outs).
  let clockAt = 0;
  function fmtTime(sec) {
    sec = Math.max(0, Math.floor(sec));
    const h = Math.floor(sec / 3600), m = Math.floor(sec % 3600 / 60), s = sec % 60;
    if (h >= 24) return Math.floor(h / 24) + " d " + (h % 24) + " h";
    if (h > 0) return h + " h " + String(m).padStart(2, "0") + " min";
    return m + ":" + String(s).padStart(2, "0");
  }
  function drawClocks(v) {
    clockAt = performance.now();
    tickClocks();
  }
  function tickClocks() {
    const v = view;
    if (!v || !v.clock) return;
    // "left" is as of the last change ("since", the server's time): the
    // time since comes from this device's clock (kept right by the system),
    // never less than the time since this message came
    const spent = v.terminal ? 0 : Math.max((performance.now() - clockAt) / 1000,
                                             Date.now() / 1000 - v.clock.since);
    document.querySelectorAll("#players .player[data-seat]").forEach(card => {
      const seat = Number(card.dataset.seat);
      let c = card.querySelector(".clock");
      if (!c) {
        c = el("span", "clock");
        c.setAttribute("aria-label", T.time_left);
        card.querySelector(".player-head").appendChild(c);
      }
      const running = !v.terminal && v.clock.running.includes(seat);
      const left = v.clock.left[seat] - (running ? spent : 0);
      c.textContent = fmtTime(left);
      c.title = T.time_left;
      c.classList.toggle("running", running);
      c.classList.toggle("low", running && left < 30);
      if (v.seats[seat].timed_out) c.textContent += " · " + T.timed_out;
    });
    tickTurnClock(v, spent);
  }
  // the bar's clock: the viewer's own while they are to act, else the first
  // running one (whose seat it is, is said beside it)
  function tickTurnClock(v, spent) {
    const c = document.getElementById("turn-clock");
    const running = v.terminal ? [] : v.clock.running;
    const seat = running.includes(v.viewer) ? v.viewer : running[0];
    c.hidden = seat === undefined || seat === null;
    if (c.hidden) return;
    const left = v.clock.left[seat] - spent;
    c.textContent = "⏱ " + fmtTime(left) + (seat === v.viewer ? "" : " · " + v.seats[seat].name);
    c.title = T.time_left;
    c.classList.toggle("low", left < 30);
  }
  setInterval(tickClocks, 1000);

  // The end screen: one click for a rematch with the same seats and options
  // (or to take one's kept seat in the rematch another player started).
  function drawRematch(v) {
    const final = document.getElementById("final");
    if (!v.terminal) return;
    const box = el("div", "rematch");
    if (v.viewer !== null) {
      const b = el("button", "primary", v.rematch ? T.join_rematch : T.rematch);
      b.addEventListener("click", () => {
        b.disabled = true;
        fetch("/api/tables/" + CONFIG.table + "/rematch", {
          method: "POST", headers: {"Content-Type": "application/json"},
          body: JSON.stringify({token: CONFIG.token}),
        }).then(r => r.json().then(j => {
          if (r.ok) location.href = j.url; else showError(errorText(j.error, j.message));
        })).catch(() => showError(T.reconnecting)).finally(() => { b.disabled = false; });
      });
      box.appendChild(b);
    } else if (v.rematch) {
      const a = el("a", "", T.watch_rematch);
      a.href = "/t/" + v.rematch;
      box.appendChild(a);
    }
    if (box.childNodes.length) { final.appendChild(box); final.hidden = false; }
  }

  // Leave (a bot plays on; the seat's link takes it back), concede, come back.
  function seatPost(what, body, button) {
    if (button) button.disabled = true;
    fetch("/api/tables/" + CONFIG.table + "/" + what, {
      method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify(Object.assign({token: CONFIG.token}, body || {})),
    }).then(r => r.ok ? null : r.json().then(e => showError(errorText(e.error, e.message))))
      .catch(() => showError(T.reconnecting))
      .finally(() => { if (button) button.disabled = false; });
  }

  function drawSeatTools(v) {
    const box = document.getElementById("seat-tools");
    if (!box) return;
    const me = v.viewer !== null ? v.seats[v.viewer] : null;
    const hidden = !me || v.terminal || (v.waiting && v.waiting.length > 0);
    // drawn again only when what it shows changed: a button replaced by every
    // bot move would lose the clicks that land meanwhile (and the select its choice)
    const key = JSON.stringify(hidden ? null : [me, v.reactions, v.sub_bots, me.timed_out && v.clock]);
    if (key === drawSeatTools.key) return;
    drawSeatTools.key = key;
    box.textContent = "";
    box.hidden = hidden;
    if (box.hidden) return;
    if (me.sub) {
      box.appendChild(el("p", "away", (me.conceded ? T.you_conceded : me.timed_out ? T.you_timed_out : T.you_left).replace("{bot}", me.sub_label || me.sub)));
      // real time at zero: no coming back (the server refuses it as out_of_time)
      const spent = me.timed_out && v.clock && v.clock.kind === "realtime" && v.clock.left[v.viewer] <= 0;
      if (!me.conceded && !spent) {
        const back = el("button", "primary", T.take_back);
        back.addEventListener("click", () => seatPost("back", {}, back));
        box.appendChild(back);
      }
      return;
    }
    const pick = el("select", "sub-bot");
    pick.setAttribute("aria-label", T.sub_level);
    pick.title = T.sub_level;
    (v.sub_bots || []).forEach(b => { const o = el("option", "", b.label); o.value = b.bot; pick.appendChild(o); });
    if ((v.sub_bots || []).some(b => b.bot === "greedy")) pick.value = "greedy";  // the server's default too
    const leave = el("button", "tool", T.leave);
    leave.addEventListener("click", () => { if (confirm(T.leave_confirm)) seatPost("leave", {bot: pick.value}, leave); });
    const concede = el("button", "tool", T.concede);
    concede.addEventListener("click", () => { if (confirm(T.concede_confirm)) seatPost("concede", {bot: pick.value}, concede); });
    if (v.reactions) {
      // "not this round" (Board Game Arena's auto-pass): the table lets reaction windows go by
      const off = v.reactions.off;
      const rx = el("button", "tool reactions", off ? T.reactions_off : T.reactions_on);
      rx.setAttribute("aria-pressed", off ? "true" : "false");
      rx.title = T.reactions_help;
      rx.addEventListener("click", () => seatPost("reactions", {off: !off}, rx));
      box.appendChild(rx);
    }
    box.appendChild(el("span", "muted small", T.sub_level + " "));
    box.appendChild(pick);
    box.appendChild(leave);
    box.appendChild(concede);
  }

  function showError(msg) {
    errorEl.textContent = T.error + " — " + msg;
    errorEl.hidden = false;
    clearTimeout(showError.t);
    showError.t = setTimeout(() => { errorEl.hidden = true; }, 6000);
  }

  // The action bar. With more than a few choices, those that glow on the
  // board fold behind one disclosure button ("All choices (N)"): the bar
  // shows what the board cannot (no target drawn) and the generic ones
  // (done, pass, the end of a turn). The folded buttons stay in the bar,
  // hidden, and the toggle (a keyboard reaches it) shows them all.
  const BAR_MAX = 6;
  const GENERIC = /^(done|pass|end|stop|skip|finish|confirm|no|yes|nothing|nocard|decline)\b/;
  const MORE = {ply: null, open: false};
  function drawActions(v) {
    // on the board: what glows there as drawn; not a second click of a
    // two-click choice (data-needs: shown only once its picker is picked),
    // whose button stays in the bar for whoever does not pick first
    const onBoard = new Set([...board.querySelectorAll(".svg-holder .clickable[data-action]")]
      .filter(node => !node.closest(".fold.folded") && !node.hasAttribute("data-needs"))
      .map(node => node.getAttribute("data-action")));
    const folds = a => onBoard.has(a.action) && !a.ends_turn && !GENERIC.test(a.action);
    const folding = v.legal.length > BAR_MAX && v.legal.some(folds);
    if (MORE.ply !== v.ply) { MORE.ply = v.ply; MORE.open = false; }
    const more = folding ? el("span", "more-actions") : null;
    v.legal.forEach(a => {
      const b = el("button", "act", a.text && a.text !== a.action ? a.text : a.action);
      b.dataset.action = a.action;
      b.title = a.action;
      b.addEventListener("click", () => send(a.action));
      (more && folds(a) ? more : bar).appendChild(b);
    });
    if (!more) return;
    more.id = "more-actions";
    more.hidden = !MORE.open;
    const toggle = el("button", "tool more-toggle");
    const label = () => {
      toggle.textContent = (MORE.open ? "▾ " : "▸ ") + T.all_choices.replace("{n}", v.legal.length);
      toggle.setAttribute("aria-expanded", MORE.open ? "true" : "false");
    };
    toggle.setAttribute("aria-controls", "more-actions");
    toggle.title = T.all_choices_help;
    toggle.addEventListener("click", () => {
      MORE.open = !MORE.open; more.hidden = !MORE.open; label();
      FRAME.fitHeights();
    });
    label();
    bar.appendChild(toggle);
    bar.appendChild(more);
  }

  function draw(v) {
    view = v;
    pending = false;
    document.body.classList.remove("busy");
    document.body.dataset.ply = v.ply;
    document.body.dataset.terminal = v.terminal ? "1" : "0";
    document.body.dataset.layout = v.layout || "wide";  // which board this is (phone or desktop)
    const mine = v.legal.length > 0;
    if (!draw.title) draw.title = document.title;
    document.title = (mine ? "● " : "") + draw.title;  // your turn shows in the browser tab
    statusEl.textContent = statusText(v);
    statusBar.classList.toggle("myturn", mine);
    statusBar.classList.toggle("over", v.terminal);
    const legalSet = new Set(v.legal.map(a => a.action));
    const kept = FRAME.keep();  // the player's zoom and pan survive the new drawing
    if (asking && asking.gesture && asking.ply !== v.ply) cancelAsk();  // the question was for another move
    const n = renderBoard(v, board, legalSet, chooseOnBoard);
    Tips.hide();
    // folded parts as the player left them, before the frame measures the drawing
    Folds.apply(board, v.game, () => { FRAME.fitHeights(); FRAME.restore(FRAME.keep()); });
    setupGestures();
    setupPicks(v);
    if (asking && asking.gesture) showPreview(board.querySelector(".svg-holder .clickable[data-action=" + CSS.escape(asking.action) + "]"));
    FRAME.restore(kept);
    document.getElementById("clickhint").hidden = n === 0;
    bar.textContent = "";
    bar.hidden = !mine;
    if (v.fill_bots && v.fill_bots.length) {
      // the creator may start now: bots take the seats nobody has taken
      bar.hidden = false;
      const pick = el("select", "fill-bot");
      pick.setAttribute("aria-label", T.fill_bot_level);
      pick.title = T.fill_bot_level;
      v.fill_bots.forEach(b => { const o = el("option", "", b.label); o.value = b.bot; pick.appendChild(o); });
      const go = el("button", "act primary fill", T.fill_bots);
      go.addEventListener("click", () => fill(pick.value, go));
      bar.appendChild(pick);
      bar.appendChild(go);
    }
    if (mine) {
      bar.appendChild(el("span", "bar-title", T.your_actions + ":"));
      drawActions(v);
    }
    if (v.undo !== null && v.undo !== undefined && !v.terminal) {
      // back to the start of this turn (the engine decided it is allowed)
      bar.hidden = false;
      const u = el("button", "tool undo", "↶ " + T.undo);
      u.title = T.undo_help;
      u.addEventListener("click", () => seatPost("undo", {}, u));
      bar.appendChild(u);
    }
    drawSeatTools(v);
    renderPlayers(v, document.getElementById("players"));
    drawClocks(v);
    renderLog(v, document.getElementById("log"));
    renderFinal(v, document.getElementById("final"));
    drawRematch(v);
    setupRules(v);
    if (mine && !draw.wasMine) {
      document.getElementById("announce").textContent = T.your_turn;
      if (draw.seen) alertTurn(v);  // not on opening the page: only when the turn comes
    }
    draw.seen = true;
    draw.wasMine = mine;
    document.getElementById("download").hidden = !v.terminal;
    FRAME.fitHeights();     // the bar may have grown or shrunk
    FRAME.bringTargets(v);  // after a choice, the next one's targets come on screen
  }

  // --- motion (static/motion.js): boards are put in place one after another,
  // what moved slides there; without motion.js, drawn as they come
  const show = typeof Motion === "object" ? Motion.pace(draw, board) : draw;
  // --- end motion

  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    // patch=1: after the first view, only what changed (applied to the last one)
    const q = new URLSearchParams({lang: CONFIG.lang, layout: tableLayout(), patch: "1"});
    if (CONFIG.token) q.set("token", CONFIG.token);
    ws = new WebSocket(proto + "//" + location.host + "/ws/" + CONFIG.table + "?" + q);
    base = null;  // a new socket starts with a whole view
    window.tableSocket = ws; window.dispatchEvent(new CustomEvent("table-socket", {detail: ws}));  // chat.js listens
    ws.onopen = () => { conn.textContent = "● " + T.connected; conn.className = "conn ok"; retry = 500; };
    ws.onmessage = ev => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "state") show(base = msg);
      else if (msg.type === "patch") {
        if (base) show(base = applyPatch(base, msg));
        else ws.send('{"type": "whole"}');  // nothing to patch: ask for the whole view
      } else if (msg.type === "error") {
        pending = false; document.body.classList.remove("busy");
        if (msg.code !== "stale") showError(errorText(msg.code, msg.message));
        if (msg.code === "bad_token" || msg.code === "unknown_table") retry = -1;
      }
    };
    ws.onclose = () => {
      conn.textContent = "○ " + T.reconnecting; conn.className = "conn bad";
      pending = false;
      if (retry < 0) return;
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    };
  }
  // Remember this seat's link in this browser, for the lobby's "your tables".
  if (CONFIG.token) {
    try {
      const mine = JSON.parse(localStorage.getItem("thieves.seats") || "[]")
        .filter(x => x.url !== location.pathname);
      mine.unshift({url: location.pathname, label: document.title});
      localStorage.setItem("thieves.seats", JSON.stringify(mine.slice(0, 20)));
    } catch (e) { /* storage disabled */ }
  }
  // a ping now and then keeps idle connections open through proxies
  setInterval(() => { if (ws && ws.readyState === 1) ws.send('{"type": "ping"}'); }, 30000);
  // the window crossed the phone width: ask for the other drawing
  onLayoutChange(layout => {
    if (ws && ws.readyState === 1) ws.send(JSON.stringify({type: "layout", layout: layout}));
  });
  FRAME.setup();
  Tips.setup(board);
  textsReady.then(connect);
})();
