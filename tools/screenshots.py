#!/usr/bin/env python3
"""Screenshots of a game's table for its docs page (the table standard, part 11).

    .venv/bin/python tools/screenshots.py thiefs-market [--players 3] [--decisions 12]
        [--lang en] [--out docs/screenshots] [--seed 7]

Starts ``thieves serve`` on a free loopback port with a fresh SQLite file,
creates a table (you in seat 0, greedy bots elsewhere), plays a few of your
decisions by clicking the board (else the first action button), and writes
``<slug>-1280.png`` and ``<slug>-420.png`` (the same moment at 1280 and 420
px wide), plus ``<slug>-end-1280.png`` when ``--to-end`` plays on to the end.
It needs playwright and Debian's chromium (``make test`` installs both).
"""
from __future__ import annotations

import argparse
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
MY_TURN = """() => document.body.dataset.terminal === '1' ||
  (document.body.dataset.ply !== undefined && !document.getElementById('actionbar').hidden
   && !document.body.classList.contains('busy'))"""
SETTLE = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
LAYOUT = "want => document.body.dataset.layout === want"
# the page and the board frame have stopped scrolling (the table brings the
# next targets on screen with a smooth scroll: a click during it would miss)
STILL = """() => new Promise(done => {
  let last = "", same = 0;
  const tick = () => {
    const b = document.getElementById("board");
    const now = [scrollX, scrollY, b ? b.scrollLeft : 0, b ? b.scrollTop : 0].join();
    same = now === last ? same + 1 : 0;
    last = now;
    if (same >= 3) done(); else requestAnimationFrame(tick);
  };
  tick();
})"""


def relayout(page, width: int) -> None:
    """Resize the window and wait for the board drawn for it (a phone board under 640 px)."""
    page.set_viewport_size({"width": width, "height": 900})
    try:
        page.wait_for_function(LAYOUT, arg="narrow" if width < 640 else "wide", timeout=10_000)
    except Exception:  # noqa: BLE001 - an older server draws one board for every width
        pass
    page.evaluate(SETTLE)
    page.wait_for_timeout(900)  # the table brings the targets on screen (a smooth scroll)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(db: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = dict(os.environ, THIEVES_BOT_DELAY="0", PYTHONPATH=str(ROOT / "src"))
    proc = subprocess.Popen([sys.executable, "-m", "thieves.cli.main", "serve", "--host", "127.0.0.1",
                             "--port", str(port), "--database-url", f"sqlite:///{db}"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(150):
        if proc.poll() is not None:
            raise SystemExit(f"the server stopped (exit {proc.returncode})")
        try:
            if httpx.get(base + "/api/games", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not answer within 30 s")


def one_decision(page, rng: random.Random) -> bool:
    """Click a glowing board element (else a button); False once the game is over."""
    page.wait_for_function(MY_TURN, timeout=60_000)
    if page.evaluate("document.body.dataset.terminal") == "1":
        return False
    page.evaluate(SETTLE)
    page.evaluate(STILL)
    ply = page.evaluate("document.body.dataset.ply")
    targets = page.locator("#board .clickable[data-action]").filter(visible=True)
    if targets.count():
        target = targets.nth(rng.randrange(targets.count()))
        shape = target.locator("rect, circle, ellipse, path, polygon, image")
        # on what is drawn, not on the gap between a group's parts (a click there reaches nothing)
        (shape.first if shape.count() else target).click(force=True)
    else:
        buttons = page.locator("#actionbar button.act").filter(visible=True)  # folded ones are on the board
        buttons.nth(rng.randrange(buttons.count())).click()
    if page.locator("#confirmbar").is_visible():  # a move that asks first (a costly route, a payment)
        page.click("#confirm-yes")
    page.wait_for_function("old => document.body.dataset.ply !== old || document.body.dataset.terminal === '1'",
                           arg=ply, timeout=60_000)
    return True


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--decisions", type=int, default=12)
    ap.add_argument("--lang", default="en")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--bot", default="greedy")
    ap.add_argument("--to-end", action="store_true", help="play on and shoot the end of the game")
    ap.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        proc, base = start(Path(tmp) / "shots.db")
        try:
            seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": args.bot}] * (args.players - 1)
            r = httpx.post(base + "/api/tables", json={"game": args.game, "players": args.players, "seats": seats,
                                                       "options": {}, "lang": args.lang}, timeout=30)
            r.raise_for_status()
            url = base + r.json()["urls"]["0"] + f"?lang={args.lang}"
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
                # reduced motion: a still picture, not one caught halfway through a slide
                page = browser.new_page(viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
                page.on("dialog", lambda d: d.accept())  # "End your turn with ...?"
                page.goto(url)
                for _ in range(args.decisions):
                    if not one_decision(page, rng):
                        break
                page.wait_for_function(MY_TURN, timeout=60_000)
                page.evaluate(SETTLE)
                page.wait_for_timeout(900)  # the table brings the next targets on screen (a smooth scroll)
                page.screenshot(path=str(out / f"{args.game}-1280.png"), full_page=True)
                relayout(page, 420)
                page.screenshot(path=str(out / f"{args.game}-420.png"), full_page=True)
                if args.to_end:
                    relayout(page, 1280)
                    for _ in range(5000):
                        if not one_decision(page, rng):
                            break
                    page.evaluate(SETTLE)
                    page.screenshot(path=str(out / f"{args.game}-end-1280.png"), full_page=True)
                browser.close()
        finally:
            proc.terminate()
            proc.wait(15)
    print("wrote", ", ".join(sorted(p.name for p in out.glob(f"{args.game}*.png"))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
