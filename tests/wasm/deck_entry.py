# The firmware's deck reader on the real MicroPython: opens every file in
# /decks and prints "name ok count level5 first-pattern" or "name DeckError: message".
import os

from layerlight.deck import Deck, DeckError
from layerlight.storage import FileStorage

storage = FileStorage("")
for name in sorted(os.listdir("/decks")):
    try:
        d = Deck(storage, "decks/" + name)
    except DeckError as e:
        print("%s DeckError: %s" % (name, e))
        continue
    m = d.level_mission(5, 0)
    print("%s ok %d %d %s %s" % (name, d.count, d.level_count(5), "".join(str(c) for c in m.pattern),
                                 ",".join("%d:%d" % s for s in m.solution)))
