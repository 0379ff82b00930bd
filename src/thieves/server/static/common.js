// Shared drawing of a table view (live table and replay). Every text from the
// server is inserted with textContent; only the game's own SVG is parsed.
"use strict";
const CONFIG = JSON.parse(document.getElementById("config").textContent);
const T = CONFIG.ui;
// the same colours as the boards' (thieves/core/svg.py SEAT_COLORS)
const SEAT_COLORS = ["#c0392b", "#2e6fce", "#2f8f4e", "#c98a0b", "#8248b8", "#1f9a9a"];

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

// A view from the last one and a patch (thieves/server/patches.py): fields set
// or gone, lists that grew, objects with some keys changed, and the board as
// runs of the last board's pieces (cut at every "<g") and new pieces. The
// last view is left as it is.
function applyPatch(last, patch) {
  const v = Object.assign({}, last, patch.set || {});
  v.type = "state";
  v.ply = patch.ply;
  v.terminal = patch.terminal;
  Object.entries(patch.append || {}).forEach(([k, items]) => { v[k] = (last[k] || []).concat(items); });
  Object.entries(patch.merge || {}).forEach(([k, values]) => { v[k] = Object.assign({}, last[k], values); });
  (patch.unset || []).forEach(k => { delete v[k]; });
  if (patch.svg) {
    const pieces = last.svg.split("<g"), made = [];
    patch.svg.forEach(step => {
      if (typeof step === "string") made.push(step);
      else for (let i = step[0]; i < step[1]; i++) made.push(pieces[i]);
    });
    v.svg = made.join("<g");
  }
  return v;
}

// A readable view of any observation, for games without render.py.
function isScalar(x) { return x === null || typeof x !== "object"; }
// The game's own texts (data/i18n.yaml): a string value that is a key there
// is shown as its text, with "<key>.effect" as a tooltip.
let TEXTS = {};
const textsReady = fetch("/api/games/" + CONFIG.game + "/texts?lang=" + CONFIG.lang)
  .then(r => r.ok ? r.json() : {}).then(t => { TEXTS = t; }).catch(() => {});
function scalarText(x) {
  if (x === null || x === undefined || x === "") return "—";
  if (typeof x === "string" && Object.prototype.hasOwnProperty.call(TEXTS, x)) return TEXTS[x];
  if (typeof x === "boolean") return x ? "✓" : "✗";
  return String(x);
}
// a field's name: the game's text "field.<name>" when it has one
function label(k) {
  const own = TEXTS["field." + k];
  return typeof own === "string" ? own : k.replace(/_/g, " ");
}

function scalarSpan(x) {
  const sp = el("span", "", scalarText(x));
  const effect = typeof x === "string" ? TEXTS[x + ".effect"] : undefined;
  if (effect) { sp.title = effect; sp.className = "has-tip"; }
  return sp;
}

function genericValue(v) {
  if (isScalar(v)) return scalarSpan(v);
  if (Array.isArray(v)) {
    if (v.every(isScalar)) {
      if (!v.length) return el("span", "", "—");
      const span = el("span");
      v.forEach((x, i) => { if (i) span.appendChild(document.createTextNode(", ")); span.appendChild(scalarSpan(x)); });
      return span;
    }
    const ol = el("ol", "gen-list");
    v.forEach(x => { const li = el("li"); li.appendChild(genericValue(x)); ol.appendChild(li); });
    return ol;
  }
  const keys = Object.keys(v);
  if (keys.every(k => isScalar(v[k]))) {   // a small record: chips on one line
    const span = el("span", "chips");
    if (!keys.length) span.textContent = "—";
    keys.forEach(k => {
      const c = el("span", "chip");
      c.appendChild(el("b", "", k + " "));
      c.appendChild(document.createTextNode(scalarText(v[k])));
      span.appendChild(c);
    });
    return span;
  }
  const dl = el("dl", "gen-obj");
  keys.forEach(k => {
    dl.appendChild(el("dt", "", label(k)));
    const dd = el("dd"); dd.appendChild(genericValue(v[k])); dl.appendChild(dd);
  });
  return dl;
}

