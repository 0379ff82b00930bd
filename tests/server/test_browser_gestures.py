"""The table page in a real headless Chromium: the phone focus (targets a
finger can hit at 420 px, the whole board one tap away), two-click choices
and gestures (docs/engine.md "Gestures")."""
from __future__ import annotations

import json
import time

import httpx
import pytest

from .test_browser import browser, server  # noqa: F401  (the same server and browser fixtures)

pytestmark = pytest.mark.e2e

MY_TURN = "document.querySelectorAll('#actionbar button.act').length > 0 && !document.body.classList.contains('busy')"
SETTLE = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
# the smaller side of each legal target's largest drawn shape, in CSS px (as a finger meets it)
TAPS = r"""() => {
  const legal = new Set([...document.querySelectorAll('#actionbar button.act')].map(b => b.dataset.action));
  const out = [];
  document.querySelectorAll('#board .clickable[data-action]').forEach(n => {
    if (!legal.has(n.getAttribute('data-action'))) return;
    const shapes = [...n.querySelectorAll('rect, circle, ellipse, path, polygon, image, use')];
    const r = (shapes.length ? shapes : [n]).map(e => e.getBoundingClientRect())
              .reduce((a, b) => (b.width * b.height > a.width * a.height ? b : a));
    if (r.width >= 1 && r.height >= 1) out.push(Math.min(r.width, r.height));
  });
  out.sort((a, b) => a - b);
  return out;
}"""
WHOLE = """() => { const r = document.querySelector('#board svg').getBoundingClientRect();
  return r.width <= innerWidth + 1 && r.height <= innerHeight + 1; }"""


def _p10(xs: list[float]) -> float:
    return xs[min(len(xs) - 1, int(0.1 * len(xs)))]


def _to_hideouts(server: str) -> dict:
    """A Thiefdom table (you and two bots) played over HTTP up to your choice
    of a hideout: small houses all over the map."""
    r = httpx.post(server + "/api/tables", json={
        "game": "thiefdom", "players": 3, "options": {}, "lang": "en",
        "seats": [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "greedy"}] * 2})
    assert r.status_code == 201, r.text
    t = r.json()
    tok = t["tokens"]["0"]
    deadline = time.time() + 20
    while time.time() < deadline:
        v = httpx.get(f"{server}/api/tables/{t['id']}/view", params={"token": tok}).json()
        acts = [a["action"] for a in v["legal"]]
        if any(a.startswith("hideout ") for a in acts):
            return t
        if acts:  # the draft and the purchases: the last choice (done when there is one)
            httpx.post(f"{server}/api/tables/{t['id']}/actions", json={"token": tok, "action": acts[-1]})
        else:
            time.sleep(0.05)
    raise AssertionError("no hideout choice came")


def test_at_420_px_the_targets_are_a_fingers_size_and_the_whole_board_is_one_tap_away(server, browser):  # noqa: F811
    t = _to_hideouts(server)
    page = browser.new_page(viewport={"width": 1280, "height": 900}, bypass_csp=True, reduced_motion="reduce")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + t["urls"]["0"] + "?lang=en")
    page.wait_for_function(MY_TURN, timeout=20000)
    page.evaluate(SETTLE)
    assert page.evaluate("FRAME.zoom()") == 1
    # the window becomes a phone's: two frames later the map's houses (drawn
    # for a desktop, squeezed to a third) are zoomed to a finger's size...
    page.set_viewport_size({"width": 420, "height": 900})
    page.evaluate(SETTLE)
    assert page.evaluate("FRAME.zoom()") > 1 and _p10(page.evaluate(TAPS)) >= 24
    # ...and on the phone's own drawing too
    page.wait_for_function("document.body.dataset.layout === 'narrow'")
    page.evaluate(SETTLE)
    taps = page.evaluate(TAPS)
    assert _p10(taps) >= 24, taps[:5]
    assert page.evaluate("FRAME.zoom()") <= 4
    # ⤢: the whole board; again: back where you act
    page.click('[data-zoom="fit"]')
    assert page.evaluate(WHOLE)
    assert page.get_attribute('[data-zoom="fit"]', "title") == "Where you act"
    page.click('[data-zoom="fit"]')
    assert not page.evaluate(WHOLE) and _p10(page.evaluate(TAPS)) >= 24
    assert not errors, errors
    page.close()


