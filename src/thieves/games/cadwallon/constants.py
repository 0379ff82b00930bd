"""Numbers printed in the rulebook, in one place."""
AP_PER_ROUND = 7          # §"Activer les personnages": 7 Action Points per gang and round
START_HAND = 5            # §"Mise en place" step 8: 5 arcana cards each
MOVE_AP = 1               # §"Se déplacer": a move costs 1 AP
OPEN_AP = 1               # §"Ouvrir un coffre": trying to open costs 1 AP
FORCE_AP = 2              # §"Forcer un coffre": forcing costs 2 AP
ATTACK_AP = 1             # §"Attaquer": attacking is an action (1 AP, English summary)
MISSION_AP = 3            # §"Cartes mission": 3 AP
OPEN_DUCATS = 1           # §"Les trésors": 1 ducat from the bank per chest opened
STAY_INSIDE_PENALTY = 3   # §"Fin de la partie": 3 ducats per character left inside
FLEE_ZONES = 3            # §"Attaquer": the loser flees 3 zones
MILITIA_FINE = 2          # §"Déplacer un milicien": 2 ducats to the bank
THEFT_DUCATS = 2          # §"Attaquer": 2 ducats from a loser with no treasure
