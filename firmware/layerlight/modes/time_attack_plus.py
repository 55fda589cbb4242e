# Time attack with the Layers+ decks: levels 2-5.
from layerlight.modes import time_attack


class Mode(time_attack.Mode):
    name = "time-attack-plus"
    levels = (2, 3, 4, 5)
