"""Details on demand at the table, in a real headless Chromium: the tip that
says what a drawn thing is (its <title>, although the drawing lets pointer
events through), foldable parts of a drawing (Svg.fold), and the action bar
that folds the choices the board shows behind one button."""
from __future__ import annotations

import httpx
import pytest

from .test_browser import browser, server  # noqa: F401  (the same server and browser fixtures)
from .test_browser_gestures import MY_TURN, SETTLE, _to_hideouts

pytestmark = pytest.mark.e2e

# the middle of a drawn thing with a title that no target covers (window coordinates)
SPOT = r"""() => {
  const svg = document.querySelector('#board svg');
  for (const t of svg.querySelectorAll('title')) {
    const n = t.parentNode;
    if (n === svg || n.closest('.clickable, .pickable, .fold-head')) continue;
    const r = n.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (r.width < 8 || r.height < 8 || x < 0 || y < 0 || x > innerWidth || y > innerHeight) continue;
    const hit = document.elementFromPoint(x, y);
    if (!hit || !svg.contains(hit) || hit.closest('.clickable, .pickable, .fold-head')) continue;
    const inner = Tips.thingAt(document.getElementById('board'), x, y);
    return {x, y, text: inner.querySelector(':scope > title').textContent.trim()};
  }
  return null;
}"""
TIP = """() => { const t = document.getElementById('board-tip');
  if (!t || t.hidden) return null;
  const r = t.getBoundingClientRect();
  return {text: t.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom,
          font: parseFloat(getComputedStyle(t).fontSize), inSvg: !!t.closest('svg'),
          events: getComputedStyle(t).pointerEvents}; }"""


def _table(server: str, game: str) -> dict:  # noqa: F811
    r = httpx.post(server + "/api/tables", json={
        "game": game, "players": 3, "options": {}, "lang": "en",
        "seats": [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "greedy"}] * 2})
    assert r.status_code == 201, r.text
    return r.json()


def test_a_hover_or_a_tap_says_what_a_drawn_thing_is(server, browser):  # noqa: F811
    t = _table(server, "age-of-thieves")
    page = browser.new_page(viewport={"width": 1280, "height": 900}, bypass_csp=True, reduced_motion="reduce")
    page.goto(server + t["urls"]["0"] + "?lang=en")
    page.wait_for_function(MY_TURN, timeout=20000)
    page.evaluate(SETTLE)
    spot = page.evaluate(SPOT)
    assert spot, "no titled thing outside the targets"
    page.mouse.move(spot["x"], spot["y"])
    page.wait_for_function("() => !document.getElementById('board-tip').hidden", timeout=3000)
    tip = page.evaluate(TIP)
    assert tip["text"] == spot["text"] and tip["font"] >= 13 and not tip["inSvg"] and tip["events"] == "none"
    # a target under the mouse keeps its own (native) title: no tip over it
    target = page.locator("#board .clickable[data-action]").first.bounding_box()
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2)
    page.wait_for_function("() => document.getElementById('board-tip').hidden", timeout=3000)
    page.close()
    # a phone with a finger: a tap on the same kind of spot, inside the window, gone after ~3 s
    page = browser.new_page(viewport={"width": 420, "height": 900}, bypass_csp=True, reduced_motion="reduce",
                            has_touch=True, is_mobile=True)
    page.goto(server + t["urls"]["0"] + "?lang=en")
    page.wait_for_function(MY_TURN, timeout=20000)
    page.evaluate(SETTLE)
    ply = page.evaluate("document.body.dataset.ply")
    spot = page.evaluate(SPOT)
    assert spot
    page.touchscreen.tap(spot["x"], spot["y"])
    page.wait_for_function("() => !document.getElementById('board-tip').hidden", timeout=3000)
    tip = page.evaluate(TIP)
    assert tip["text"] == spot["text"] and tip["left"] >= 0 and tip["right"] <= 420 and tip["font"] >= 13
    assert page.evaluate("document.body.dataset.ply") == ply   # a tap on a non-target chooses nothing
    page.wait_for_function("() => document.getElementById('board-tip').hidden", timeout=5000)
    page.close()


FOLD = """() => { const f = document.querySelector('#board g.fold[data-fold=legend]');
  const svg = document.querySelector('#board svg');
  return f && {folded: f.classList.contains('folded'),
               shown: getComputedStyle(f.querySelector('.fold-body')).display !== 'none',
               expanded: f.querySelector('.fold-head').getAttribute('aria-expanded'),
               height: svg.viewBox.baseVal.height}; }"""


