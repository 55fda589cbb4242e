"""OTLO Stones on the PC: the tile-set file (sets), the challenge search (search), the deck
writer (deckpack), the deck tools behind `layerlight cards` (cards, show) and the printable
cards and tiles (render). The geometry (turns, what shows) is the firmware's otlo_tiles."""
