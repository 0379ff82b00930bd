// Learn and review (server/review.py): on a seat's table page a Hint button that asks the search
// for this decision's best moves, says them in words and lights the first on the board; on the
// replay page of a finished game, the post-game review: per seat a win-chance graph (SVG drawn by
// the server) and its marked mistakes with the better move, each a link to that moment.
(() => {
  "use strict";
  const CONFIG = JSON.parse(document.getElementById("config").textContent);
  const T = CONFIG.ui || {};
  const api = "/api/tables/" + encodeURIComponent(CONFIG.table);
  const style = document.createElement("style");
  style.textContent = `
    .hint-box { margin: 4px 0; padding: 6px 10px; border-radius: 6px; background: #eef6ee; border: 1px solid #9cc59c; }
    .hint-box.hint-error { background: #fbeeee; border-color: #d9a0a0; }
    #board .clickable.hint-best { filter: drop-shadow(0 0 3px #0b7a2c) drop-shadow(0 0 7px #0b7a2c) drop-shadow(0 0 2px #0b7a2c); }
    .review-card svg { width: 100%; height: auto; display: block; }
    .review-card h4 { margin: 10px 0 2px; }
    .review-card ol { margin: 4px 0; padding-left: 1.2em; }
    .review-card li { margin: 3px 0; }
    .review-mark { display: inline-block; padding: 0 5px; border-radius: 4px; color: #fff; font-size: .85em; margin-right: 4px; }
    .review-mark.blunder { background: #b3261e; } .review-mark.mistake { background: #b45f06; }
    .review-mark.inaccuracy { background: #7a6500; }
    .review-card button.linklike { background: none; border: 0; padding: 0; color: inherit; text-decoration: underline; cursor: pointer; font: inherit; text-align: left; }`;
  document.head.appendChild(style);

  function errorText(body, status) {
    if (body && body.error && T["err_" + body.error]) return T["err_" + body.error];
    return (body && body.message) || ("HTTP " + status);
  }

  // -- the hint at the table ----------------------------------------------------------------
  function hintButton() {
    const tools = document.querySelector("#statusbar .bar-tools");
    const hud = document.getElementById("hud");
    if (!tools || !hud) return;
    const btn = document.createElement("button");
    btn.type = "button"; btn.id = "hint-btn"; btn.className = "tool";
    btn.textContent = T.hint || "Hint"; btn.title = T.hint_title || "";
    tools.insertBefore(btn, tools.querySelector("#rules-btn"));
    const box = document.createElement("div");
    box.id = "hint-box"; box.className = "hint-box"; box.hidden = true;
    box.setAttribute("role", "status"); box.setAttribute("aria-live", "polite");
    const bar = document.getElementById("statusbar");
    bar.parentNode.insertBefore(box, bar.nextSibling);
    const board = document.getElementById("board");
    let lit = null;  // the hint's actions, best first, while it stands (the first is lit)

    function light() {
      if (!lit || !board) return;
      board.querySelectorAll(".clickable[data-action]").forEach(node => {
        node.classList.toggle("hint-best", node.getAttribute("data-action") === lit[0]);
      });
    }
    function clear() {
      lit = null; box.hidden = true;
      if (board) board.querySelectorAll(".hint-best").forEach(n => n.classList.remove("hint-best"));
    }
    if (board) new MutationObserver(light).observe(board, {childList: true, subtree: true});
    // a decision made (on the board or in the action bar) ends the hint
    document.addEventListener("click", ev => {
      const t = ev.target.closest && ev.target.closest("[data-action]");
      if (t && lit) clear();
    }, true);

    btn.onclick = async () => {
      clear();
      box.hidden = false; box.classList.remove("hint-error");
      box.textContent = T.hint_thinking || "…";
      btn.disabled = true;
      try {
        const r = await fetch(api + "/hint?lang=" + encodeURIComponent(CONFIG.lang), {
          method: "POST", headers: {"Content-Type": "application/json"},
          body: JSON.stringify({token: CONFIG.token})});
        const body = await r.json().catch(() => null);
        if (!r.ok) {
          box.classList.add("hint-error");
          box.textContent = errorText(body, r.status);
          return;
        }
        box.textContent = body.text || T.hint_none || "";
        lit = body.candidates.map(c => c.action);
        light();
      } catch (e) {
        box.classList.add("hint-error");
        box.textContent = String(e);
      } finally {
        btn.disabled = false;
      }
    };
  }

  // -- the review on the replay page ----------------------------------------------------------
  function jump(seat, step) {
    const viewer = document.getElementById("viewer");
    const slider = document.getElementById("slider");
    if (viewer && viewer.value !== String(seat)) {
      viewer.value = String(seat);
      viewer.dispatchEvent(new Event("change"));
    }
    slider.value = String(step);
    slider.dispatchEvent(new Event("input"));
    window.scrollTo({top: 0, behavior: "smooth"});
  }

  function showReview(card, body) {
    card.replaceChildren();
    const h = document.createElement("h3");
    h.textContent = T.review || "Review";
    const about = document.createElement("p");
    about.className = "muted small"; about.textContent = body.about;
    card.append(h, about);
    for (const s of body.seats) {
      const name = document.createElement("h4");
      name.textContent = s.name;
      const sum = document.createElement("p");
      sum.className = "small"; sum.textContent = s.summary;
      const graph = document.createElement("div");
      graph.className = "review-graph";
      graph.innerHTML = s.svg;  // drawn by the server (server/review.py graph), texts escaped there
      card.append(name, graph, sum);
      const list = document.createElement("ol");
      for (const m of s.marks) {
        const li = document.createElement("li");
        const tag = document.createElement("span");
        tag.className = "review-mark " + m.mark; tag.textContent = m.label;
        const go = document.createElement("button");
        go.type = "button"; go.className = "linklike"; go.textContent = m.text;
        go.title = T.review_show || "";
        go.onclick = () => jump(s.seat, m.step);
        li.append(tag, go);
        list.append(li);
      }
      if (s.marks.length) card.append(list);
      else {
        const none = document.createElement("p");
        none.className = "muted small"; none.textContent = T.review_none || "";
        card.append(none);
      }
    }
  }

  async function review() {
    const side = document.querySelector(".side");
    if (!side) return;
    const card = document.createElement("section");
    card.className = "card review-card"; card.id = "review"; card.hidden = true;
    side.insertBefore(card, side.querySelector(".log-card"));
    for (;;) {
      let r, body;
      try {
        r = await fetch(api + "/review?lang=" + encodeURIComponent(CONFIG.lang));
        body = await r.json().catch(() => null);
      } catch (e) { return; }
      if (!r.ok || !body) return;  // not over yet (409): no review before the end
      card.hidden = false;
      if (body.status === "ready") { showReview(card, body); return; }
      if (body.status !== "running") { card.hidden = true; return; }
      card.textContent = body.total
        ? (T.review_running || "").replace("{done}", body.done).replace("{total}", body.total)
        : (T.review_waiting || "…");
      await new Promise(ok => setTimeout(ok, 2000));
    }
  }

  if (document.getElementById("slider")) review();
  else if (CONFIG.seat !== null && CONFIG.seat !== undefined && CONFIG.token) hintButton();
})();
