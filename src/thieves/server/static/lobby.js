// The lobby: seat choices per number of players, tables created without
// losing the seat link, and the lists of tables kept fresh in place (the
// game forms are never touched: what you typed stays).
"use strict";
const LOBBY = JSON.parse(document.getElementById("lobby-config").textContent);

function lobbyEl(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = String(text);
  return e;
}

// Show only as many seat choices as the chosen number of players.
document.querySelectorAll(".game-card").forEach(form => {
  const sel = form.querySelector(".players-select");
  function update() {
    const n = Number(sel.value);
    form.querySelectorAll(".seat-choice").forEach(s => { s.hidden = Number(s.dataset.seat) >= n; });
  }
  sel.addEventListener("change", update);
  update();
});

// Seat links this browser has opened (kept only here, never sent anywhere).
function rememberSeat(url, label) {
  try {
    const mine = JSON.parse(localStorage.getItem("thieves.seats") || "[]").filter(x => x.url !== url);
    mine.unshift({url: url, label: label});
    localStorage.setItem("thieves.seats", JSON.stringify(mine.slice(0, 20)));
  } catch (e) { /* storage disabled: the link is on the screen */ }
}

// Creating a table: the form is sent by script (asking for JSON), the seat
// link is kept and shown, then the page goes to the seat. Nothing of the form
// is lost on an error; without script the form posts as usual (303 to the seat).
function createTable(form, block) {
  const out = block.querySelector(".created");
  const buttons = form.querySelectorAll("button[type=submit]");
  const body = new URLSearchParams(new FormData(form));
  if (form.classList.contains("quick-form")) {
    // "Play now" takes the name typed in the game's form, if any
    const typed = block.querySelector(".game-card input[name=name]");
    body.set("name", typed ? typed.value : "");
  }
  buttons.forEach(b => { b.disabled = true; });
  out.hidden = false;
  out.className = "created muted";
  out.textContent = LOBBY.ui.creating;
  fetch(form.action, {method: "POST", body: body, headers: {"Accept": "application/json"}})
    .then(r => r.json().then(j => ({ok: r.ok, j: j})))
    .then(({ok, j}) => {
      out.textContent = "";
      if (!ok) {
        out.className = "created error-banner";
        out.textContent = LOBBY.ui.error + " — " + (j.message || j.error);
        return;
      }
      const game = block.querySelector("h2").textContent;
      out.className = "created seat-made";
      out.appendChild(lobbyEl("p", "", j.url ? LOBBY.ui.your_seat : LOBBY.ui.seat_links_help));
      j.links.forEach(l => {
        const full = location.origin + l.url;
        rememberSeat(l.url, game + " · " + l.name);
        const row = lobbyEl("p", "seat-link");
        const a = lobbyEl("a", "", j.url ? LOBBY.ui.go_to_seat : l.name);
        a.href = l.url;
        const input = lobbyEl("input", "invite");
        input.readOnly = true; input.value = full;
        input.setAttribute("aria-label", l.name);
        row.appendChild(a); row.appendChild(input);
        out.appendChild(row);
      });
      if (j.url) location.assign(j.url);  // one seat: go there (the link stays shown meanwhile)
    })
    .catch(() => {
      out.className = "created error-banner";
      out.textContent = LOBBY.ui.error;
    })
    .finally(() => { buttons.forEach(b => { b.disabled = false; }); });
}
document.querySelectorAll(".game-block").forEach(block => {
  block.querySelectorAll("form.game-card, form.quick-form").forEach(form => {
    form.addEventListener("submit", ev => {
      if (!window.fetch || !window.URLSearchParams) return;  // an old browser: the plain form post
      ev.preventDefault();
      createTable(form, block);
    });
  });
});

// The lists of tables, patched in place: rows are matched by data-key (the
// table, its status and its seats); a row that did not change is not touched,
// so a name typed to join a seat stays. A changed row keeps what was typed in it.
(function () {
  const holder = document.getElementById("live-lists");
  if (!holder) return;
  function keepTyped(oldRow, newRow) {
    oldRow.querySelectorAll("input[name]").forEach(inp => {
      if (!inp.value) return;
      const form = inp.closest("form");
      const sel = form ? 'form[action="' + form.getAttribute("action") + '"] input[name="' + inp.name + '"]' : null;
      const twin = sel ? newRow.querySelector(sel) : null;
      if (twin) twin.value = inp.value;
    });
  }
  function patchList(mine, fresh) {
    const rows = mine.querySelector(".rows"), newRows = fresh.querySelector(".rows");
    if (!rows || !newRows) return;
    const old = new Map();
    Array.from(rows.children).forEach(r => old.set(r.dataset.key, r));
    const byTable = new Map();
    old.forEach((r, k) => byTable.set(k.split(":")[0], r));
    let at = 0;
    Array.from(newRows.children).forEach(r => {
      let node = old.get(r.dataset.key);
      if (node) {
        old.delete(r.dataset.key);
      } else {
        const before = byTable.get(r.dataset.key.split(":")[0]);
        if (before) keepTyped(before, r);
        node = document.importNode(r, true);
      }
      if (rows.children[at] !== node) rows.insertBefore(node, rows.children[at] || null);
      at++;
    });
    old.forEach(r => r.remove());
  }
  let busy = false;
  async function refresh() {
    if (busy || document.hidden) return;
    busy = true;
    try {
      const r = await fetch("/lobby/lists?lang=" + encodeURIComponent(LOBBY.lang), {cache: "no-store"});
      if (r.ok) {
        const doc = new DOMParser().parseFromString("<div>" + await r.text() + "</div>", "text/html");
        doc.querySelectorAll("[data-list]").forEach(fresh => {
          const mine = holder.querySelector('[data-list="' + fresh.dataset.list + '"]');
          if (mine) patchList(mine, fresh);
        });
        document.body.dataset.listsAt = String(Date.now());
      }
    } catch (e) { /* the server is restarting: try again later */ }
    busy = false;
  }
  setInterval(refresh, 5000);
  document.addEventListener("visibilitychange", refresh);
  window.refreshLobbyLists = refresh;  // for tests and for pages that know something changed
})();

// "Your tables": the seat links this browser has opened.
(function () {
  let mine = [];
  try { mine = JSON.parse(localStorage.getItem("thieves.seats") || "[]"); } catch (e) { return; }
  const list = document.getElementById("my-tables-list");
  if (!mine.length || !list) return;
  mine.forEach(x => {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = x.url; a.textContent = x.label || x.url;
    li.appendChild(a); list.appendChild(li);
  });
  document.getElementById("my-tables").hidden = false;
})();
