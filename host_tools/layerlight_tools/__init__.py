"""Layerlight host tools: the `layerlight` command and the simulator."""
