"""The table's layout in a real headless Chromium: the status bar that stays,
the board frame that pans and zooms, and what a waiting seat, a spectator
and a host before the start read."""
from __future__ import annotations

import httpx
import pytest

from .test_browser import browser, server  # noqa: F401  (the same server and browser fixtures)

pytestmark = pytest.mark.e2e

# the prompt and the action bar fully in the window; the target not under the bar
IN_VIEW = """sel => {
  const full = el => { const r = el.getBoundingClientRect();
    return r.width > 0 && r.top >= -1 && r.bottom <= innerHeight + 1 && r.left >= -1 && r.right <= innerWidth + 1; };
  const t = document.querySelector(sel).getBoundingClientRect();
  return {status: full(document.getElementById('status-text')), bar: full(document.getElementById('actionbar')),
          under: t.top >= document.getElementById('hud').getBoundingClientRect().bottom - 1,
          scrolled: scrollY + document.getElementById('board').scrollTop > 0};
}"""
MY_TURN = "document.querySelectorAll('#actionbar button.act').length > 0 && !document.body.classList.contains('busy')"


def _table(server, game, seats, players=3):
    r = httpx.post(server + "/api/tables", json={"game": game, "players": players, "seats": seats,
                                                  "options": {}, "lang": "en"}, timeout=30)
    assert r.status_code == 201, r.text
    return r.json()


@pytest.mark.parametrize("width", [1280, 420])
def test_the_status_bar_stays_on_screen_while_looking_at_the_lowest_target(server, browser, width):  # noqa: F811
    t = _table(server, "cadwallon", [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "greedy"}] * 2)
    page = browser.new_page(viewport={"width": width, "height": 900}, bypass_csp=True)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + t["urls"]["0"] + "?lang=en")
    page.wait_for_function(MY_TURN, timeout=20000)
    page.wait_for_selector("#board .clickable")
    # the target lowest on the board, scrolled to as a player would
    page.evaluate("""() => { const ts = [...document.querySelectorAll('#board .clickable')];
      const low = ts.reduce((a, b) => b.getBoundingClientRect().bottom > a.getBoundingClientRect().bottom ? b : a);
      low.id = 'lowest'; low.scrollIntoView({block: 'end'}); }""")
    seen = page.evaluate(IN_VIEW, "#lowest")
    assert seen["status"] and seen["bar"] and seen["under"], seen
    # and with the page scrolled to its very end
    page.evaluate("scrollTo(0, document.documentElement.scrollHeight)")
    seen = page.evaluate(IN_VIEW, "#lowest")
    assert seen["status"] and seen["bar"], seen
    assert not errors, errors
    page.close()


def test_the_board_frame_zooms_and_a_drag_is_not_a_click(server, browser):  # noqa: F811
    t = _table(server, "cadwallon", [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "greedy"}] * 2)
    # reduced motion: the frame alone is tested here, with no boards queued behind a drag
    page = browser.new_page(viewport={"width": 1280, "height": 900}, bypass_csp=True, reduced_motion="reduce")
    page.goto(server + t["urls"]["0"] + "?lang=en")
    page.wait_for_function(MY_TURN, timeout=20000)
    page.wait_for_selector("#board .clickable")
    width = "document.querySelector('#board svg').getBoundingClientRect().width"
    w0 = page.evaluate(width)
    page.click('[data-zoom="in"]')
    page.click('[data-zoom="in"]')
    assert page.evaluate(width) > w0 * 1.4  # bigger, still drawn as vectors (the SVG's own size)
    page.focus("#board")
    page.keyboard.press("-")
    assert w0 < page.evaluate(width) < w0 * 1.4
    page.keyboard.press("+")
    # a drag that starts on a target pans the frame and chooses nothing
    ply = page.evaluate("document.body.dataset.ply")
    box = page.locator("#board .clickable").first.bounding_box()
    before = page.evaluate("[document.getElementById('board').scrollLeft, document.getElementById('board').scrollTop]")
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 60, y - 40, steps=6)
    page.mouse.up()
    page.wait_for_timeout(300)
    after = page.evaluate("[document.getElementById('board').scrollLeft, document.getElementById('board').scrollTop]")
    assert after != before
    assert page.evaluate("document.body.dataset.ply") == ply and page.locator("#confirmbar").is_hidden()
    # the whole board, one press away
    page.click('[data-zoom="fit"]')
    fits = page.evaluate("""() => { const b = document.getElementById('board'), s = b.querySelector('svg').getBoundingClientRect(),
      f = b.getBoundingClientRect(); return s.height <= f.height + 1 && s.width <= f.width + 1; }""")
    assert fits
    # Ctrl + the wheel (a touchpad pinch) zooms around the pointer
    w1 = page.evaluate(width)
    # over the fitted board (the target of the drag above may now lie outside it)
    frame = page.locator("#board svg").bounding_box()
    page.mouse.move(frame["x"] + frame["width"] / 2, frame["y"] + frame["height"] / 2)
    page.keyboard.down("Control")
    page.mouse.wheel(0, -400)
    page.keyboard.up("Control")
    page.wait_for_timeout(200)
    assert page.evaluate(width) > w1 * 1.5
    page.close()


