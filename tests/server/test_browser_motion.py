"""Things move (static/motion.js), in a real headless Chromium: another
seat's move slides on the board, moves come one after another at a pace a
person can follow, and reduced motion turns all of it off."""
from __future__ import annotations

import time

import httpx
import pytest

from .test_browser import browser, server  # noqa: F401  (the module's fixtures)

pytestmark = pytest.mark.e2e

# running animations that move something inside the board (as the table
# standard's check counts them: translate/transform keyframes, finite)
MOVING_JS = """() => document.getAnimations().filter(a => {
  const t = a.effect && a.effect.target, b = document.getElementById('board');
  if (!t || !b.contains(t) || a.playState !== 'running') return false;
  return a.effect.getKeyframes().some(k => 'translate' in k || 'transform' in k);
}).length"""
ANY_JS = """() => document.getAnimations().filter(a => {
  const t = a.effect && a.effect.target;
  return t && document.getElementById('board').contains(t) && a.playState === 'running';
}).length"""
# every board put in place, in order, with the time it was drawn
WATCH_JS = """() => { window.__plies = [];
  new MutationObserver(() => window.__plies.push([document.body.dataset.ply, performance.now()]))
    .observe(document.body, {attributes: true, attributeFilter: ['data-ply']}); }"""


def _table(server: str) -> dict:
    made = httpx.post(server + "/api/tables", json={"game": "thiefs-market", "players": 3,
                                                   "seats": [{"kind": "human"}] * 3}).json()
    return made


def _move_a_die(server: str, made: dict) -> int:
    """The seat to act takes a die from the centre (by the API); returns the new ply."""
    for token in made["tokens"].values():
        v = httpx.get(f"{server}/api/tables/{made['id']}/view", params={"token": token}).json()
        takes = [a["action"] for a in v["legal"] if a["action"].startswith("take ") and a["action"] != "take T"]
        if takes:
            r = httpx.post(f"{server}/api/tables/{made['id']}/actions",
                           json={"token": token, "action": takes[0], "ply": v["ply"]})
            assert r.status_code == 200, r.text
            return int(r.json()["ply"])
    raise AssertionError("nobody may take a die")


def _open(browser, server: str, made: dict, **context):  # noqa: F811
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True, **context)
    page = ctx.new_page()
    page.goto(server + made["watch"] + "?lang=en")   # a spectator: every move is another's
    page.wait_for_selector("body[data-ply] #board svg [data-pid]")
    return ctx, page


def _wait_ply(page, ply: int) -> None:
    page.wait_for_function("p => Number(document.body.dataset.ply) >= p", arg=ply, timeout=15000)


def _seen(page, js: str, seconds: float = 0.8) -> int:
    most, end = 0, time.time() + seconds
    while time.time() < end:
        most = max(most, page.evaluate(js))
        time.sleep(0.03)
    return most


def test_a_move_slides_on_the_board(server, browser):  # noqa: F811
    made = _table(server)
    ctx, page = _open(browser, server, made)
    try:
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        ply = _move_a_die(server, made)
        _wait_ply(page, ply)
        assert _seen(page, MOVING_JS) > 0, "the die taken from the centre did not slide"
        assert page.evaluate("Motion.stats.slides") > 0
        # two moves at once are played one after another, at a pace a person can follow
        page.evaluate(WATCH_JS)
        first = _move_a_die(server, made)
        second = _move_a_die(server, made)
        _wait_ply(page, second)
        plies = page.evaluate("window.__plies")
        drawn = [int(p) for p, _ in plies]
        assert drawn == [first, second], drawn
        assert plies[1][1] - plies[0][1] >= 300, "the second move came before the first was seen"
        assert not errors
    finally:
        ctx.close()


def test_reduced_motion_moves_nothing(server, browser):  # noqa: F811
    made = _table(server)
    ctx, page = _open(browser, server, made, reduced_motion="reduce")
    try:
        assert page.locator("#motion-opt input").is_disabled()
        ply = _move_a_die(server, made)
        _wait_ply(page, ply)
        assert _seen(page, ANY_JS) == 0
        assert page.evaluate("Motion.stats.slides + Motion.stats.enters + Motion.stats.leaves") == 0
    finally:
        ctx.close()


def test_the_motion_box_turns_motion_off(server, browser):  # noqa: F811
    made = _table(server)
    ctx, page = _open(browser, server, made)
    try:
        page.locator("#motion-opt input").uncheck()
        assert page.evaluate("localStorage.getItem('thieves.motion')") == "0"
        ply = _move_a_die(server, made)
        _wait_ply(page, ply)
        assert _seen(page, MOVING_JS) == 0
    finally:
        ctx.close()
