# The play log on the real MicroPython's filesystem: append, rotate past KEEP,
# a damaged line in the middle, a torn last line, read back a record at a time.
import os

from layerlight import playlog
from layerlight.storage import FileStorage

os.mkdir("/flash")
st = FileStorage("/flash")
log = playlog.PlayLog(st, print)


def record(i):
    return {"mode": "coop", "seats": [1, 2], "scores": [i, 0], "winners": [1], "tie_break": None,
            "detail": None, "played": {"deck": None, "level": None}, "rounds": 1, "ms": 10, "ended": "final",
            "date": None}


for i in range(playlog.KEEP + 20):
    log.append(record(i))
print("files", sorted(os.listdir("/flash")))
seen = []
print("bad", log.scan(lambda n, mode, winners, name, at: seen.append(n)))
print("kept", len(seen), seen[0], seen[-1])
# a bit flipped in the newer file's second line
with open("/flash/plays.log", "rb") as f:
    data = f.read()
first = data.index(b"\n") + 1
data = data[:first + 12] + (b"X" if data[first + 12:first + 13] != b"X" else b"Y") + data[first + 13:]
with open("/flash/plays.log", "wb") as f:
    f.write(data[:-7])  # and its last line torn
again = playlog.PlayLog(st, print)
print("next", again.append(record(99)))
seen = []
print("bad", again.scan(lambda n, mode, winners, name, at: seen.append(n)))
print("last", seen[-3:])
print("at", again.read_at(playlog.LOG, 0)["n"])
