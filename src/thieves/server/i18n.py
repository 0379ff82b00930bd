"""Interface texts in English, French and German, and each game's own texts.

A game's texts live in ``thieves/games/<pkg>/data/i18n.yaml``: a mapping
with the top-level keys ``en``, ``fr`` and ``de``, each a flat mapping of
key -> text (see docs/server.md for the keys the server reads).
"""
from __future__ import annotations

import functools
import importlib
import logging
from pathlib import Path
from typing import Any

from ..core.data import load_yaml
from ..core.registry import GAME_MODULES

log = logging.getLogger("thieves.server")

LANGS = ("en", "fr", "de")
LANG_NAMES = {"en": "English", "fr": "Français", "de": "Deutsch"}

UI: dict[str, dict[str, str]] = {
    "en": {
        "title": "Thieves — board games in the browser",
        "lobby": "Lobby",
        "games": "Games",
        "players": "players",
        "options": "Options",
        "new_table": "Create a table",
        "game": "Game",
        "num_players": "Number of players",
        "seat": "Seat",
        "you": "You",
        "open_human": "A person (open seat)",
        "bot": "Bot",
        "your_name": "Your name",
        "language": "Language",
        "create": "Create the table",
        "open_tables": "Open tables — join a seat",
        "your_tables": "Your tables (seat links kept in this browser)",
        "running": "Games in progress — watch",
        "finished": "Finished games — replays",
        "none": "None yet.",
        "join": "Join",
        "watch": "Watch",
        "replay": "Replay",
        "table": "Table",
        "open_seat": "open seat",
        "to_act": "to play",
        "has_chosen": "has chosen",
        "waiting": "waiting",
        "your_turn": "Your turn",
        "waiting_for": "Waiting for",
        "game_over": "Game over",
        "winners": "Winner(s)",
        "scores": "Scores",
        "score": "Score",
        "your_actions": "Your possible actions",
        "not_your_turn": "Not your turn: watch the others play.",
        "spectator": "You are watching as a spectator.",
        "you_are": "You are",
        "events": "Events",
        "board": "Board",
        "connected": "connected",
        "reconnecting": "reconnecting…",
        "download": "Download the replay file",
        "download_after": "The replay file can be downloaded once the game is over.",
        "step": "Move",
        "first": "First",
        "prev": "Previous",
        "next": "Next",
        "last": "Last",
        "view_as": "Point of view",
        "spectator_short": "Spectator",
        "back_to_table": "Back to the table",
        "back_to_lobby": "Back to the lobby",
        "seat_links": "Seat links",
        "seat_links_help": "Each link is the secret key to one seat: keep yours, send the others to your friends.",
        "invite_help": "Open seats can also be taken from the lobby.",
        "no_games": "No game is installed yet.",
        "error": "Error",
        "options_none": "no options",
        "clickable_hint": "Glowing parts of the board can be clicked.",
        "live": "live",
        "name": "Name",
        "status": "Status",
        "bot_delay": "Bots play at a watchable pace.",
        "not_found": "Unknown table or seat link (it may have expired).",
        "ply": "Decision",
        "played": "Played",
        "take_seat": "Take this seat",
        "invite_link": "To invite someone, send this table's address (never your own seat link):",
        "bot_name": "{Bot} bot {n}",
        "player_n": "Player {n}",
        "secret_choice": "a secret choice",
        "rules": "Rules",
        "nobody_wins": "Nobody wins: everyone lost.",
        "close": "Close",
        "zoom_in": "Zoom in",
        "zoom_out": "Zoom out",
    },
    "fr": {
        "title": "Thieves — jeux de plateau dans le navigateur",
        "lobby": "Salon",
        "games": "Jeux",
        "players": "joueurs",
        "options": "Options",
        "new_table": "Créer une table",
        "game": "Jeu",
        "num_players": "Nombre de joueurs",
        "seat": "Place",
        "you": "Vous",
        "open_human": "Une personne (place libre)",
        "bot": "Robot",
        "your_name": "Votre nom",
        "language": "Langue",
        "create": "Créer la table",
        "open_tables": "Tables ouvertes — prendre une place",
        "your_tables": "Vos tables (liens gardés dans ce navigateur)",
        "running": "Parties en cours — regarder",
        "finished": "Parties terminées — rejouer",
        "none": "Aucune pour l'instant.",
        "join": "Rejoindre",
        "watch": "Regarder",
        "replay": "Revoir",
        "table": "Table",
        "open_seat": "place libre",
        "to_act": "doit jouer",
        "has_chosen": "a choisi",
        "waiting": "attend",
        "your_turn": "À vous de jouer",
        "waiting_for": "On attend",
        "game_over": "Partie terminée",
        "winners": "Gagnant(s)",
        "scores": "Scores",
        "score": "Score",
        "your_actions": "Vos actions possibles",
        "not_your_turn": "Ce n'est pas votre tour : regardez les autres jouer.",
        "spectator": "Vous regardez en spectateur.",
        "you_are": "Vous êtes",
        "events": "Événements",
        "board": "Plateau",
        "connected": "connecté",
        "reconnecting": "reconnexion…",
        "download": "Télécharger le fichier de la partie",
        "download_after": "Le fichier de la partie se télécharge une fois la partie finie.",
        "step": "Coup",
        "first": "Début",
        "prev": "Précédent",
        "next": "Suivant",
        "last": "Fin",
        "view_as": "Point de vue",
        "spectator_short": "Spectateur",
        "back_to_table": "Retour à la table",
        "back_to_lobby": "Retour au salon",
        "seat_links": "Liens des places",
        "seat_links_help": "Chaque lien est la clé secrète d'une place : gardez le vôtre, envoyez les autres à vos amis.",
        "invite_help": "Les places libres peuvent aussi être prises depuis le salon.",
        "no_games": "Aucun jeu n'est encore installé.",
        "error": "Erreur",
        "options_none": "aucune option",
        "clickable_hint": "Les parties lumineuses du plateau sont cliquables.",
        "live": "en direct",
        "name": "Nom",
        "status": "État",
        "bot_delay": "Les robots jouent à un rythme qu'on peut suivre.",
        "not_found": "Table ou lien de place inconnu (il a peut-être expiré).",
        "ply": "Décision",
        "played": "Joué",
        "take_seat": "Prendre cette place",
        "invite_link": "Pour inviter quelqu'un, envoyez l'adresse de cette table (jamais le lien de votre place) :",
        "bot_name": "Robot {bot} {n}",
        "player_n": "Joueur {n}",
        "secret_choice": "un choix secret",
        "rules": "Règles",
        "nobody_wins": "Personne ne gagne : tout le monde a perdu.",
        "close": "Fermer",
        "zoom_in": "Agrandir",
        "zoom_out": "Réduire",
    },
    "de": {
        "title": "Thieves — Brettspiele im Browser",
        "lobby": "Lobby",
        "games": "Spiele",
        "players": "Spieler",
        "options": "Optionen",
        "new_table": "Tisch eröffnen",
        "game": "Spiel",
        "num_players": "Anzahl der Spieler",
        "seat": "Platz",
        "you": "Du",
        "open_human": "Ein Mensch (freier Platz)",
        "bot": "Bot",
        "your_name": "Dein Name",
        "language": "Sprache",
        "create": "Tisch eröffnen",
        "open_tables": "Offene Tische — Platz nehmen",
        "your_tables": "Deine Tische (Links in diesem Browser gespeichert)",
        "running": "Laufende Partien — zuschauen",
        "finished": "Beendete Partien — Wiederholung",
        "none": "Noch keine.",
        "join": "Beitreten",
        "watch": "Zuschauen",
        "replay": "Wiederholung",
        "table": "Tisch",
        "open_seat": "freier Platz",
        "to_act": "am Zug",
        "has_chosen": "hat gewählt",
        "waiting": "wartet",
        "your_turn": "Du bist am Zug",
        "waiting_for": "Warten auf",
        "game_over": "Partie beendet",
        "winners": "Sieger",
        "scores": "Punkte",
        "score": "Punkte",
        "your_actions": "Deine möglichen Aktionen",
        "not_your_turn": "Du bist nicht am Zug: schau den anderen zu.",
        "spectator": "Du schaust als Zuschauer zu.",
        "you_are": "Du bist",
        "events": "Ereignisse",
        "board": "Spielbrett",
        "connected": "verbunden",
        "reconnecting": "verbinde neu…",
        "download": "Partiedatei herunterladen",
        "download_after": "Die Partiedatei kann nach dem Ende der Partie heruntergeladen werden.",
        "step": "Zug",
        "first": "Anfang",
        "prev": "Zurück",
        "next": "Weiter",
        "last": "Ende",
        "view_as": "Sicht von",
        "spectator_short": "Zuschauer",
        "back_to_table": "Zurück zum Tisch",
        "back_to_lobby": "Zurück zur Lobby",
        "seat_links": "Platz-Links",
        "seat_links_help": "Jeder Link ist der geheime Schlüssel zu einem Platz: behalte deinen, schicke die anderen an deine Freunde.",
        "invite_help": "Freie Plätze können auch in der Lobby genommen werden.",
        "no_games": "Noch kein Spiel installiert.",
        "error": "Fehler",
        "options_none": "keine Optionen",
        "clickable_hint": "Leuchtende Teile des Spielbretts sind anklickbar.",
        "live": "live",
        "name": "Name",
        "status": "Status",
        "bot_delay": "Bots spielen in einem Tempo, dem man folgen kann.",
        "not_found": "Unbekannter Tisch oder Platz-Link (vielleicht abgelaufen).",
        "ply": "Entscheidung",
        "played": "Gespielt",
        "take_seat": "Diesen Platz nehmen",
        "invite_link": "Um jemanden einzuladen, schicke die Adresse dieses Tisches (nie den Link deines Platzes):",
        "bot_name": "Bot {bot} {n}",
        "player_n": "Spieler {n}",
        "secret_choice": "eine geheime Wahl",
        "rules": "Regeln",
        "nobody_wins": "Niemand gewinnt: alle haben verloren.",
        "close": "Schließen",
        "zoom_in": "Vergrößern",
        "zoom_out": "Verkleinern",
    },
}


