// Details on demand on a drawn board: foldable parts (Svg.fold) and a tip
// that says what a drawn thing is (its <title>), although the drawing lets
// pointer events through to the clickable targets.
"use strict";

// -- foldable parts: g.fold[data-fold] > g.fold-head + g.fold-body. The page
// folds and unfolds them (click, Enter, Space), remembers it per game and
// key in this browser, and applies it to every new drawing before the frame
// measures it. A folded part at the bottom of the drawing takes its room
// with it (the drawing gets shorter).
const Folds = (function () {
  const BOTTOM = 40;  // drawing units: a part ending this near the bottom is the last thing drawn
  function storeKey(game, key) { return "thieves.fold." + game + "." + key; }
  function stored(game, key, dflt) {
    try {
      const v = localStorage.getItem(storeKey(game, key));
      return v === null ? dflt : v === "1";
    } catch (e) { return dflt; }
  }
  function remember(game, key, folded) {
    try { localStorage.setItem(storeKey(game, key), folded ? "1" : "0"); } catch (e) { /* storage off */ }
  }
  function mark(f, folded) {
    f.classList.toggle("folded", folded);
    const head = f.querySelector(".fold-head");
    if (head) head.setAttribute("aria-expanded", folded ? "false" : "true");
    const m = f.querySelector(".fold-mark");
    if (m) m.textContent = folded ? "▸" : "▾";
  }
  // what follows a folded part comes up under its header (g.fold-after),
  // unless something beside it goes on below the header (a column: then the
  // room stays); a drawing whose bottom came up gets shorter
  function unwrap(svg) {
    svg.querySelectorAll("g.fold-after").forEach(w => {
      while (w.firstChild) w.parentNode.insertBefore(w.firstChild, w);
      w.remove();
    });
  }
  function pullUp(svg, f, hb, bb, box, full, unit) {
    const gap = bb - hb - 4;  // CSS px
    if (gap <= 0) return 0;
    const big = n => n.getBoundingClientRect().height * unit >= full * 0.8;  // a background
    const after = [];
    for (const n of f.parentNode.children) {
      if (n === f || n.tagName === "title" || big(n)) continue;
      const r = n.getBoundingClientRect();
      if (!r.height) continue;
      if (r.top >= bb - 2) after.push(n);
      else if (r.bottom > hb + 2) return 0;   // beside the part and longer: no room to give back
    }
    const bottom = after.reduce((m, n) => Math.max(m, n.getBoundingClientRect().bottom), bb);
    if (after.length) {
      const ctm = f.parentNode.getScreenCTM();
      const w = document.createElementNS("http://www.w3.org/2000/svg", "g");
      w.setAttribute("class", "fold-after");
      w.setAttribute("transform", "translate(0 " + (-gap / (ctm && ctm.d ? ctm.d : 1)).toFixed(2) + ")");
      f.parentNode.insertBefore(w, after[0]);
      after.forEach(n => w.appendChild(n));
    }
    return (bottom - box.top) * unit >= full - BOTTOM ? gap * unit : 0;
  }
  // every part open, measured, then folded as chosen; the drawing's height follows
  function layout(svg, game) {
    const vb = svg.viewBox && svg.viewBox.baseVal;
    if (!vb || !vb.height) return;
    if (!svg.dataset.fullHeight) svg.dataset.fullHeight = String(vb.height);
    const full = Number(svg.dataset.fullHeight);
    const folds = [...svg.querySelectorAll("g.fold[data-fold]")];
    unwrap(svg);
    folds.forEach(f => mark(f, false));
    vb.height = full; svg.setAttribute("height", String(full));
    const box = svg.getBoundingClientRect();
    const unit = box.height ? full / box.height : 0;  // drawing units per CSS pixel
    let cut = 0;
    folds.forEach(f => {
      const folded = stored(game, f.dataset.fold, f.dataset.foldDefault === "1");
      const head = f.querySelector(".fold-head"), body = f.querySelector(".fold-body");
      if (folded && unit && head && body) {
        const hb = head.getBoundingClientRect().bottom, bb = body.getBoundingClientRect().bottom;
        cut += pullUp(svg, f, hb, bb, box, full, unit);
      }
      mark(f, folded);
    });
    if (cut > 0) { vb.height = full - cut; svg.setAttribute("height", String(full - cut)); }
  }
  function apply(board, game, changed) {
    const svg = board.querySelector(".svg-holder svg");
    if (!svg) return;
    layout(svg, game);
    svg.querySelectorAll("g.fold[data-fold] > .fold-head").forEach(head => {
      const f = head.parentNode;
      const toggle = ev => {
        ev.preventDefault(); ev.stopPropagation();
        remember(game, f.dataset.fold, !f.classList.contains("folded"));
        layout(svg, game);
        if (changed) changed();
      };
      head.addEventListener("click", toggle);
      head.addEventListener("keydown", ev => { if (ev.key === "Enter" || ev.key === " ") toggle(ev); });
    });
  }
  return {apply: apply};
})();

