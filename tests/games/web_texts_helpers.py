"""Helpers shared by the games' web-text tests (what the server shows in each language)."""
from __future__ import annotations

import random
import warnings

from thieves.core.registry import load_game

warnings.filterwarnings("ignore", message=".*httpx2.*")
LANGS = ("en", "fr", "de")


def raw_texts(slug):
    """The game's i18n.yaml as the server reads it (flat keys per language)."""
    from thieves.server.i18n import game_texts
    game_texts.cache_clear()
    return game_texts(slug)


def random_positions(slug, players, seeds=3, max_plies=400):
    """(state, player, observation, legal actions) along random games, and every log line."""
    g = load_game(slug)
    seen, lines = [], []
    for seed in range(seeds):
        s = g.new_game(players, seed, {})
        rng = random.Random(seed)
        for _ in range(max_plies):
            if s.is_terminal():
                break
            p = s.players_to_act()[0]
            acts = s.legal_actions(p)
            seen.append((s.phase if hasattr(s, "phase") else None, p, s.observation(p), acts))
            s.apply_action(p, rng.choice(acts))
        lines.extend(e[1] for e in s.log if type(e) is not dict)  # old text entries only
    return seen, lines


def server_view(tmp_path, slug, players, lang, names=("Alice", "Bruno", "Clara", "Dora")):
    """The view of a seat to act at a new table whose seats carry people's names."""
    from fastapi.testclient import TestClient

    from thieves.server.app import create_app
    seats = [{"kind": "human", "name": names[i]} for i in range(players)]
    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.db'}", bot_delay=0),
                    base_url="http://127.0.0.1") as c:
        r = c.post("/api/tables", json={"game": slug, "players": players, "seats": seats, "lang": lang})
        assert r.status_code == 201, r.text
        t = r.json()
        views = [c.get(f"/api/tables/{t['id']}/view", params={"token": tok, "lang": lang}).json()
                 for _seat, tok in sorted(t["tokens"].items())]
        v = next((x for x in views if x["legal"]), views[0])  # a seat that must act now
        lobby = c.get("/api/games", params={"lang": lang}).json()
    return v, next(g for g in lobby if g["slug"] == slug)


def web_option_names(slug):
    return [o.name for o in load_game(slug).all_options() if o.name != "data_dir"]
