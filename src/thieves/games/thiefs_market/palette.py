"""The look of Thief's Market's board: its sizes and colours, read by the
drawing (``board``) and by nothing that the drawing imports."""
from __future__ import annotations

from thieves.core.svg import NARROW_WIDTH

W = 920                     # the board's natural width (the board area is ~920 px at 1280)
NARROW_W = NARROW_WIDTH      # the phone board (core.svg): fits a 420 px window at full size
PAD = 8
FONT = 13                   # smallest text on the board (renders >= 12 px at 1280)
CARD_W, CARD_GAP = 174, 7
CHIP_W, CHIP_H = 142, 24     # another seat's card, named (its text on hover)
DIE, SMALL_DIE = 42, 20
COLORS = {"R": "#d2352b", "W": "#f4f1e8", "B": "#2f64c8", "G": "#2f9e44", "Y": "#e8b923", "P": "#8a3fb0"}
ICON_INK = {"R": "#fff", "W": "#3a3a3a", "B": "#fff", "G": "#fff", "Y": "#5a3a10", "P": "#fff"}
DECK_BAND = {"A": "#6b4f2a", "B": "#2f5d62", "C": "#5b2a6b"}
TOKEN_FILL, GOLD_FILL = "#5b3a1a", "#d9a520"