// -- the tip: on hover (mouse), or a tap on what is not a target (touch),
// the innermost drawn thing with a <title> under the point says what it is,
// in a small box over the board (outside the drawing). The drawing lets
// pointer events through, so things are found by their boxes here.
const Tips = (function () {
  const TOUCH_MS = 3000;
  const ACTIVE = ".clickable, .pickable, .fold-head";
  let tip = null, timer = null, pending = null;
  function element() {
    if (!tip) {
      tip = document.createElement("div");
      tip.id = "board-tip";
      tip.className = "board-tip";
      tip.setAttribute("role", "tooltip");
      tip.hidden = true;
      document.body.appendChild(tip);
    }
    return tip;
  }
  function hide() {
    clearTimeout(timer);
    if (tip) tip.hidden = true;
  }
  // the innermost (smallest) visible thing with a title whose box holds the point
  function thingAt(board, x, y) {
    const svg = board.querySelector(".svg-holder svg");
    if (!svg) return null;
    let best = null, bestArea = Infinity;
    svg.querySelectorAll("title").forEach(t => {
      const n = t.parentNode;
      if (!n || n === svg || !t.textContent.trim() || n.closest(ACTIVE)) return;
      const r = n.getBoundingClientRect();
      if (r.width < 1 || r.height < 1 || x < r.left || x > r.right || y < r.top || y > r.bottom) return;
      const area = r.width * r.height;
      if (area <= bestArea) { best = n; bestArea = area; }   // equal: the later one is drawn on top
    });
    return best;
  }
  function show(text, x, y) {
    const t = element();
    t.textContent = text;
    t.hidden = false;
    const w = t.offsetWidth, h = t.offsetHeight;
    const left = Math.max(4, Math.min(x + 12, window.innerWidth - w - 4));
    const top = y + 18 + h > window.innerHeight - 4 ? Math.max(4, y - h - 10) : y + 18;
    t.style.left = left + "px";
    t.style.top = top + "px";
  }
  function at(board, x, y) {
    const n = thingAt(board, x, y);
    const title = n && n.querySelector(":scope > title");
    if (title) show(title.textContent.trim(), x, y); else hide();
    return !!title;
  }
  function setup(board) {
    board.addEventListener("pointermove", ev => {
      if (ev.pointerType !== "mouse") return;
      if (ev.buttons || (ev.target.closest && ev.target.closest(ACTIVE))) { hide(); return; }
      const x = ev.clientX, y = ev.clientY;
      if (pending) cancelAnimationFrame(pending);
      pending = requestAnimationFrame(() => { pending = null; at(board, x, y); });
    });
    board.addEventListener("pointerleave", ev => { if (ev.pointerType === "mouse") hide(); });
    // a tap (never one that ended a drag: the frame swallows those) on what is not a target
    let touched = false;
    board.addEventListener("pointerdown", ev => { touched = ev.pointerType !== "mouse"; }, true);
    board.addEventListener("click", ev => {
      if (!touched) return;
      if (ev.target.closest && ev.target.closest(ACTIVE)) { hide(); return; }
      clearTimeout(timer);
      if (at(board, ev.clientX, ev.clientY)) timer = setTimeout(hide, TOUCH_MS);
    });
    board.addEventListener("scroll", hide, {passive: true});
    window.addEventListener("wheel", hide, {passive: true});
  }
  return {setup: setup, hide: hide, thingAt: thingAt};
})();
