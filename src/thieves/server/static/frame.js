// The table's layout: a status bar that stays on screen (#hud: prompt,
// actions, undo, clock, confirmation, errors) and a board frame that pans and
// zooms on its own (#board: drag, wheel, pinch, keys, + / − / whole-board
// buttons) without pushing the bar away. After a choice, the targets of the
// next one are brought on screen, unless the player moved the view meanwhile.
// On a phone (the narrow layout) the frame also zooms so that the targets of
// each new decision are big enough for a finger, around where they gather;
// the whole-board button toggles between the whole board and that view.
"use strict";
const FRAME = (function () {
  const hud = document.getElementById("hud");
  const board = document.getElementById("board");
  const side = document.getElementById("side");
  const STACKED = window.matchMedia("(max-width: 860px)");      // one column: the page scrolls
  const REDUCED = window.matchMedia("(prefers-reduced-motion: reduce)");
  const MANUAL_MS = 4000;   // a view the player moved is theirs for this long
  const MIN_ZOOM_CAP = 0.2, MAX_ZOOM = 4, STEP = 1.25;
  let zoom = 1;             // 1: the board fits the frame's width
  let manualAt = -Infinity; // when the player last moved the view themselves
  let shown = null;         // the move number whose targets were last brought on screen
  // the phone focus (table standard part 15: a finger needs >= 24 px)
  const FINGER_PX = 26;     // targets this big (10th percentile) need no zoom (24 and a margin)
  const FOCUS_PX = 30;      // the 10th percentile of the targets' smaller side, after focus
  const FOCUS_MAX = 4;      // zoomed no further than this for it
  let last = null;          // the last view drawn
  let focused = null;       // "move number layout" of the drawing last focused
  let wholeAt = null;       // the move number at which the player chose the whole board
  let auto = false;         // the zoom is the phone focus's, not the player's
  let wasNarrow = NARROW.matches;

  function svg() { return board.querySelector(".svg-holder svg"); }
  function manual() { manualAt = performance.now(); }
  function smooth() { return REDUCED.matches ? "auto" : "smooth"; }

  // -- the bar that stays ---------------------------------------------------
  // Its height is kept in --hud-h: scroll-padding leaves room under it (a
  // scrolled-to target is never hidden behind it) and the frame's height is
  // what the window has left below it.
  function fitHeights() {
    const h = Math.ceil(hud.getBoundingClientRect().height);
    document.documentElement.style.setProperty("--hud-h", h + "px");
    if (STACKED.matches) {
      // on a phone a zoomed board is one window high and pans both ways (a
      // map), so what is below it stays a swipe away
      const framed = NARROW.matches && zoom > 1.001;
      board.classList.toggle("focus-frame", framed);
      if (framed) board.style.setProperty("--frame-h", Math.max(240, window.innerHeight - h - 12) + "px");
      else board.style.removeProperty("--frame-h");
      if (side) side.style.removeProperty("--side-h");
      return;
    }
    const top = board.getBoundingClientRect().top + window.scrollY;
    const area = board.closest(".board-area");
    const below = area ? area.getBoundingClientRect().bottom - board.getBoundingClientRect().bottom : 0;
    const room = Math.max(320, window.innerHeight - top - below - 16);
    board.style.setProperty("--frame-h", room + "px");
    let sideRoom = 0;
    if (side) {
      const sideTop = side.getBoundingClientRect().top + window.scrollY;
      sideRoom = Math.max(320, window.innerHeight - sideTop - 12);
      side.style.setProperty("--side-h", sideRoom + "px");
    }
    // what still sticks out (margins below the frame): the page stays one window tall
    const over = document.documentElement.scrollHeight - window.innerHeight;
    if (over > 0 && over <= 40) {
      board.style.setProperty("--frame-h", Math.max(320, room - over) + "px");
      if (side) side.style.setProperty("--side-h", Math.max(320, sideRoom - over) + "px");
    }
  }

  // -- zoom -----------------------------------------------------------------
  function fitWidth() {
    const cs = getComputedStyle(board);
    return board.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  }
  function aspect() {  // the board's height per unit of width
    const s = svg();
    if (!s) return 1;
    const vb = s.viewBox && s.viewBox.baseVal;
    if (vb && vb.width) return vb.height / vb.width;
    const r = s.getBoundingClientRect();
    return r.width ? r.height / r.width : 1;
  }
  // the zoom at which the whole board is in view (never more than the width)
  function wholeZoom() {
    const room = STACKED.matches
      ? window.innerHeight - (parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--hud-h")) || 0) - 24
      : (parseFloat(board.style.getPropertyValue("--frame-h")) || board.clientHeight) - 16;
    return Math.max(MIN_ZOOM_CAP, Math.min(1, room / (fitWidth() * aspect())));
  }
  function applyZoom() {
    board.classList.toggle("zoomed", zoom > 1.001);
    if (Math.abs(zoom - 1) < 0.001) board.style.removeProperty("--svg-w");
    else board.style.setProperty("--svg-w", Math.round(fitWidth() * zoom) + "px");
  }
  // zoom to ``z``, keeping the board's point under (x, y) (window
  // coordinates; default: the frame's middle) where it is
  function zoomTo(z, x, y) {
    const s = svg();
    z = Math.min(MAX_ZOOM, Math.max(Math.min(1, wholeZoom()), z));
    if (!s || Math.abs(z - zoom) < 0.001) return;
    const f = board.getBoundingClientRect();
    if (x === undefined) { x = f.left + f.width / 2; y = Math.max(f.top, 0) + Math.min(f.height, window.innerHeight) / 2; }
    const r0 = s.getBoundingClientRect();
    const fx = (x - r0.left) / r0.width, fy = (y - r0.top) / r0.height;
    zoom = z;
    applyZoom();
    markEdges();
    const r1 = s.getBoundingClientRect();
    const dx = r1.left + fx * r1.width - x, dy = r1.top + fy * r1.height - y;
    const top0 = board.scrollTop;
    board.scrollLeft += dx;
    board.scrollTop += dy;
    const rest = dy - (board.scrollTop - top0);  // what the frame could not take, the page takes
    if (STACKED.matches && Math.abs(rest) > 1) window.scrollBy(0, rest);
    manual();
  }
  // zoom to ``z`` as the page's own choice (not the player's: the view
  // stays the page's to move), the pan left to the caller
  function setZoom(z) {
    zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM_CAP, z));
    applyZoom();
    fitHeights();
    markEdges();
  }
  function zoomStep(dir) {
    if (dir === "fit" && NARROW.matches && last && last.legal.length && svg()) {
      // the phone: the whole board, or back to where you act (kept for this decision)
      if (wholeAt === last.ply) {
        wholeAt = null;
        if (!focusNow()) setZoom(1);
      } else {
        wholeAt = last.ply;
        auto = false;
        setZoom(Math.min(1, wholeZoom()));
        board.scrollTo({left: 0, top: 0});
        const f = board.getBoundingClientRect(), band = hud.getBoundingClientRect().bottom + 4;
        if (f.top < band || f.top > window.innerHeight / 2) window.scrollBy(0, f.top - band);
      }
      fitTitle();
      return;
    }
    if (dir === "fit") {
      const whole = wholeZoom();
      zoomTo(Math.abs(zoom - whole) < 0.01 ? 1 : whole);  // a second press: back to the width
      board.scrollTo({left: 0, top: 0});
    } else {
      zoomTo(dir === "in" ? zoom * STEP : zoom / STEP);
    }
  }

  // -- panning: a drag with the mouse; touch pans natively (one finger) and
  // pinches here (two); the wheel scrolls, and zooms with Ctrl (or a pinch on
  // a touchpad). A drag is never taken as a click on what it started on.
  let drag = null, swallowClick = false;
  function onPointerDown(ev) {
    if (ev.pointerType !== "mouse" || ev.button !== 0) return;
    drag = {x: ev.clientX, y: ev.clientY, left: board.scrollLeft, top: board.scrollTop, moved: false};
  }
  function onPointerMove(ev) {
    if (!drag) return;
    const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < 6) return;
    if (!drag.moved) { drag.moved = true; board.classList.add("dragging"); }
    board.scrollLeft = drag.left - dx;
    board.scrollTop = drag.top - dy;
    manual();
    ev.preventDefault();
  }
  function onPointerUp() {
    if (!drag) return;
    if (drag.moved) {
      swallowClick = true;   // the click that ends this drag is not a choice
      setTimeout(() => { swallowClick = false; }, 0);
    }
    board.classList.remove("dragging");
    drag = null;
  }
  function onClickCapture(ev) {
    if (!swallowClick) return;
    swallowClick = false;
    ev.stopPropagation();
    ev.preventDefault();
  }
  function onWheel(ev) {
    manual();
    if (!ev.ctrlKey) return;   // a plain wheel scrolls the frame (then the page)
    ev.preventDefault();
    zoomTo(zoom * Math.exp(-ev.deltaY * 0.0025), ev.clientX, ev.clientY);
  }
  let pinch = null;
  function touchGap(ev) {
    const [a, b] = ev.touches;
    return {d: Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY),
            x: (a.clientX + b.clientX) / 2, y: (a.clientY + b.clientY) / 2};
  }
  function onTouchStart(ev) {
    manual();
    pinch = ev.touches.length === 2 ? Object.assign(touchGap(ev), {zoom: zoom}) : null;
  }
  function onTouchMove(ev) {
    manual();
    if (!pinch || ev.touches.length !== 2) return;
    ev.preventDefault();
    const g = touchGap(ev);
    zoomTo(pinch.zoom * g.d / pinch.d, g.x, g.y);
  }
  function onKey(ev) {
    if (ev.target !== board || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const k = {"+": "in", "=": "in", "-": "out", "_": "out", "0": "fit"}[ev.key];
    if (k) { ev.preventDefault(); zoomStep(k); return; }
    if (ev.key.startsWith("Arrow") || ev.key === "PageUp" || ev.key === "PageDown") manual();
  }

  // -- targets come to you ----------------------------------------------------
  // The part of the window where a target can be seen: below the bar, inside
  // the frame.
  function seenRect() {
    const f = board.getBoundingClientRect();
    const top = Math.max(f.top, hud.getBoundingClientRect().bottom);
    return {left: Math.max(f.left, 0), top: top, right: Math.min(f.right, window.innerWidth),
            bottom: Math.min(f.bottom, window.innerHeight)};
  }
  function inside(r, s) { return r.left >= s.left - 1 && r.right <= s.right + 1 && r.top >= s.top - 1 && r.bottom <= s.bottom + 1; }
  function union(rs) {
    return rs.reduce((a, r) => ({left: Math.min(a.left, r.left), top: Math.min(a.top, r.top),
                                 right: Math.max(a.right, r.right), bottom: Math.max(a.bottom, r.bottom)}));
  }
  function clamp(v, lo, hi) { return Math.max(lo, Math.min(hi, v)); }
  // bring the box ``r`` (window coordinates) on screen: pan the frame, then
  // scroll the page for what the frame cannot do
  function reveal(r) {
    const f = board.getBoundingClientRect();
    const w = r.right - r.left, h = r.bottom - r.top;
    const wantX = w <= f.width ? (r.left + r.right) / 2 - (f.left + f.width / 2) : r.left - f.left - 8;
    const wantY = h <= f.height ? (r.top + r.bottom) / 2 - (f.top + f.height / 2) : r.top - f.top - 8;
    const left = clamp(board.scrollLeft + wantX, 0, board.scrollWidth - board.clientWidth);
    const top = clamp(board.scrollTop + wantY, 0, board.scrollHeight - board.clientHeight);
    const movedY = top - board.scrollTop;
    if (Math.abs(left - board.scrollLeft) > 1 || Math.abs(movedY) > 1) board.scrollTo({left: left, top: top, behavior: smooth()});
    const hudBottom = hud.getBoundingClientRect().bottom;
    const band = {top: hudBottom + 8, bottom: window.innerHeight - 8};
    const rt = r.top - movedY, rb = r.bottom - movedY;
    let dy = 0;
    if (rt < band.top || rb > band.bottom) {
      dy = rb - rt <= band.bottom - band.top ? (rt + rb) / 2 - (band.top + band.bottom) / 2 : rt - band.top;
    }
    if (Math.abs(dy) > 1) window.scrollBy({top: dy, behavior: smooth()});
  }
  // what the player may click now: the legal targets and the pickers of a
  // two-click choice, as drawn (a target hidden until its pick is not one)
  function targetNodes(v) {
    const legal = new Set(v.legal.map(a => a.action));
    return [...board.querySelectorAll(".clickable[data-action], .pickable[data-pick]")]
      .filter(n => !n.hasAttribute("data-action") || legal.has(n.getAttribute("data-action")))
      .filter(n => { const r = n.getBoundingClientRect(); return r.width >= 1 && r.height >= 1; });
  }
  function bringTargets(v) {
    last = v;
    if (NARROW.matches) { focusTargets(v); return; }
    if (auto) { auto = false; setZoom(1); }   // back from the phone: the board at its width
    if (!v.legal.length || v.ply === shown) return;
    shown = v.ply;
    if (performance.now() - manualAt < MANUAL_MS) return;   // the player is looking elsewhere
    const rs = targetNodes(v).map(n => n.getBoundingClientRect());
    if (!rs.length) return;
    const s = seenRect(), all = union(rs);
    if (inside(all, s)) return;
    const roomW = s.right - s.left, roomH = Math.max(board.clientHeight, window.innerHeight - hud.getBoundingClientRect().bottom);
    if (all.right - all.left <= roomW && all.bottom - all.top <= roomH) { reveal(all); return; }
    if (rs.some(r => inside(r, s))) return;  // too many to show at once, and one is in view
    reveal(rs[0]);
  }

  // The targets a pick has just shown come on screen (when none is).
  function showPicked() {
    const rs = [...board.querySelectorAll(".clickable[data-needs]")].map(n => n.getBoundingClientRect())
      .filter(r => r.width >= 1 && r.height >= 1);
    if (!rs.length) return;
    const s = seenRect();
    if (rs.some(r => inside(r, s))) return;
    const all = union(rs);
    reveal(all.right - all.left <= s.right - s.left && all.bottom - all.top <= s.bottom - s.top ? all : rs[0]);
  }

  // -- the phone focus ---------------------------------------------------------
  // At each new decision on the phone layout (and when the window becomes
  // narrow) the frame zooms so that the 10th percentile of the targets'
  // smaller side (of each target's largest drawn shape, as a finger meets
  // it) is FOCUS_PX, at most FOCUS_MAX times, never for targets a finger
  // already hits (FINGER_PX: cards in the hand), and pans to where most of
  // them are; unless the player moved the view in the last seconds or chose
  // the whole board (⤢) for this decision. Done at once (no animation), so
  // it is in place when the drawing is.
  function tapSize(n) {
    const shapes = [...n.querySelectorAll("rect, circle, ellipse, path, polygon, image, use")];
    const r = (shapes.length ? shapes : [n]).map(e => e.getBoundingClientRect())
      .reduce((a, b) => (b.width * b.height > a.width * a.height ? b : a));
    return Math.min(r.width, r.height);
  }
  function focusTargets(v) {
    const key = v.ply + " " + (v.layout || "") + " " + v.legal.length;
    if (!v.legal.length || key === focused) return;
    const newDecision = !focused || focused.split(" ")[0] !== String(v.ply);
    focused = key;
    if (newDecision) wholeAt = null;
    fitTitle();
    if (wholeAt === v.ply || performance.now() - manualAt < MANUAL_MS) return;
    focusNow();
  }
  function focusNow() {
    if (!last || !svg()) return false;
    const nodes = targetNodes(last);
    const sizes = nodes.map(tapSize).filter(x => x > 0).sort((a, b) => a - b);
    if (!sizes.length) return false;
    const p10 = sizes[Math.min(sizes.length - 1, Math.floor(0.1 * sizes.length))] / zoom;
    const want = p10 >= FINGER_PX ? 1 : Math.min(FOCUS_MAX, FOCUS_PX / p10);
    auto = want > 1.001;
    setZoom(want);
    centreOn(targetNodes(last).map(n => n.getBoundingClientRect()));
    return true;
  }
  // pan (the frame, then the page) to the middle of the largest group of
  // targets that fits in the frame at once, or of the figure acting and the
  // targets around it when the drawing marks it (data-focus)
  function centreOn(rs) {
    if (!rs.length) return;
    const f = board.getBoundingClientRect(), hudBottom = hud.getBoundingClientRect().bottom;
    const w = board.clientWidth, h = Math.min(board.clientHeight, window.innerHeight - hudBottom);
    const mid = r => [(r.left + r.right) / 2, (r.top + r.bottom) / 2];
    const around = r => {
      const [x, y] = mid(r);
      return rs.filter(q => { const [qx, qy] = mid(q); return Math.abs(qx - x) <= w / 2 && Math.abs(qy - y) <= h / 2; });
    };
    // the drawing may mark the figure acting (data-focus): the targets around it
    const figure = board.querySelector(".svg-holder [data-focus]");
    const fr = figure && figure.getBoundingClientRect();
    let group = fr && fr.width >= 1 ? [fr].concat(around(fr)) : null;
    if (!group) {
      group = [rs[0]];
      rs.forEach(r => { const near = around(r); if (near.length > group.length) group = near; });
    }
    const [x, y] = mid(union(group));
    const left = clamp(board.scrollLeft + x - (f.left + board.clientLeft + w / 2), 0, board.scrollWidth - board.clientWidth);
    const top = clamp(board.scrollTop + y - (f.top + board.clientTop + board.clientHeight / 2), 0,
                      board.scrollHeight - board.clientHeight);
    const movedY = top - board.scrollTop;
    board.scrollLeft = left;
    board.scrollTop = top;
    if (STACKED.matches) {  // the page scrolls under the bar: the point to the middle of what is below it
      const dy = y - movedY - (hudBottom + window.innerHeight) / 2;
      if (Math.abs(dy) > 1) window.scrollBy(0, dy);
    }
    markEdges();
  }
  // the whole-board button says what it does next
  function fitTitle() {
    const b = document.querySelector("[data-zoom=fit]");
    if (!b) return;
    const t = NARROW.matches && last && wholeAt === last.ply ? T.zoom_focus : T.zoom_fit;
    if (t) { b.title = t; b.setAttribute("aria-label", t); }
  }
  function onResize() {
    fitHeights(); applyZoom(); markEdges();
    const narrow = NARROW.matches;
    if (narrow !== wasNarrow) {
      wasNarrow = narrow;
      focused = null;
      if (last) bringTargets(last);   // the phone focus, or the width back from it
    } else if (narrow && auto && last && performance.now() - manualAt >= MANUAL_MS) {
      focusNow();                      // the window changed size: the same focus for it
    }
  }

  // -- more to see: a shade on the frame's edges where the board goes on
  function markEdges() {
    const frame = board.parentElement;
    const more = (a, b) => a > b + 2;
    frame.classList.toggle("more-below", more(board.scrollHeight - board.clientHeight, board.scrollTop));
    frame.classList.toggle("more-above", board.scrollTop > 2);
    frame.classList.toggle("more-right", more(board.scrollWidth - board.clientWidth, board.scrollLeft));
    frame.classList.toggle("more-left", board.scrollLeft > 2);
  }

  // -- around each drawing ------------------------------------------------------
  // A new drawing replaces the board: the view the player chose (zoom, pan)
  // is kept across it.
  function keep() { return {left: board.scrollLeft, top: board.scrollTop}; }
  function restore(kept) {
    const drawn = !!svg();  // the generic view (a game with no drawing) has nothing to zoom
    document.querySelectorAll("[data-zoom]").forEach(b => { b.hidden = !drawn; });
    applyZoom();
    board.scrollLeft = kept.left;
    board.scrollTop = kept.top;
    fitHeights();
    markEdges();
  }

  function setup() {
    document.querySelectorAll("[data-zoom]").forEach(b => b.addEventListener("click", () => zoomStep(b.dataset.zoom)));
    board.addEventListener("pointerdown", onPointerDown);
    window.addEventListener("pointermove", onPointerMove);
    window.addEventListener("pointerup", onPointerUp);
    window.addEventListener("pointercancel", onPointerUp);
    board.addEventListener("click", onClickCapture, true);
    board.addEventListener("wheel", onWheel, {passive: false});
    board.addEventListener("touchstart", onTouchStart, {passive: true});
    board.addEventListener("touchmove", onTouchMove, {passive: false});
    board.addEventListener("keydown", onKey);
    board.addEventListener("scroll", markEdges, {passive: true});
    // the player scrolling the page is looking somewhere too
    window.addEventListener("wheel", manual, {passive: true});
    window.addEventListener("touchmove", manual, {passive: true});
    // (not Enter or Space: they choose a target, they do not move the view)
    window.addEventListener("keydown", ev => { if (/^(Arrow|Page|Home|End)/.test(ev.key)) manual(); });
    if (window.ResizeObserver) new ResizeObserver(fitHeights).observe(hud);
    window.addEventListener("resize", onResize);
    fitHeights();
  }

  return {setup: setup, keep: keep, restore: restore, bringTargets: bringTargets, showPicked: showPicked,
          fitHeights: () => { fitHeights(); markEdges(); },
          zoom: () => zoom};
})();
