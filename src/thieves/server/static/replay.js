// Step through a game move by move from one point of view.
"use strict";
(function () {
  const slider = document.getElementById("slider");
  const viewerSel = document.getElementById("viewer");
  const errorEl = document.getElementById("error");
  let ply = 0, total = 0, first = true, asked = 0;
  if (CONFIG.seat !== null) viewerSel.value = String(CONFIG.seat);

  async function load(p) {
    const q = new URLSearchParams({lang: CONFIG.lang, viewer: viewerSel.value, layout: tableLayout()});
    if (CONFIG.token) q.set("token", CONFIG.token);
    const mine = ++asked;  // dragging the slider asks many steps: show only the last asked
    const r = await fetch("/api/tables/" + CONFIG.table + "/replay/" + p + "?" + q);
    const v = await r.json();
    if (mine !== asked) return;
    if (!r.ok) { errorEl.textContent = T.error + " — " + errorText(v.error, v.message); errorEl.hidden = false; return; }
    errorEl.hidden = true;
    // one move forward or back: what moved slides (static/motion.js)
    const board = document.getElementById("board");
    const step = Math.abs(v.ply - ply) === 1 && typeof Motion === "object" && Motion.enabled();
    const before = step ? Motion.snapshot(board) : null;
    ply = v.ply; total = v.total;
    slider.max = total; slider.value = ply;
    document.getElementById("ply").textContent = ply;
    document.getElementById("total").textContent = total;
    document.body.dataset.ply = ply;
    renderBoard(v, board, null, null);
    if (typeof Folds === "object") { Tips.hide(); Folds.apply(board, v.game || ""); }
    if (typeof Tips === "object" && !board.dataset.tips) { board.dataset.tips = "1"; Tips.setup(board); }
    if (before) Motion.play(before, board);
    renderPlayers(v, document.getElementById("players"));
    renderLog(v, document.getElementById("log"));
    renderFinal(v, document.getElementById("final"));
    const la = document.getElementById("lastaction");
    la.textContent = "";
    if (v.last_action) {
      // a move its substitute bot made says so (the player had left)
      const who = v.seats[v.last_action.seat].name
        + (v.last_action.by ? " (" + T.by_sub.replace("{bot}", v.last_action.by) + ")" : "");
      la.appendChild(el("span", "bar-title", T.played + ": "));
      la.appendChild(el("span", "", who + " — " + (v.last_action.action ? (v.last_action.text || v.last_action.action)
                                                      : T.secret_choice)));
    } else la.appendChild(el("span", "muted", statusText(v)));
    const done = v.status === "finished";
    document.getElementById("download").hidden = !done;
    document.getElementById("download-note").hidden = done;
  }
  async function start() {
    const q = new URLSearchParams({lang: CONFIG.lang});
    // learn the number of moves, then show the last position
    const r = await fetch("/api/tables/" + CONFIG.table + "/replay/0?" + q);
    const v = await r.json();
    load(r.ok ? v.total : 0);
  }
  document.getElementById("first").onclick = () => load(0);
  document.getElementById("prev").onclick = () => load(Math.max(0, ply - 1));
  document.getElementById("next").onclick = () => load(Math.min(total, ply + 1));
  document.getElementById("last").onclick = () => load(total);
  slider.oninput = () => load(Number(slider.value));
  viewerSel.onchange = () => load(ply);
  onLayoutChange(() => load(ply));
  document.addEventListener("keydown", ev => {
    // the slider and the point-of-view menu use the arrow keys themselves
    if (ev.target && ["INPUT", "SELECT", "TEXTAREA"].includes(ev.target.tagName)) return;
    if (ev.key === "ArrowLeft") load(Math.max(0, ply - 1));
    if (ev.key === "ArrowRight") load(Math.min(total, ply + 1));
  });
  textsReady.then(start);
})();
