# Saved files on the real MicroPython's filesystem: write, replace, detect damage.
import os

from layerlight import persist
from layerlight.storage import FileStorage

os.mkdir("/flash")
st = FileStorage("/flash")
logs = []
persist.save(st, "x.json", {"a": [1, 2]}, logs.append)
print("saved", persist.load(st, "x.json", logs.append))
persist.save(st, "x.json", 3, logs.append)  # rename over the existing file
print("replaced", persist.load(st, "x.json", logs.append))
with open("/flash/x.json", "wb") as f:
    f.write(b"00000000 4\n")
print("damaged", persist.load(st, "x.json", logs.append))
assert "damaged" in logs[-1]
os.remove("/flash/x.json")
with open("/flash/x.json.new", "wb") as f:
    f.write(persist.encode(7))  # a FAT rename cut between remove and rename
print("new-only", persist.load(st, "x.json", logs.append))