def test_a_tap_on_the_phone_can_be_taken_back(server, browser):  # noqa: F811
    """Cadwallon at 420 px with a finger: the deployment zones are big enough
    as drawn (no zoom), and after placing a thief Undo is offered."""
    r = httpx.post(server + "/api/tables", json={
        "game": "cadwallon", "players": 3, "options": {}, "lang": "en",
        "seats": [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "greedy"}] * 2})
    page = browser.new_page(viewport={"width": 420, "height": 900}, bypass_csp=True, reduced_motion="reduce",
                            has_touch=True, is_mobile=True)
    page.goto(server + r.json()["urls"]["0"] + "?lang=en")
    for prefix in ("gang ", "deploy "):
        page.wait_for_function(MY_TURN, timeout=20000)
        ply = page.evaluate("document.body.dataset.ply")
        page.locator(f"#board .clickable[data-action^='{prefix}']").first.tap()
        page.wait_for_function("old => document.body.dataset.ply !== old", arg=ply)
    page.wait_for_function(MY_TURN, timeout=20000)
    page.evaluate(SETTLE)
    assert _p10(page.evaluate(TAPS)) >= 24 and page.evaluate("FRAME.zoom()") == 1
    assert page.locator("#actionbar .undo").is_visible()
    page.close()


def test_cards_in_the_hand_cause_no_zoom(server, browser):  # noqa: F811
    r = httpx.post(server + "/api/tables", json={
        "game": "thiefdom", "players": 3, "options": {}, "lang": "en",
        "seats": [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "greedy"}] * 2})
    page = browser.new_page(viewport={"width": 420, "height": 900}, bypass_csp=True, reduced_motion="reduce")
    page.goto(server + r.json()["urls"]["0"] + "?lang=en")
    page.wait_for_function(MY_TURN, timeout=20000)  # the draft: big cards
    page.evaluate(SETTLE)
    assert page.evaluate("FRAME.zoom()") == 1 and _p10(page.evaluate(TAPS)) >= 24
    page.close()


def test_a_two_click_choice_and_a_route(server, browser):  # noqa: F811
    """The drawn toy game's later rounds (tests/server/svg_game): bid 2 needs its
    picker, bid 1 is a route that goes on with bid 2, bid 3 asks first."""
    r = httpx.post(server + "/api/tables", json={"game": "toy-svg", "players": 2, "options": {"rounds": 4},
                                                  "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
    page = browser.new_page(viewport={"width": 1280, "height": 900}, bypass_csp=True, reduced_motion="reduce",
                            has_touch=True)
    sent: list[dict] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(json.loads(f))))
    page.goto(server + r.json()["urls"]["0"] + "?lang=en")
    page.wait_for_selector('.board .clickable[data-action="bid 3"]')
    page.click('.board [data-action="bid 3"]')  # the first round is drawn plainly
    page.wait_for_selector(".board .pickable")
    picker, two = page.locator(".board .pickable"), page.locator('.board [data-action="bid 2"]')
    assert picker.get_attribute("aria-pressed") == "false" and not two.is_visible()
    picker.click()
    assert picker.get_attribute("aria-pressed") == "true" and two.is_visible()
    page.keyboard.press("Escape")
    assert picker.get_attribute("aria-pressed") == "false" and not two.is_visible()
    picker.focus()
    page.keyboard.press("Enter")
    assert two.is_visible()
    # a question first: asked in the bar, and Cancel sends nothing
    asked = len(sent)
    page.click('.board [data-action="bid 3"]')
    assert page.is_visible("#confirmbar") and "sure" in page.inner_text("#confirmbar .confirm-text").lower()
    page.click("#confirm-no")
    page.wait_for_timeout(200)
    assert not page.is_visible("#confirmbar") and not any(m.get("type") == "action" for m in sent[asked:])
    # a route: its preview on hover, gone on leave; a click sends it with its further step
    page.hover('.board [data-action="bid 1"] circle')
    assert page.locator("#board svg polyline.route-preview").count() == 1
    page.mouse.move(5, 5)
    assert page.locator("#board svg polyline.route-preview").count() == 0
    page.click('.board [data-action="bid 1"] circle')
    # the bot had bid already: bid 1 ended round 2, and the table took bid 2 in round 3
    page.wait_for_function("document.querySelector('#board svg text').textContent.endsWith(' 4')")
    assert [m.get("then") for m in sent if m.get("action") == "bid 1"] == [["bid 2"]]
    # with a finger: the first tap shows the route and asks; "only the first step" sends it alone
    page.wait_for_function(MY_TURN)
    page.tap('.board [data-action="bid 1"] circle')
    assert page.is_visible("#confirm-first") and page.locator("#board svg polyline.route-preview").count() == 1
    assert not any(m.get("type") == "action" for m in sent[asked:] if m.get("then") is None)
    page.tap("#confirm-first")
    page.wait_for_function("document.body.dataset.terminal === '1'")
    assert [m.get("then") for m in sent if m.get("action") == "bid 1"] == [["bid 2"], None]
    page.close()
