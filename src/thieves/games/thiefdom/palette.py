"""The words and colours of the Thiefdom table shared by its drawing and its texts
(goods, building types and their icons and fills, the city's colours): a module
of its own, so the board and the presentation both read it and neither imports
the other for it."""
from __future__ import annotations

GOODS = ("gold", "gem", "brandy", "wine", "badge")
HOUSE_TYPES = ("tower", "garden", "forge", "stable")
TYPE_ICON = {"tower": "♜", "garden": "✿", "forge": "⚒", "stable": "♞", "church": "✝", "market": "⚖",
             "dealer": "♦", "tavern": "☕", "dungeon": "☠", "smuggler": "⚓", "villa": "♛"}
TYPE_FILL = {"tower": "#b9b2a6", "garden": "#9cc48a", "forge": "#c29a82", "stable": "#d2b37c",
             "church": "#e4ddcf", "market": "#f0b25e", "dealer": "#e89a5a", "tavern": "#edc15a",
             "dungeon": "#a9826a", "smuggler": "#d7a06a", "villa": "#f1d27a"}
LOCATIONS = ("market", "dealer", "tavern", "dungeon", "smuggler", "villa", "church")
GOOD_COLOR = {"gold": "#e3b21b", "gem": "#2bb7d6", "brandy": "#c77a1e", "wine": "#8e1f3a", "badge": "#8a8f99",
              "art": "#6b4f2a"}
ALLEY, LANTERN, WALL, RIVER, SIGHT = "#e9e3d6", "#f6e7a8", "#2b2420", "#3f7fbf", "#e74c3c"
#: the four directions (north, east, south, west) as steps on the city's grid
DXY = ((0, -1), (1, 0), (0, 1), (-1, 0))
#: the wide board's width
WIDTH = 900
