// Show only as many seat choices as the chosen number of players.
"use strict";
document.querySelectorAll(".game-card").forEach(form => {
  const sel = form.querySelector(".players-select");
  function update() {
    const n = Number(sel.value);
    form.querySelectorAll(".seat-choice").forEach(s => { s.hidden = Number(s.dataset.seat) >= n; });
  }
  sel.addEventListener("change", update);
  update();
});

// Keep the lists of tables fresh: reload when they change, unless the
// person is filling in a form.
(function () {
  let last = null;
  async function poll() {
    try {
      const r = await fetch("/api/tables");
      const tables = await r.json();
      const digest = JSON.stringify(tables.map(t => [t.id, t.status, t.seats.map(s => s.claimed)]));
      const busy = document.activeElement && ["INPUT", "SELECT"].includes(document.activeElement.tagName);
      if (last !== null && digest !== last && !busy) location.reload();
      last = digest;
    } catch (e) { /* the server is restarting: try again later */ }
    setTimeout(poll, 5000);
  }
  poll();
})();

// Seat links this browser has opened (kept only here, never sent anywhere).
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
