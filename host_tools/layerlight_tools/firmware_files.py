"""Where the firmware tree is, and the files the simulated device starts with."""

import os

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(REPO, "firmware")
DEFAULT_DECK = os.path.join(FIRMWARE, "decks", "default.deck")
DEFAULT_SET = os.path.join(REPO, "host_tools", "sets", "default.toml")


def device_files(deck=None, config=None):
    """The simulated flash: the shipped decks and config, `deck` (a path) as the deck in use, and
    `config` (a dict of settings) as its layerlight.json."""
    files = {}
    decks = os.path.join(FIRMWARE, "decks")
    for name in sorted(os.listdir(decks)) if os.path.isdir(decks) else []:
        with open(os.path.join(decks, name), "rb") as f:
            files["decks/" + name] = f.read()
    cfg = os.path.join(FIRMWARE, "layerlight.json")
    if os.path.exists(cfg):
        with open(cfg, "rb") as f:
            files["layerlight.json"] = f.read()
    if config is not None:
        import json
        files["layerlight.json"] = json.dumps(config).encode()
    if deck is not None:
        with open(deck, "rb") as f:
            data = f.read()
        # an OTLO challenge deck replaces the OTLO deck, a mission deck the Layers one
        files["decks/otlo.deck" if data[:4] == b"LLOT" else "decks/default.deck"] = data
    return files