#: error codes (docs/server.md) in words; the server's own message follows as the detail
ERRORS: dict[str, dict[str, str]] = {'en': {'malformed': 'The message could not be read.',
        'illegal': 'That move is not allowed now',
        'not_your_turn': 'It is not your turn.',
        'not_a_player': 'Spectators cannot play: open your seat link to play.',
        'bad_token': 'This seat link is not valid (unknown or expired).',
        'unknown_table': 'There is no such table.',
        'game_over': 'The game is over.',
        'seat_taken': 'This seat is already taken.',
        'bad_seat': 'There is no such seat.',
        'bad_ply': 'There is no such move.',
        'forbidden_view': "A player's point of view is shown only to that player until the game is over.",
        'not_finished': 'The replay file can be downloaded once the game is over.',
        'unknown_game': 'There is no such game.',
        'bad_setup': 'These settings are not allowed',
        'bad_request': 'The request is not valid',
        'storage': 'The move could not be saved; nothing changed. Try again.',
        'stale': 'You had already decided since then; this was not applied again.',
        'too_large': 'The message is too large.',
        'broken': 'This table cannot continue.',
        'engine_error': 'The game failed on this move; nothing changed.',
        'server_error': 'Something went wrong on the server.',
        'rate_limited': 'Too many requests: wait a little and try again.',
        'expired': 'This table was abandoned: nothing happened for too long.',
        'forbidden_origin': 'This request did not come from this site.',
        'unsupported_media_type': 'Requests must be sent as JSON.'},
 'fr': {'malformed': 'Le message est illisible.',
        'illegal': "Ce coup n'est pas permis maintenant",
        'not_your_turn': "Ce n'est pas votre tour.",
        'not_a_player': 'Les spectateurs ne jouent pas : ouvrez le lien de votre place pour jouer.',
        'bad_token': "Ce lien de place n'est pas valable (inconnu ou expiré).",
        'unknown_table': "Cette table n'existe pas.",
        'game_over': 'La partie est terminée.',
        'seat_taken': 'Cette place est déjà prise.',
        'bad_seat': "Cette place n'existe pas.",
        'bad_ply': "Ce coup n'existe pas.",
        'forbidden_view': "Le point de vue d'un joueur n'est montré qu'à lui jusqu'à la fin de la partie.",
        'not_finished': 'Le fichier de la partie se télécharge une fois la partie finie.',
        'unknown_game': "Ce jeu n'existe pas.",
        'bad_setup': 'Ces réglages ne sont pas permis',
        'bad_request': "La demande n'est pas valable",
        'storage': "Le coup n'a pas pu être enregistré ; rien n'a changé. Réessayez.",
        'stale': "Vous aviez déjà décidé entre-temps ; ceci n'a pas été rejoué.",
        'too_large': 'Le message est trop long.',
        'broken': 'Cette table ne peut pas continuer.',
        'engine_error': "Le jeu a échoué sur ce coup ; rien n'a changé.",
        'server_error': "Une erreur s'est produite sur le serveur.",
        'rate_limited': 'Trop de demandes : attendez un peu et réessayez.',
        'expired': "Cette table a été abandonnée : rien ne s'y est passé depuis trop longtemps.",
        'forbidden_origin': "Cette demande ne vient pas de ce site.",
        'unsupported_media_type': 'Les demandes doivent être envoyées en JSON.'},
 'de': {'malformed': 'Die Nachricht ist nicht lesbar.',
        'illegal': 'Dieser Zug ist jetzt nicht erlaubt',
        'not_your_turn': 'Du bist nicht am Zug.',
        'not_a_player': 'Zuschauer spielen nicht: öffne den Link deines Platzes, um zu spielen.',
        'bad_token': 'Dieser Platz-Link ist ungültig (unbekannt oder abgelaufen).',
        'unknown_table': 'Diesen Tisch gibt es nicht.',
        'game_over': 'Die Partie ist beendet.',
        'seat_taken': 'Dieser Platz ist schon vergeben.',
        'bad_seat': 'Diesen Platz gibt es nicht.',
        'bad_ply': 'Diesen Zug gibt es nicht.',
        'forbidden_view': 'Die Sicht eines Spielers sieht bis zum Ende der Partie nur er selbst.',
        'not_finished': 'Die Partiedatei kann nach dem Ende der Partie heruntergeladen werden.',
        'unknown_game': 'Dieses Spiel gibt es nicht.',
        'bad_setup': 'Diese Einstellungen sind nicht erlaubt',
        'bad_request': 'Die Anfrage ist ungültig',
        'storage': 'Der Zug konnte nicht gespeichert werden; nichts hat sich geändert. Bitte noch einmal.',
        'stale': 'Du hattest inzwischen schon entschieden; das wurde nicht noch einmal ausgeführt.',
        'too_large': 'Die Nachricht ist zu groß.',
        'broken': 'Dieser Tisch kann nicht weitergespielt werden.',
        'engine_error': 'Das Spiel ist an diesem Zug gescheitert; nichts hat sich geändert.',
        'server_error': 'Auf dem Server ist ein Fehler aufgetreten.',
        'rate_limited': 'Zu viele Anfragen: warte kurz und versuche es noch einmal.',
        'expired': 'Dieser Tisch wurde aufgegeben: zu lange ist nichts passiert.',
        'forbidden_origin': 'Diese Anfrage kommt nicht von dieser Seite.',
        'unsupported_media_type': 'Anfragen müssen als JSON gesendet werden.'}}