const HIDDEN_KEYS = ["log", "game", "num_players", "ply", "viewer", "to_act", "terminal", "legal"];

// Fields holding one entry per seat go to the player panels (generic view only).
function splitObservation(view) {
  const common = {}, perSeat = {};
  const n = view.seats.length;
  Object.keys(view.observation).forEach(k => {
    if (HIDDEN_KEYS.includes(k)) return;
    const v = view.observation[k];
    if (Array.isArray(v) && v.length === n && n > 1) perSeat[k] = v;
    else common[k] = v;
  });
  return {common, perSeat};
}

function renderBoard(view, board, legalSet, onClick) {
  board.textContent = "";
  let clickable = 0;
  if (view.svg) {
    const holder = el("div", "svg-holder");
    holder.innerHTML = view.svg;  // drawn by the game from this viewer's observation only
    board.appendChild(holder);
    holder.querySelectorAll("[data-action]").forEach(node => {
      const a = node.getAttribute("data-action");
      if (legalSet && legalSet.has(a) && onClick) {
        node.classList.add("clickable");
        node.setAttribute("tabindex", "0");
        node.setAttribute("role", "button");
        node.addEventListener("click", ev => { ev.stopPropagation(); onClick(a, node, ev); });
        node.addEventListener("keydown", ev => {
          if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); onClick(a, node, ev); }
        });
        clickable++;
      } else {
        node.classList.remove("clickable");
      }
    });
    // While something can be clicked, the rest of the drawing lets clicks
    // through, so a die or label drawn on top never hides a target.
    holder.classList.toggle("live", clickable > 0);
  } else {
    const {common} = splitObservation(view);
    const box = el("div", "generic card");
    const scal = {}, rest = {};
    Object.keys(common).forEach(k => { (isScalar(common[k]) ? scal : rest)[k] = common[k]; });
    const top = el("div", "gen-summary");
    Object.keys(scal).forEach(k => {
      if (scal[k] === "" || scal[k] === null) return;
      const c = el("span", "chip big");
      c.appendChild(el("b", "", label(k) + " "));
      c.appendChild(document.createTextNode(scalarText(scal[k])));
      top.appendChild(c);
    });
    box.appendChild(top);
    box.appendChild(genericValue(rest));
    board.appendChild(box);
  }
  return clickable;
}

function seatStatus(view, i) {
  if (view.terminal) return "";
  if (view.to_act.includes(i)) return T.to_act;
  if (view.chosen && view.chosen.includes(i)) return T.has_chosen;
  return "";
}

