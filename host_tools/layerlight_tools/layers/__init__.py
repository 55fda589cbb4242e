"""Layers on the PC: the layer-set file (sets), the stacking search (stackings), the deck
writer (deckpack), the deck tools behind `layerlight cards` and `solve` (cards, show) and the
printable cards and layers (render, whose display-list pages OTLO's render prints too). The
geometry (orientations, what a stack shows) is the firmware's geometry and stacking."""
