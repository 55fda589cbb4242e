"""Where the play log comes from: a folder standing for the device's flash (what
`layerlight sim --flash DIR` keeps), or a board over USB. Either way the two files'
bytes go to the firmware's own parser, layerlight.playlog, and the saved game to
its own reader, layerlight.persist.

A game on its result screen is not in the log yet: the device logs it when A
leaves the result, or when the next mode starts (HISTORY included). Its record
is saved with the game at the final, though (Device.save_game), so a table that
switches the box off on the result, or reads it right after a game, still sees
it: `from_files` lists it as the newest game, marked as still on its result."""

import os

from layerlight import persist, playlog
from layerlight_tools import devicefs
from layerlight_tools.errors import UserError

FILES = (playlog.OLD, playlog.LOG)  # the older file first: numbers rise through the two
SAVED = (persist.GAME, persist.GAME + ".new")  # the saved game (and what a cut FAT rename leaves)


class PlayHistory:
    """The games the device keeps (the last playlog.KEEP by number, oldest first), how
    many damaged lines were skipped to find them, and the number of the game among
    them that is still on its result screen (saved with its record, not logged yet),
    or None."""

    def __init__(self, records, damaged, on_result=None):
        self.records = records
        self.damaged = damaged
        self.on_result = on_result


class _Files:
    """{name: bytes or None} as the storage persist.load reads from."""

    def __init__(self, files):
        self.files = files

    def read_bytes(self, name):
        return self.files.get(name)


def on_result(files, logged):
    """The record saved with a game at its final that the log does not hold yet, or None.

    The saved game is read as the device reads it at power-on (persist.load: a damaged
    file is no game). The device logs the record under its own number and never a
    number the log already reaches (PlayLog.append), so a record numbered up to
    `logged`, the log's last number, is in the log already (a power cut between the
    append and the saved game's removal) and is not counted again."""
    saved = persist.load(_Files(files), persist.GAME, lambda line: None)
    rec = saved.get("record") if isinstance(saved, dict) else None
    if isinstance(rec, dict) and isinstance(rec.get("n"), int) and rec["n"] > logged:
        return rec
    return None


def from_files(files):
    """The games in {file name: bytes, or None when the file is missing}: the log's two
    files, and the saved game's (SAVED) for a game still on its result screen."""
    records = []
    damaged = 0
    for name in FILES:
        data = files.get(name)
        if data:
            good, bad = playlog.parse(data)
            records += good
            damaged += bad
    waiting = on_result(files, max([r["n"] for r in records] or [0]))
    if waiting is not None:
        records.append(waiting)
    return PlayHistory(playlog.newest(records), damaged, None if waiting is None else waiting["n"])


def read_folder(folder):
    """The games in folder/plays.old and folder/plays.log (missing files: no games), and
    the one on its result screen in folder/game.json."""
    if not os.path.exists(folder):
        raise UserError("--flash %s: no such folder" % folder)
    if not os.path.isdir(folder):
        raise UserError("--flash %s: not a folder" % folder)
    files = {}
    for name in FILES + SAVED:
        try:
            with open(os.path.join(folder, name), "rb") as f:
                files[name] = f.read()
        except FileNotFoundError:
            files[name] = None
        except OSError as e:
            raise UserError("--flash %s: cannot read %s (%s)" % (folder, name, e.strerror or e))
    return from_files(files)


def read_board(port=None):
    """The games on a board's flash, over mpremote. Connecting stops the firmware; its
    clock is set from the PC's on the way (devicefs.set_clock) and the firmware is
    started again after the files are read."""
    from layerlight_tools.flash import restart
    port = port or devicefs.find_port()
    with devicefs.Board(port, soft_reset=False) as board:
        devicefs.set_clock(board)
        files = {name: board.read_bytes("/" + name) for name in FILES + SAVED}
        restart(board, 0)
    return from_files(files)