function renderPlayers(view, box) {
  box.textContent = "";
  view.seats.forEach(s => {
    const card = el("div", "player card");
    card.dataset.seat = s.seat;
    if (view.to_act.includes(s.seat) && !view.terminal) card.classList.add("active");
    if (view.viewer === s.seat) card.classList.add("me");
    const dot = el("span", "dot"); dot.style.background = SEAT_COLORS[s.seat % SEAT_COLORS.length];
    const head = el("div", "player-head");
    head.appendChild(dot);
    head.appendChild(el("span", "pname", s.claimed ? s.name : s.name + " (" + T.open_seat + ")"));
    if (s.kind === "bot") head.appendChild(el("span", "tag", T.bot + " · " + (s.bot_label || s.bot)));
    if (s.alias) head.appendChild(el("span", "tag alias", s.alias));  // the game's own name: its colour
    if (view.viewer === s.seat) head.appendChild(el("span", "tag you", T.you));
    // a player who left or conceded: the bot standing in for them
    if (s.sub) head.appendChild(el("span", "tag sub", (s.conceded ? T.conceded : T.left) + " · " + T.bot + " " + (s.sub_label || s.sub)));
    const subMoves = view.substitute_moves ? view.substitute_moves[s.seat] : 0;
    card.appendChild(head);
    if (subMoves) card.appendChild(el("div", "muted small", T.sub_moves.replace("{n}", subMoves)));
    const st = seatStatus(view, s.seat);
    const line = el("div", "player-line");
    if (view.scores) line.appendChild(el("span", "score", T.score + ": " + view.scores[s.seat]));
    if (st) line.appendChild(el("span", "state " + (st === T.has_chosen ? "chosen" : "toact"), st));
    if (view.terminal && view.winners.includes(s.seat)) line.appendChild(el("span", "state winner", "★ " + T.winners));
    card.appendChild(line);
    if (!view.svg) {
      const {perSeat} = splitObservation(view);
      const dl = el("dl", "seat-fields");
      Object.keys(perSeat).forEach(k => {
        const v = perSeat[k][s.seat];
        if (v === null || v === undefined) return;  // hidden from this viewer
        dl.appendChild(el("dt", "", label(k)));
        const dd = el("dd"); dd.appendChild(genericValue(v)); dl.appendChild(dd);
      });
      if (dl.childNodes.length) card.appendChild(dl);
    }
    box.appendChild(card);
  });
}

// The log; lines that arrived since the last drawing are highlighted, so
// what just happened stands out. A view may carry only the new lines
// (log_start > 0): they are added to those already shown. Pointing at a line
// highlights on the board what it names (data-ref).
const LOG = {lines: [], refs: [], recent: []};
function renderLog(view, ol) {
  const start0 = view.log_start || 0;
  if (start0 === 0 || start0 > LOG.lines.length) { LOG.lines = []; LOG.refs = []; LOG.recent = []; }
  LOG.lines.length = start0; LOG.refs.length = start0; LOG.recent.length = start0;
  view.log.forEach((t, i) => {
    LOG.lines.push(t);
    LOG.refs.push(view.log_refs ? view.log_refs[i] : []);
    LOG.recent.push(view.log_recent ? view.log_recent[i] : false);
  });
  const known = ol.dataset.count === undefined ? LOG.lines.length : Number(ol.dataset.count);
  ol.textContent = "";
  const start = Math.max(0, LOG.lines.length - 200);
  LOG.lines.slice(start).forEach((text, i) => {
    const n = start + i;
    const li = el("li", (n >= known ? "new" : "") + (LOG.recent[n] ? " recent" : ""), text);
    li.value = n + 1;
    const refs = LOG.refs[n] || [];
    if (refs.length) {
      li.tabIndex = 0;
      const on = () => highlightRefs(refs, true), off = () => highlightRefs(refs, false);
      li.addEventListener("mouseenter", on); li.addEventListener("mouseleave", off);
      li.addEventListener("focus", on); li.addEventListener("blur", off);
      li.addEventListener("click", on);
      if (typeof glossaryTerms === "function") glossaryTerms(li, refs);  // terms open the glossary (glossary.js)
    }
    ol.appendChild(li);
  });
  ol.dataset.count = LOG.lines.length;
  ol.scrollTop = ol.scrollHeight;
}

function highlightRefs(refs, on) {
  document.querySelectorAll("#board [data-ref]").forEach(n => {
    if (refs.includes(n.getAttribute("data-ref"))) n.classList.toggle("pointed", on);
  });
  document.querySelectorAll("#players .player").forEach(p => {
    if (refs.includes("seat:" + p.dataset.seat)) p.classList.toggle("pointed", on);
  });
}

