"""How Age of Thieves looks on the table: the lattice of Hadria's streets and the
colours and icons of its spaces, exits, street tokens, jewels and figures.

Read by the drawing (``svg_board``) and the presentation alike; it imports neither.
"""
from __future__ import annotations

#: the board's width in the wide layout
W = 960
#: the 15x15 street lattice: a cell's size and where the first space stands
CELL, X0, Y0 = 40, 44, 94
BOARD_BOTTOM = Y0 + 14 * CELL + 40
#: the column right of the city (the event, the watch, the thieves)
PANEL_X = 650
DISTRICT_FILL = {"palace": "#ecd9a0", "golden_domes": "#f6e7b8", "empty_pot": "#d5e4d9",
                 "salty_docks": "#cfe2f1", "hammerblow": "#ead3cc"}
#: one icon per special field (the legend explains each)
KIND_ICON = {"start": "⚑", "dungeon": "▦", "imperial": "♛", "sword": "⚔", "guardhouse": "⌂",
             "green": "◆", "hideout": "◐", "guard_alarm": "!", "captain_alarm": "‼",
             "sewer_in": "↓", "sewer_out": "↑", "treasury": "★"}
EXIT_ICON = {"gate": "∏", "ship": "⚓"}
FEATURE_ICON = {"alley": "☾", "manhole": "◎", "ladder": "☰"}
GEM_COLOUR = {"emperor": "#d62828", "green": "#2a9d5f", "yellow": "#f2c12e", "trinket": "#b07b3a"}
GUARD_FILL, CAPTAIN_FILL = "#1d3557", "#5b2a86"
#: a target's ring (a space, an exit or a figure one may click)
TARGET = "#e8a317"
#: the ring round the viewer's own thief
YOU_RING = "#111"
CARD_W, CARD_H, CARD_GAP = 112, 206, 6
