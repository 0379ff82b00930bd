// The rules dialog's second tab: a searchable glossary of every component of
// the game (GET /api/games/<slug>/glossary, the same for everyone). Terms in
// the log and parts of the board that name a component open its entry.
// Every text is inserted with textContent.
"use strict";
const GLOSSARY = {entries: [], byId: new Map(), ready: false};

function glossaryNorm(s) {
  return String(s || "").toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
}

(function () {
  const dlg = document.getElementById("rules");
  const panel = dlg && dlg.querySelector(".glossary");
  if (!dlg || !panel) return;
  const rulesBtn = document.getElementById("rules-btn");
  let list = null, search = null, kindPick = null, count = null;

  function showTab(name) {
    dlg.querySelectorAll(".ref-tab").forEach(b => b.setAttribute("aria-selected", String(b.dataset.tab === name)));
    dlg.querySelectorAll(".ref-panel").forEach(p => { p.hidden = p.dataset.panel !== name; });
  }
  dlg.querySelectorAll(".ref-tab").forEach(b => b.addEventListener("click", () => showTab(b.dataset.tab)));
  function open(tab) {
    showTab(tab);
    if (!dlg.open) dlg.showModal();
  }
  if (rulesBtn) rulesBtn.addEventListener("click", ev => { ev.preventDefault(); open("rules"); });

  function entryNode(e) {
    const li = el("li", "gl-entry");
    li.id = "gl-" + e.id;
    li.dataset.id = e.id;
    const head = el("div", "gl-head");
    head.appendChild(el("b", "gl-name", e.name));
    head.appendChild(el("span", "gl-kind", e.kind_label));
    li.appendChild(head);
    if (e.text) li.appendChild(el("p", "gl-text", e.text));
    if (e.facts.length) li.appendChild(el("p", "gl-facts muted small", e.facts.join(" · ")));
    li._words = glossaryNorm([e.name, e.kind_label, e.text, e.facts.join(" "), e.id].join(" "));
    return li;
  }

  function filter() {
    const words = glossaryNorm(search.value).split(/\s+/).filter(Boolean);
    const kind = kindPick.value;
    let shown = 0;
    list.querySelectorAll(".gl-entry").forEach(li => {
      const e = GLOSSARY.byId.get(li.dataset.id);
      const ok = (!kind || e.kind === kind) && words.every(w => li._words.includes(w));
      li.hidden = !ok;
      if (ok) shown++;
    });
    count.textContent = shown ? T.glossary_count.replace("{n}", shown) : T.glossary_none;
  }

  function build() {
    panel.textContent = "";
    const tools = el("div", "gl-tools");
    search = el("input", "gl-search");
    search.type = "search";
    search.placeholder = T.glossary_search;
    search.setAttribute("aria-label", T.glossary_search);
    kindPick = el("select", "gl-kind-pick");
    kindPick.setAttribute("aria-label", T.glossary);
    const all = el("option", "", T.all_kinds); all.value = ""; kindPick.appendChild(all);
    const kinds = new Map();
    GLOSSARY.entries.forEach(e => { if (!kinds.has(e.kind)) kinds.set(e.kind, e.kind_label); });
    kinds.forEach((label, kind) => { const o = el("option", "", label); o.value = kind; kindPick.appendChild(o); });
    tools.appendChild(search);
    tools.appendChild(kindPick);
    panel.appendChild(tools);
    panel.appendChild(el("p", "gl-hint muted small", T.glossary_hint));
    count = el("p", "gl-count muted small");
    count.setAttribute("aria-live", "polite");
    panel.appendChild(count);
    list = el("ul", "gl-list");
    GLOSSARY.entries.forEach(e => list.appendChild(entryNode(e)));
    panel.appendChild(list);
    search.addEventListener("input", filter);
    kindPick.addEventListener("change", filter);
    filter();
  }

  // One entry, shown alone at the top of the glossary tab (the search cleared).
  window.openGlossary = function (id) {
    const e = GLOSSARY.byId.get(id);
    if (!e) return false;
    open("glossary");
    search.value = ""; kindPick.value = "";
    filter();
    list.querySelectorAll(".gl-entry.picked").forEach(n => n.classList.remove("picked"));
    const node = document.getElementById("gl-" + id);
    if (node) {
      node.classList.add("picked");
      node.scrollIntoView({block: "nearest"});
    }
    return true;
  };

  // the board: a part that names a component opens its entry on a right click or a long press
  const board = document.getElementById("board");
  if (board) {
    board.addEventListener("contextmenu", ev => {
      const node = ev.target.closest && ev.target.closest("[data-ref]");
      if (node && GLOSSARY.byId.has(node.getAttribute("data-ref"))) {
        ev.preventDefault();
        openGlossary(node.getAttribute("data-ref"));
      }
    });
  }

  fetch("/api/games/" + encodeURIComponent(CONFIG.game) + "/glossary?lang=" + encodeURIComponent(CONFIG.lang))
    .then(r => r.ok ? r.json() : {entries: []})
    .then(data => {
      GLOSSARY.entries = Array.isArray(data.entries) ? data.entries : [];
      GLOSSARY.entries.forEach(e => GLOSSARY.byId.set(e.id, e));
      GLOSSARY.ready = true;
      build();
      document.querySelectorAll("#log li").forEach(li => { if (li._refs) glossaryTerms(li, li._refs); });
    })
    .catch(() => { /* no glossary: the rules tab still works */ });
})();

// A log line's terms (its refs that are known components, found by name in the
// line as a whole word) become buttons that open their glossary entry. Called by
// renderLog (common.js) for each line with refs; refs that are not components
// (seats, spaces) or whose name the line does not write are left alone.
const LETTER = /[\p{L}\p{N}]/u;
function findWord(text, name) {
  const low = text.toLowerCase(), want = name.toLowerCase();
  if (low.length !== text.length || !want) return -1;
  for (let at = low.indexOf(want); at >= 0; at = low.indexOf(want, at + 1)) {
    const before = at > 0 ? text[at - 1] : " ", after = text[at + want.length] || " ";
    if (!LETTER.test(before) && !LETTER.test(after)) return at;
  }
  return -1;
}
function glossaryTerms(li, refs) {
  li._refs = refs;
  if (!GLOSSARY.ready || li.dataset.terms) return;
  li.dataset.terms = "1";
  const seen = new Set();
  refs.forEach(id => {
    const e = GLOSSARY.byId.get(id);
    if (!e || seen.has(id)) return;
    seen.add(id);
    for (const node of Array.from(li.childNodes)) {
      if (node.nodeType !== 3) continue;
      const at = findWord(node.nodeValue, e.name);
      if (at < 0) continue;
      const rest = node.splitText(at);
      const btn = el("button", "term", rest.nodeValue.slice(0, e.name.length));
      rest.nodeValue = rest.nodeValue.slice(e.name.length);
      btn.type = "button";
      btn.dataset.term = id;
      btn.title = T.glossary_open.replace("{name}", e.name);
      btn.addEventListener("click", ev => { ev.stopPropagation(); openGlossary(id); });
      li.insertBefore(btn, rest);
      return;
    }
  });
}
