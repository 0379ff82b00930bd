// Things move (table standard part 16). Every piece, card, token and die
// of a board carries a stable id (data-pid, docs/engine.md "Stable ids"):
// before a new board is put in place the page notes where each id is, and
// after it slides what moved from its old place (Web Animations), fades in
// what appeared and fades out what left. Other seats' and bots' moves are
// played one after another at a pace a person can follow; the viewer's own
// move plays at once. prefers-reduced-motion, or the "Animate moves" box
// (kept in this browser), turns motion off: boards are then put in place as
// they come. Nothing here reads anything but the two drawings the viewer
// was sent, so motion shows nothing the views do not.
"use strict";
const Motion = (function () {
  const KEY = "thieves.motion";
  const SLIDE_MS = 340, FADE_MS = 280, PACE_MS = 560, OWN_MS = 200;
  const EASE = "cubic-bezier(.25,.8,.3,1)";
  const MAX_WAITING = 6;  // further behind than this, older frames are skipped
  const reduce = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  // what motion did (for tests and for measuring): frames drawn, slides, fades
  const stats = {frames: 0, slides: 0, enters: 0, leaves: 0};

  function wanted() {
    try { if (localStorage.getItem(KEY) === "0") return false; } catch (e) { /* storage off */ }
    return true;
  }
  function enabled() { return !(reduce && reduce.matches) && wanted(); }

  function center(node, inv) {
    // a target hidden until its pick (two-click choices) is nowhere: picking
    // shows and hides things without anything having moved
    if (node.closest(".needs-off")) return null;
    const at = node.getAttribute("data-at"), m = at && node.getScreenCTM();
    if (m) {
      const [x, y] = at.split(" ").map(Number);
      return new DOMPoint(x, y).matrixTransform(m).matrixTransform(inv);
    }
    const r = node.getBoundingClientRect();
    if (!r.width && !r.height) return null;
    return new DOMPoint(r.left + r.width / 2, r.top + r.height / 2).matrixTransform(inv);
  }

  // Where each id is, in the board's own units (so a page that scrolled or a
  // status bar that grew moves nothing).
  function snapshot(board) {
    const svg = board.querySelector(".svg-holder svg");
    const ctm = svg && svg.getScreenCTM();
    if (!ctm) return null;
    const inv = ctm.inverse();
    const where = new Map();
    svg.querySelectorAll("[data-pid]").forEach(node => {
      const c = center(node, inv);
      const pm = node.parentNode.getScreenCTM && node.parentNode.getScreenCTM();
      if (c && pm) where.set(node.getAttribute("data-pid"), {x: c.x, y: c.y, node: node, rel: inv.multiply(pm),
                                                             kind: node.getAttribute("data-kind"),
                                                             count: count(node)});
    });
    return {where: where};
  }

  // a pile shown as one icon and a number ("×3") carries data-count
  function count(node) {
    const n = node.getAttribute("data-count");
    return n === null ? null : Number(n);
  }

  function under(node, set) {
    for (let p = node.parentNode; p && p.nodeName !== "svg"; p = p.parentNode) if (set.has(p)) return true;
    return false;
  }

  function slide(node, from, to, inv) {
    // the offset in the units of the node's parent (where "translate" applies)
    const local = inv.multiply(node.parentNode.getScreenCTM()).inverse();
    const a = new DOMPoint(from.x, from.y).matrixTransform(local);
    const b = new DOMPoint(to.x, to.y).matrixTransform(local);
    node.animate([{translate: (a.x - b.x) + "px " + (a.y - b.y) + "px"}, {translate: "0px 0px"}],
                 {duration: SLIDE_MS, easing: EASE});
    stats.slides++;
  }

  // a faint line from where it was, fading: "this came from there"
  function trail(svg, from, to) {
    const ns = "http://www.w3.org/2000/svg";
    const line = document.createElementNS(ns, "line");
    line.setAttribute("class", "motion-trail");
    line.setAttribute("x1", from.x); line.setAttribute("y1", from.y);
    line.setAttribute("x2", to.x); line.setAttribute("y2", to.y);
    svg.appendChild(line);
    line.animate([{opacity: 0.8}, {opacity: 0}], {duration: 1400, easing: "ease-in"}).onfinish = () => line.remove();
  }

  function fadeIn(node) {
    node.animate([{opacity: 0}, {opacity: 1}], {duration: FADE_MS, easing: "ease-out"});
    stats.enters++;
  }

  // what left: its old drawing, over the new board, fading out
  function fadeOut(svg, old) {
    const ns = "http://www.w3.org/2000/svg";
    const holder = document.createElementNS(ns, "g");
    const m = old.rel;
    holder.setAttribute("class", "motion-ghost");
    holder.setAttribute("transform", "matrix(" + [m.a, m.b, m.c, m.d, m.e, m.f].join(" ") + ")");
    const copy = old.node.cloneNode(true);
    copy.removeAttribute("data-pid");
    copy.querySelectorAll("[data-pid],[data-action],.clickable").forEach(n => {
      n.removeAttribute("data-pid"); n.removeAttribute("data-action"); n.classList.remove("clickable");
    });
    holder.appendChild(copy);
    svg.appendChild(holder);
    holder.animate([{opacity: 1}, {opacity: 0}], {duration: FADE_MS, easing: "ease-in"}).onfinish = () => holder.remove();
    stats.leaves++;
  }

  // After the new board is in place: slide, fade in, fade out.
  function play(before, board) {
    const svg = board.querySelector(".svg-holder svg");
    const ctm = svg && svg.getScreenCTM();
    if (!before || !ctm) return;
    const inv = ctm.inverse();
    const slid = new Set(), entered = new Set(), seen = new Set();
    const trails = [], appeared = [];
    const move = (node, old, now) => {
      slide(node, old, now, inv);
      slid.add(node);
      node.classList.add("just-moved");
      trails.push([old, now]);
    };
    svg.querySelectorAll("[data-pid]").forEach(node => {
      const id = node.getAttribute("data-pid");
      seen.add(id);
      if (under(node, slid) || under(node, entered)) return;  // moves with its group
      const old = before.where.get(id);
      if (!old) { appeared.push(node); return; }
      const now = center(node, inv);
      if (now && Math.hypot(old.x - now.x, old.y - now.y) >= 3) move(node, old, now);
    });
    // interchangeable pieces (the same data-kind): one that left a place (or
    // a pile that shrank) and one that appeared elsewhere (or a pile that
    // grew) are seen as the same piece moving from there to here
    const sources = new Map(), push = (kind, item) => {
      if (!sources.has(kind)) sources.set(kind, []);
      sources.get(kind).push(item);
    };
    before.where.forEach((old, id) => {
      if (seen.has(id)) return;
      if (old.kind) push(old.kind, old); else fadeOut(svg, old);
    });
    const grown = [];
    svg.querySelectorAll("[data-count][data-kind]").forEach(node => {
      const old = before.where.get(node.getAttribute("data-pid"));
      const now = count(node), kind = node.getAttribute("data-kind");
      if (!old || old.count === null || now === null || now === old.count) return;
      for (let k = now; k < old.count; k++) push(kind, Object.assign({pile: true}, old));
      for (let k = old.count; k < now; k++) grown.push(node);
    });
    const take = kind => { const pool = kind && sources.get(kind); return pool && pool.length ? pool.shift() : null; };
    appeared.forEach(node => {
      if (under(node, slid) || under(node, entered)) return;
      // what it came from: one of its kind that left, else the piece it
      // comes out of (data-from: a copy of a card that stays in the hand)
      const from = take(node.getAttribute("data-kind")) || before.where.get(node.getAttribute("data-from"));
      const now = from && center(node, inv);
      if (now) move(node, from, now);
      else { fadeIn(node); entered.add(node); }
    });
    grown.slice(0, 8).forEach(node => {
      const from = take(node.getAttribute("data-kind")), now = from && center(node, inv);
      if (now) { fly(svg, node, from, now, inv); trails.push([from, now]); }
    });
    sources.forEach(pool => pool.forEach(old => { if (!old.pile) fadeOut(svg, old); }));
    // a line from where it was, not for what only made room (a part of the
    // board that moved as a whole: several pieces by the same offset)
    const shift = ([a, b]) => Math.round((a.x - b.x) / 4) + " " + Math.round((a.y - b.y) / 4);
    const shared = new Map();
    trails.forEach(t => shared.set(shift(t), (shared.get(shift(t)) || 0) + 1));
    trails.filter(t => shared.get(shift(t)) < 3).slice(0, 6).forEach(([a, b]) => trail(svg, a, b));
  }

  // one of a pile's pieces flying from the pile it left to the one it joined
  function fly(svg, node, from, to, inv) {
    const ns = "http://www.w3.org/2000/svg";
    const holder = document.createElementNS(ns, "g");
    const m = inv.multiply(node.parentNode.getScreenCTM());
    holder.setAttribute("class", "motion-ghost");
    holder.setAttribute("transform", "matrix(" + [m.a, m.b, m.c, m.d, m.e, m.f].join(" ") + ")");
    const copy = node.cloneNode(true);
    copy.querySelectorAll("[data-pid],[data-action],.clickable").forEach(n => {
      n.removeAttribute("data-pid"); n.removeAttribute("data-action"); n.classList.remove("clickable");
    });
    copy.removeAttribute("data-pid");
    holder.appendChild(copy);
    svg.appendChild(holder);
    const d = (from.x - to.x) + "px " + (from.y - to.y) + "px";
    holder.animate([{translate: d, opacity: 0.95}, {translate: "0px 0px", opacity: 0.95, offset: 0.85},
                    {translate: "0px 0px", opacity: 0}], {duration: SLIDE_MS + 120, easing: EASE})
      .onfinish = () => holder.remove();
    stats.slides++;
  }

  // "Just moved": what a recent event named gets a ring drawn around it,
  // which pulses when it has just become recent (statically without motion).
  function markRecent(board, moving, was) {
    const svg = board.querySelector(".svg-holder svg");
    if (!svg) return;
    const ns = "http://www.w3.org/2000/svg";
    svg.querySelectorAll(".recent").forEach(node => {
      let box;
      try { box = node.getBBox(); } catch (e) { return; }
      if (!box.width && !box.height) return;
      const ring = document.createElementNS(ns, "rect");
      const pad = 4;
      ring.setAttribute("class", "moved-mark");
      ring.setAttribute("x", box.x - pad); ring.setAttribute("y", box.y - pad);
      ring.setAttribute("width", box.width + 2 * pad); ring.setAttribute("height", box.height + 2 * pad);
      ring.setAttribute("rx", 8);
      node.parentNode.insertBefore(ring, node.nextSibling);
      const ref = node.getAttribute("data-ref");
      if (moving && !(ref && was.has(ref))) {
        ring.animate([{opacity: 0, strokeWidth: "9px"}, {opacity: 1, strokeWidth: "3px"}],
                     {duration: 700, easing: "ease-out"});
      }
    });
  }

  function recentRefs(board) {
    return new Set([...board.querySelectorAll(".svg-holder .recent[data-ref]")].map(n => n.getAttribute("data-ref")));
  }

  // The table's draw(view), paced: frames wait their turn (other seats' and
  // bots' moves one after another), each drawn with its motion.
  function pace(draw, board) {
    const queue = [];
    let last = null, readyAt = 0, timer = null;
    function drawOne(v) {
      const moving = enabled() && !document.hidden && last !== null
        && last.layout === v.layout && last.lang === v.lang && v.ply !== last.ply;
      const before = moving ? snapshot(board) : null;
      const was = recentRefs(board);
      const mine = last !== null && last.legal && last.legal.length > 0;  // the move just made was ours
      draw(v);
      stats.frames++;
      if (before) play(before, board);
      markRecent(board, moving, was);
      // the pace: a person can follow; behind by several moves, a little quicker
      const behind = Math.max(0, queue.length - 1);
      readyAt = performance.now() + (moving ? (mine ? OWN_MS : Math.max(300, PACE_MS - 80 * behind)) : 0);
      last = v;
    }
    function pump() {
      if (timer !== null || !queue.length) return;
      if (!enabled() || document.hidden) {   // no motion: the newest board at once
        const v = queue[queue.length - 1];
        queue.length = 0;
        drawOne(v);
        return;
      }
      while (queue.length > MAX_WAITING) queue.shift();
      const wait = readyAt - performance.now();
      if (wait > 0) { timer = setTimeout(() => { timer = null; pump(); }, wait); return; }
      drawOne(queue.shift());
      pump();
    }
    document.addEventListener("visibilitychange", pump);
    // the viewer acts: what others did meanwhile is caught up at once (the
    // newest board only), so the viewer's own move plays without waiting
    function hurry(ev) {
      const t = ev.target && ev.target.closest && ev.target.closest("#board .clickable, #actionbar button, #confirm-yes, #confirm-first");
      if (!t || (ev.type === "keydown" && ev.key !== "Enter" && ev.key !== " ")) return;
      if (queue.length > 1) queue.splice(0, queue.length - 1);
      readyAt = 0;
      if (timer !== null) { clearTimeout(timer); timer = null; }
      pump();
    }
    document.addEventListener("click", hurry, true);
    document.addEventListener("keydown", hurry, true);
    return function show(v) {
      // the other layout (the window crossed the phone width) or language: at once
      const newest = queue.length ? queue[queue.length - 1] : last;
      if (newest && (v.layout !== newest.layout || v.lang !== newest.lang)) {
        queue.length = 0;
        readyAt = 0;
        if (timer !== null) { clearTimeout(timer); timer = null; }
      }
      queue.push(v);
      pump();
    };
  }

  // The "Animate moves" box, beside the zoom buttons (kept in this browser).
  function setupToggle() {
    const place = document.querySelector(".zoom") || document.getElementById("alerts")
      || document.querySelector(".bar-tools");
    if (!place || document.getElementById("motion-opt")) return;
    const box = el("label", "motion-opt small");
    box.id = "motion-opt";
    const cb = el("input");
    cb.type = "checkbox";
    cb.checked = wanted();
    cb.disabled = !!(reduce && reduce.matches);
    cb.addEventListener("change", () => {
      try { localStorage.setItem(KEY, cb.checked ? "1" : "0"); } catch (e) { /* storage off */ }
    });
    box.appendChild(cb);
    box.appendChild(document.createTextNode(" " + (T.animate_moves || "Animate moves")));
    if (cb.disabled) box.title = T.motion_reduced || "";
    place.insertBefore(box, place.firstChild);
  }
  setupToggle();

  return {pace: pace, enabled: enabled, stats: stats, snapshot: snapshot, play: play};
})();