def test_a_two_finger_pinch_zooms_the_board_on_a_phone(server, browser):  # noqa: F811
    t = _table(server, "thiefs-market", [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "greedy"}] * 2)
    ctx = browser.new_context(viewport={"width": 420, "height": 900}, has_touch=True, is_mobile=True,
                              bypass_csp=True)
    page = ctx.new_page()
    page.goto(server + t["urls"]["0"] + "?lang=en")
    page.wait_for_function(MY_TURN, timeout=20000)
    width = "document.querySelector('#board svg').getBoundingClientRect().width"
    w0 = page.evaluate(width)
    assert w0 <= 420  # first shown: the board fits the phone's width
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1")
    page.evaluate("""() => { const b = document.getElementById('board'), r = b.getBoundingClientRect();
      const y = Math.max(r.top, 0) + 200, at = (id, x) => new Touch({identifier: id, target: b, clientX: x, clientY: y});
      const fire = (type, xs) => b.dispatchEvent(new TouchEvent(type, {touches: xs.map((x, i) => at(i, x)),
                                                 bubbles: true, cancelable: true}));
      fire('touchstart', [180, 240]); fire('touchmove', [150, 270]); fire('touchmove', [120, 300]);
      fire('touchend', []); }""")
    assert page.evaluate(width) > w0 * 1.5  # the fingers moved three times as far apart
    assert page.locator("#status-text").is_visible()
    ctx.close()


def test_before_the_start_no_move_is_offered_and_the_prompt_names_the_open_seat(server, browser):  # noqa: F811
    t = _table(server, "thiefs-market", [{"kind": "human", "name": "Ann"}, {"kind": "open"},
                                         {"kind": "bot", "bot": "greedy"}])
    page = browser.new_page(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    page.goto(server + t["urls"]["0"] + "?lang=en")
    page.wait_for_selector("body[data-ply]")
    page.wait_for_selector("#actionbar button.fill")  # the host may start with bots...
    assert page.locator("#actionbar button.act[data-action]").count() == 0  # ...and is offered no move
    assert page.locator("#board .clickable").count() == 0
    status = page.inner_text("#status-text")
    assert "every seat is taken" in status and "Player 2" in status
    page.close()


def test_a_spectator_and_a_waiting_seat_read_who_is_acting_once(server, browser):  # noqa: F811
    t = _table(server, "thieves-den", [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bea"},
                                       {"kind": "human", "name": "Cid"}])
    view = httpx.get(f"{server}/api/tables/{t['id']}/view").json()
    names = {0: "Ann", 1: "Bea", 2: "Cid"}
    acting = [names[p] for p in view["to_act"]]
    assert acting
    ctx = browser.new_context(viewport={"width": 420, "height": 900}, bypass_csp=True)
    watcher = ctx.new_page()
    watcher.goto(f"{server}/t/{t['id']}?lang=en")
    watcher.wait_for_selector("body[data-ply]")
    watcher.wait_for_function("document.getElementById('status-text').textContent.length > 1")
    status = watcher.inner_text("#status-text")
    assert all(status.count(n) == 1 for n in acting), status
    assert "Waiting for" not in status or status.count("Waiting for") == 1
    not_acting = next(p for p in range(3) if p not in view["to_act"]) if len(acting) < 3 else None
    if not_acting is not None:
        seat = ctx.new_page()
        seat.goto(server + t["urls"][str(not_acting)] + "?lang=en")
        seat.wait_for_function("document.getElementById('status-text').textContent.length > 1")
        text = seat.inner_text("#status-text")
        assert all(text.count(n) == 1 for n in acting), text
    ctx.close()
