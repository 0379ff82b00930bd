"""The table chat in a real headless Chromium: a seat and a spectator talk,
markup shows as text, muting, the unread count of a folded chat on a phone,
and the replay showing each message at its move."""
from __future__ import annotations

import os
from pathlib import Path

import httpx
import pytest

from .test_browser import browser, server  # noqa: F401  (module fixtures: one server, one Chromium)

pytestmark = pytest.mark.e2e
SHOTS = Path(os.environ.get("THIEVES_SHOTS", "/tmp"))


def _table(server: str) -> dict:
    r = httpx.post(server + "/api/tables", json={
        "game": "toy-bids", "players": 2, "options": {"rounds": 1}, "lang": "en",
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bea"}]})
    assert r.status_code == 201, r.text
    return r.json()


def _page(browser, url: str, width: int = 1280, height: int = 900):
    # bypass_csp: our own CSP forbids eval, which Playwright needs for wait_for_function
    page = browser.new_page(viewport={"width": width, "height": height}, bypass_csp=True)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector("body[data-ply]")
    return page, errors


def _send(page, text: str) -> None:
    page.fill("#chat-text", text)
    page.press("#chat-text", "Enter")  # enter sends
    page.wait_for_function("document.getElementById('chat-text').value === ''", timeout=10000)


def _texts(page) -> list[str]:
    return page.eval_on_selector_all("#chat-log .chat-text", "els => els.map(e => e.textContent)")


def test_a_seat_and_a_spectator_chat_and_markup_stays_text(server, browser):
    t = _table(server)
    seat, seat_errors = _page(browser, server + t["urls"]["0"] + "?lang=en")
    watcher, watch_errors = _page(browser, server + t["watch"] + "?lang=en")
    assert watcher.locator("#chat-name").is_visible() and seat.locator("#chat-name").count() == 0
    _send(seat, "hello from Ann")
    watcher.wait_for_function("document.querySelectorAll('#chat-log .chat-msg').length === 1")
    assert _texts(watcher) == ["hello from Ann"]
    assert "Ann" in watcher.inner_text("#chat-log")
    assert watcher.inner_text("#chat-announce").endswith("hello from Ann")  # said to screen readers
    # the spectator, named, writes markup: it arrives as text, nothing runs or loads
    watcher.fill("#chat-name", "Zoe")
    watcher.dispatch_event("#chat-name", "change")
    _send(watcher, "<b>x</b>")
    _send(watcher, '<img src=x onerror="window.pwned=1">')
    seat.wait_for_function("document.querySelectorAll('#chat-log .chat-msg').length === 3")
    assert _texts(seat) == ["hello from Ann", "<b>x</b>", '<img src=x onerror="window.pwned=1">']
    assert seat.locator("#chat-log b.chat-who").count() == 3 and seat.locator("#chat-log .chat-text *").count() == 0
    assert seat.locator("#chat-log img").count() == 0 and not seat.evaluate("window.pwned")
    spect = seat.locator("#chat-log .chat-msg.spectator")
    assert spect.count() == 2 and "Zoe" in spect.first.inner_text() and "spectator" in spect.first.inner_text()
    # an empty message is refused on the page, a too long one cannot be typed
    seat.fill("#chat-text", "   ")
    seat.press("#chat-text", "Enter")
    assert seat.locator("#chat-error").is_visible() and seat.input_value("#chat-text") == "   "
    assert seat.get_attribute("#chat-text", "maxlength") == "300"
    # what the screen shows
    seat.set_viewport_size({"width": 1280, "height": 900})
    seat.locator("#chat").screenshot(path=str(SHOTS / "thieves-chat-card-1280.png"))
    seat.screenshot(path=str(SHOTS / "thieves-chat-1280.png"), full_page=True)
    # a seat mutes the spectator (in this browser only)
    seat.locator("#chat-log .chat-msg.spectator .chat-mute").first.click()
    assert _texts(seat) == ["hello from Ann"]
    assert "2 message(s)" in seat.inner_text("#chat-muted")
    seat.reload()
    seat.wait_for_function("document.querySelectorAll('#chat-log .chat-msg').length === 1")
    assert "2 message(s)" in seat.inner_text("#chat-muted")  # history read again, the mute kept
    seat.click("#chat-muted .chat-unmute")
    assert len(_texts(seat)) == 3
    # the reloaded spectator page reads the history
    watcher.reload()
    watcher.wait_for_function("document.querySelectorAll('#chat-log .chat-msg').length === 3")
    assert watcher.input_value("#chat-name") == "Zoe"
    assert not seat_errors and not watch_errors, seat_errors + watch_errors
    seat.close()
    watcher.close()


def test_on_a_phone_the_folded_chat_counts_new_messages(server, browser):
    t = _table(server)
    phone, errors = _page(browser, server + t["urls"]["1"] + "?lang=fr", width=420, height=640)
    assert phone.get_attribute("#chat-fold", "aria-expanded") == "false" and phone.locator("#chat-body").is_hidden()
    for text in ("one", "two"):
        assert httpx.post(server + f"/api/tables/{t['id']}/chat",
                          json={"token": t["tokens"]["0"], "text": text}).status_code == 201
    phone.wait_for_function("document.getElementById('chat-unread').textContent === '2 nouveau(x)'")
    # the card is below the screen: a button at the corner says so and brings it
    assert phone.locator("#chat-jump").is_visible() and "2 nouveau(x)" in phone.inner_text("#chat-jump")
    phone.screenshot(path=str(SHOTS / "thieves-chat-420-unread.png"))
    phone.click("#chat-jump")
    phone.wait_for_function("!document.getElementById('chat-body').hidden")
    phone.wait_for_function("document.getElementById('chat-jump').hidden")
    assert phone.locator("#chat-unread").is_hidden() and _texts(phone) == ["one", "two"]
    assert phone.evaluate("document.activeElement.id") == "chat-text"
    _send(phone, "trois")
    phone.wait_for_function("document.querySelectorAll('#chat-log .chat-msg').length === 3")
    phone.screenshot(path=str(SHOTS / "thieves-chat-420.png"))
    # folded by hand while in view: new messages count in its title
    phone.click("#chat-fold")
    assert httpx.post(server + f"/api/tables/{t['id']}/chat",
                      json={"token": t["tokens"]["0"], "text": "quatre"}).status_code == 201
    phone.wait_for_function("document.getElementById('chat-unread').textContent === '1 nouveau(x)'")
    assert phone.locator("#chat-jump").is_hidden()  # the card is on screen
    scroll = phone.evaluate("document.documentElement.scrollWidth")
    assert scroll <= 420, scroll  # nothing scrolls sideways
    assert not errors, errors
    phone.close()


def test_the_replay_shows_each_message_at_its_move(server, browser):
    t = _table(server)
    tid, toks = t["id"], t["tokens"]

    def say(text: str, **who: str) -> None:
        assert httpx.post(server + f"/api/tables/{tid}/chat", json={"text": text, **who}).status_code == 201

    def act(tok: str, action: str) -> None:
        assert httpx.post(server + f"/api/tables/{tid}/actions", json={"token": tok, "action": action}).status_code == 200

    say("at the start", token=toks["0"])
    act(toks["0"], "bid 2")
    say("after a bid", name="Zoe")
    act(toks["1"], "bid 1")
    say("good game", token=toks["1"])
    page, errors = _page(browser, server + f"/t/{tid}/replay?lang=en")
    page.wait_for_function("document.querySelectorAll('#chat-log .chat-msg').length === 3")
    assert page.locator("#chat-form").count() == 0  # read-only
    page.click("#first")
    page.wait_for_function("document.body.dataset.ply === '0'")
    page.wait_for_function("document.querySelectorAll('#chat-log .chat-msg').length === 1")
    assert _texts(page) == ["at the start"] and page.locator("#chat-log .chat-msg.now").count() == 1
    page.click("#next")
    page.wait_for_function("document.querySelectorAll('#chat-log .chat-msg').length === 2")
    assert "move 1" in page.inner_text("#chat-log .chat-msg.now")
    page.screenshot(path=str(SHOTS / "thieves-chat-replay-1280.png"), full_page=True)
    assert not errors, errors
    page.close()
