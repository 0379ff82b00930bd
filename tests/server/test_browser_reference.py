"""End to end in headless Chromium: the lobby keeps what you typed while its
lists update, "Play now" lands on a seat, and the rules dialog's glossary
opens from a term in the log (table standard, parts 21 and 22)."""
from __future__ import annotations

import httpx
import pytest

from .test_browser import browser, server  # noqa: F401  (module fixtures: one server, one Chromium)

pytestmark = pytest.mark.e2e


def _page(browser, width=1280):  # noqa: F811
    # bypass_csp: our own CSP forbids eval, which Playwright needs for wait_for_function
    page = browser.new_page(viewport={"width": width, "height": 900}, bypass_csp=True)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page, errors


def test_the_lobby_form_keeps_typed_values_across_a_live_update(server, browser):  # noqa: F811
    open_table = httpx.post(server + "/api/tables", json={
        "game": "toy-bids", "players": 2, "seats": [{"kind": "human"}, {"kind": "open"}]}).json()
    page, errors = _page(browser)
    page.goto(server + "/?lang=en")
    page.evaluate("window.notReloaded = true")
    form = page.locator('form[data-game="cadwallon"]')
    form.locator('input[name="name"]').fill("Zoé")
    form.locator('select[name="players"]').select_option("3")
    form.locator("details.more-options summary").click()
    form.locator('select[name="opt_fines_room"]').select_option("guard_room")
    join = page.locator(f'form[action="/t/{open_table["id"]}/join/1"] input[name="name"]')
    join.fill("Bea")
    form.locator('input[name="name"]').focus()
    # another table opens and the first one fills up: the lists change under the form
    new = httpx.post(server + "/api/tables", json={
        "game": "toy-bids", "players": 3, "seats": [{"kind": "human"}, {"kind": "open"}, {"kind": "open"}]}).json()
    page.evaluate("window.refreshLobbyLists()")
    page.wait_for_selector(f'form[action="/t/{new["id"]}/join/2"]', timeout=10000)
    assert page.evaluate("window.notReloaded") is True  # patched in place, never reloaded
    assert form.locator('input[name="name"]').input_value() == "Zoé"
    assert form.locator('select[name="players"]').input_value() == "3"
    assert form.locator('select[name="opt_fines_room"]').input_value() == "guard_room"
    assert form.locator("details.more-options").get_attribute("open") is not None
    assert join.input_value() == "Bea"  # a row that did not change is not touched
    assert page.evaluate("document.activeElement.name") == "name"
    assert not errors, errors


def test_play_now_lands_on_a_seat_in_one_click(server, browser):  # noqa: F811
    page, errors = _page(browser, 420)
    page.goto(server + "/?lang=fr")
    page.locator('article[data-slug="thieves-den"] form[data-game] input[name="name"]').fill("Ann")
    page.locator('form[data-quick="thieves-den"] button').click()
    page.wait_for_url("**/s/**")
    page.wait_for_selector("body[data-ply]")
    assert "Ann" in page.inner_text("#players") and page.locator("#players .player.me").count() == 1
    assert "Robot" in page.inner_text("#players")
    kept = page.evaluate("JSON.parse(localStorage.getItem('thieves.seats'))")
    assert any(page.url.endswith(x["url"]) for x in kept)  # the seat link is kept in this browser
    assert not errors, errors


def test_a_log_term_opens_its_glossary_entry(server, browser):  # noqa: F811
    made = httpx.post(server + "/api/tables", json={
        "game": "thiefs-market", "players": 3, "lang": "en",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]}).json()
    page, errors = _page(browser)
    page.goto(server + made["urls"]["0"] + "?lang=en")
    page.wait_for_selector("body[data-ply]")
    # the rules first: headings and the round's steps as a list
    page.click("#rules-btn")
    assert page.locator("#rules").evaluate("d => d.open")
    assert page.locator("#rules .rules-body h4").count() >= 3 and page.locator("#rules .rules-body ol li").count() == 3
    page.keyboard.press("Escape")
    term = page.locator("#log button.term").first
    term.wait_for(timeout=10000)
    word = term.inner_text()
    term.click()
    picked = page.locator("#rules .gl-entry.picked")
    picked.wait_for(timeout=5000)
    assert page.locator('.ref-tab[data-tab="glossary"]').get_attribute("aria-selected") == "true"
    assert picked.locator(".gl-name").inner_text().lower() == word.lower()
    assert picked.is_visible()
    # a card of the board opens its entry on a right click (a long press on a phone)
    card = page.locator('#board [data-ref^="A"]').first
    ref = card.get_attribute("data-ref")
    page.keyboard.press("Escape")
    card.dispatch_event("contextmenu")
    page.wait_for_function("id => document.querySelector('#rules .gl-entry.picked').dataset.id === id", arg=ref)
    # the search finds a card by a word of its effect
    page.fill("#rules .gl-search", "infamy")
    shown = page.locator("#rules .gl-entry:not([hidden])")
    assert 0 < shown.count() < page.locator("#rules .gl-entry").count()
    assert all("infamy" in shown.nth(i).inner_text().lower() for i in range(shown.count()))
    assert not errors, errors