for _lang, _texts in ERRORS.items():
    UI[_lang].update({"err_" + code: text for code, text in _texts.items()})


#: the names of the bots every game has; a game's own bots keep their names
BOT_LABELS: dict[str, dict[str, str]] = {
    "en": {"random": "random", "greedy": "greedy"},
    "fr": {"random": "hasard", "greedy": "glouton"},
    "de": {"random": "Zufall", "greedy": "gierig"},
}


def bot_label(name: str, lang: str) -> str:
    return BOT_LABELS.get(lang, {}).get(name, name)


def error_text(code: str, lang: str, detail: str = "") -> str:
    """An error in ``lang``: the code's words, then the server's detail (English)."""
    words = ERRORS.get(lang, ERRORS["en"]).get(code)
    if words is None:
        return detail
    return f"{words} ({detail})" if detail else words


def pick_lang(*candidates: str | None) -> str:
    """The first supported language among the candidates, else English."""
    for c in candidates:
        if c:
            if not isinstance(c, str):
                continue
            c = c.strip().lower()[:2]
            if c in LANGS:
                return c
    return "en"


def ui(lang: str) -> dict[str, str]:
    return UI.get(lang, UI["en"])


@functools.lru_cache(maxsize=None)
def game_texts(slug: str) -> dict[str, dict[str, str]]:
    """A game's ``data/i18n.yaml`` (empty when it has none)."""
    module = GAME_MODULES.get(slug)
    if not module:
        return {}
    try:
        mod_file = importlib.import_module(module).__file__
        if not mod_file:
            return {}
        path = Path(mod_file).parent / "data" / "i18n.yaml"
        if not path.is_file():
            return {}
        raw: Any = load_yaml(path.read_text(encoding="utf-8"))
    except Exception:  # noqa: BLE001 - a missing or broken file means no translations
        log.warning("cannot read the texts of %s", slug, exc_info=True)
        return {}
    if not isinstance(raw, dict):
        return {}
    out: dict[str, dict[str, str]] = {lang: {} for lang in LANGS}
    _flatten(raw, [], None, out)
    return {lang: texts for lang, texts in out.items() if texts}


def _flatten(node: Any, path: list[str], lang: str | None, out: dict[str, dict[str, str]]) -> None:
    """Read the agreed flat shape ``{en: {key: text}}`` and, leniently, nested
    sections such as ``{cards: {A1: {en: {name: ...}}}}`` as dotted keys
    (``cards.A1.name``); the language may sit at any level."""
    if isinstance(node, dict):
        for k, v in node.items():
            k = str(k)
            if lang is None and k in LANGS:
                _flatten(v, path, k, out)
            else:
                _flatten(v, path + [k], lang, out)
    elif lang is not None and path and node is not None and not isinstance(node, list):
        out[lang][".".join(path)] = str(node)


def game_text(slug: str, lang: str, key: str, default: str | None = None) -> str | None:
    """One text of a game in ``lang``, falling back to English, then ``default``."""
    texts = game_texts(slug)
    for lg in (lang, "en"):
        value = texts.get(lg, {}).get(key)
        if value is not None:
            return value
    return default