// The end of the game: the score table by the rulebook's categories, the
// winner, and the tie-breaker that decided, when the game gives them.
function scoreTable(view) {
  const st = view.score_table;
  if (!st || !st.rows) return null;
  const wrap = el("div", "score-wrap");
  const table = el("table", "score-table");
  const head = el("tr");
  head.appendChild(el("th", "", ""));
  (st.columns || view.seats.map(s => s.name)).forEach((c, i) => {
    const th = el("th", view.winners.includes(i) ? "win" : "", c);
    th.style.borderBottom = "4px solid " + SEAT_COLORS[i % SEAT_COLORS.length];
    head.appendChild(th);
  });
  table.appendChild(head);
  st.rows.forEach((row, r) => {
    const tr = el("tr", r === st.rows.length - 1 && st.total_last !== false ? "total" : "");
    row.forEach((cell, i) => tr.appendChild(el(i ? "td" : "th", "", cell)));
    table.appendChild(tr);
  });
  wrap.appendChild(table);
  if (st.tiebreak) wrap.appendChild(el("p", "small", st.tiebreak));
  return wrap;
}

function renderFinal(view, box) {
  if (!view.terminal) { box.hidden = true; return; }
  box.hidden = false;
  box.textContent = "";
  box.appendChild(el("h3", "", T.game_over));
  const names = view.winners.map(w => view.seats[w].name).join(", ");
  box.appendChild(el("p", "", names ? T.winners + ": " + names : T.nobody_wins));
  const st = scoreTable(view);
  if (st) box.appendChild(st);
}

// The rules summary in the page's language, opened from the table.
function setupRules(view) {
  const btn = document.getElementById("rules-btn"), dlg = document.getElementById("rules");
  if (!btn || !dlg) return;
  btn.hidden = !view.rules;
  if (!view.rules || dlg.dataset.lang === view.lang) return;
  dlg.dataset.lang = view.lang;
  const body = dlg.querySelector(".rules-body");
  body.textContent = "";
  view.rules.split(/\n\s*\n/).forEach(par => {
    const heading = par.match(/^#+\s*(.*)$/);
    body.appendChild(heading ? el("h4", "", heading[1]) : el("p", "", par.trim()));
  });
}

// The table's layout: "narrow" on a phone-sized window (the server then draws
// one tall board whose hand stays readable), "wide" otherwise. ``onChange``
// is called when the window crosses the width.
const NARROW = window.matchMedia("(max-width: 639px)");
function tableLayout() { return NARROW.matches ? "narrow" : "wide"; }
function onLayoutChange(fn) {
  const cb = () => fn(tableLayout());
  if (NARROW.addEventListener) NARROW.addEventListener("change", cb);
  else if (NARROW.addListener) NARROW.addListener(cb);
}

// An error from the server in the page's language: the code's words, and
// the server's detail where it says more (the engine's reason for "illegal").
function errorText(code, message) {
  const words = T["err_" + code];
  if (!words) return message || code;
  return ["illegal", "bad_setup", "bad_request"].includes(code) && message ? words + " (" + message + ")" : words;
}

function statusText(view) {
  if (view.terminal) return T.game_over + " — " + (view.winners.length ? T.winners + ": " + view.winners.map(w => view.seats[w].name).join(", ") : T.nobody_wins);
  // before the start: nobody plays until every seat is taken
  if (view.waiting && view.waiting.length) {
    return T.waiting_players.replace("{seats}", view.waiting.map(p => view.seats[p].name).join(", "));
  }
  // a seat nobody has taken yet says so: the table waits for someone to join
  const why = view.prompt ? " — " + view.prompt : "";
  // the table is taking the viewer's decision (one answer only, or reactions off): it says which
  if (view.answering) return view.prompt;
  if (view.viewer !== null && view.to_act.includes(view.viewer)) return T.your_turn + why;
  // who is doing what, said once (the server words it: views.doing_text)
  if (view.doing) return view.doing;
  const waiting = view.to_act.map(p => view.seats[p].name + (view.seats[p].claimed ? "" : " (" + T.open_seat + ")")).join(", ");
  return waiting ? T.waiting_for + " " + waiting + why : (view.prompt || "");
}