def test_a_legend_folds_stays_folded_and_starts_folded_on_a_phone(server, browser):  # noqa: F811
    t = _table(server, "age-of-thieves")
    page = browser.new_page(viewport={"width": 1280, "height": 900}, bypass_csp=True, reduced_motion="reduce")
    page.goto(server + t["urls"]["0"] + "?lang=en")
    page.wait_for_function(MY_TURN, timeout=20000)
    page.evaluate(SETTLE)
    before = page.evaluate(FOLD)
    assert before and not before["folded"] and before["shown"] and before["expanded"] == "true"
    page.click("#board g.fold[data-fold=legend] .fold-head")
    after = page.evaluate(FOLD)
    assert after["folded"] and not after["shown"] and after["expanded"] == "false"
    assert after["height"] < before["height"] - 100          # no blank where it was
    assert page.evaluate("localStorage.getItem('thieves.fold.age-of-thieves.legend')") == "1"
    page.reload()                                            # a new drawing: still folded
    page.wait_for_function(MY_TURN, timeout=20000)
    assert page.evaluate(FOLD)["folded"]
    page.focus("#board g.fold[data-fold=legend] .fold-head")  # the keyboard opens it again
    page.keyboard.press("Enter")
    assert page.evaluate(FOLD)["shown"]
    page.close()
    phone = browser.new_page(viewport={"width": 420, "height": 900}, bypass_csp=True, reduced_motion="reduce")
    phone.goto(server + t["urls"]["0"] + "?lang=en")
    phone.wait_for_function(MY_TURN + " && document.body.dataset.layout === 'narrow'", timeout=20000)
    folded = phone.evaluate(FOLD)
    assert folded["folded"] and not folded["shown"]          # long on a phone: folded until asked
    phone.close()


VISIBLE = "() => [...document.querySelectorAll('#actionbar button.act')].filter(b => b.offsetParent).length"


def test_choices_the_board_shows_fold_behind_one_button(server, browser):  # noqa: F811
    t = _to_hideouts(server)
    legal = [a["action"] for a in httpx.get(f"{server}/api/tables/{t['id']}/view",
                                            params={"token": t["tokens"]["0"]}).json()["legal"]]
    assert len(legal) > 6
    page = browser.new_page(viewport={"width": 1280, "height": 900}, bypass_csp=True, reduced_motion="reduce")
    page.goto(server + t["urls"]["0"] + "?lang=en")
    page.wait_for_function(MY_TURN, timeout=20000)
    # every choice is still a button in the bar; few are shown
    assert page.locator("#actionbar button.act").count() == len(legal)
    assert page.evaluate(VISIBLE) <= 6
    toggle = page.locator("#actionbar .more-toggle")
    assert toggle.get_attribute("aria-expanded") == "false"
    assert toggle.inner_text() == f"▸ All choices ({len(legal)})"
    toggle.focus()
    page.keyboard.press("Enter")
    assert toggle.get_attribute("aria-expanded") == "true" and page.evaluate(VISIBLE) == len(legal)
    ply = page.evaluate("document.body.dataset.ply")
    page.click(f"#actionbar button.act[data-action='{legal[0]}']")
    page.wait_for_function("old => document.body.dataset.ply !== old", arg=ply, timeout=10000)
    page.close()


def test_what_follows_a_folded_legend_comes_up_under_its_header(server, browser):  # noqa: F811
    """Cadwallon's legend sits between the district and the gangs: folded, what
    was below it comes up (no blank where it was) and the drawing is shorter."""
    t = _table(server, "cadwallon")
    page = browser.new_page(viewport={"width": 1280, "height": 900}, bypass_csp=True, reduced_motion="reduce")
    page.goto(server + t["urls"]["0"] + "?lang=en")
    page.wait_for_function(MY_TURN, timeout=20000)
    page.evaluate(SETTLE)
    below = """() => { const h = document.querySelector('#board g.fold[data-fold=legend] .fold-head').getBoundingClientRect();
      const f = document.querySelector('#board g.fold[data-fold=legend]');
      let n = f.nextElementSibling; while (n && !n.getBoundingClientRect().height) n = n.nextElementSibling;
      return {gap: n.getBoundingClientRect().top - h.bottom, height: document.querySelector('#board svg').viewBox.baseVal.height}; }"""
    before = page.evaluate(below)
    page.click("#board g.fold[data-fold=legend] .fold-head")
    after = page.evaluate(below)
    assert before["gap"] > 40 and after["gap"] < 20, (before, after)
    assert after["height"] < before["height"] - 40
    page.click("#board g.fold[data-fold=legend] .fold-head")   # open again: all back in place
    again = page.evaluate(below)
    assert abs(again["gap"] - before["gap"]) < 0.5 and again["height"] == before["height"], (again, before)
    page.close()
