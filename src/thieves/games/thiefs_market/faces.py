"""The faces of Thief's Market's dice and the start player token, read by the
data (``components``), the notation (``actions``) and the board alike; it
imports nothing of the game, so none of them imports another for these."""
from __future__ import annotations

#: the six faces in their order inside the state: four gems, the yellow bag, the purple infamy face
FACES = "RWBGYP"
R, W, B, G, Y, P = range(6)
GEMS = "RWBG"
#: the start player token in the notation (``take T``)
TOKEN = "T"
