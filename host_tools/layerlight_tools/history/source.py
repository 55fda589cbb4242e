"""Where the play log comes from: a folder standing for the device's flash (what
`layerlight sim --flash DIR` keeps), or a board over USB. Either way the two files'
bytes go to the firmware's own parser, layerlight.playlog."""

import os

from layerlight import playlog
from layerlight_tools import devicefs
from layerlight_tools.errors import UserError

FILES = (playlog.OLD, playlog.LOG)  # the older file first: numbers rise through the two


class PlayHistory:
    """The games the device keeps (the last playlog.KEEP by number, oldest first) and
    how many damaged lines were skipped to find them."""

    def __init__(self, records, damaged):
        self.records = records
        self.damaged = damaged


def from_files(files):
    """The games in {file name: bytes, or None when the file is missing}."""
    records = []
    damaged = 0
    for name in FILES:
        data = files.get(name)
        if data:
            good, bad = playlog.parse(data)
            records += good
            damaged += bad
    return PlayHistory(playlog.newest(records), damaged)


def read_folder(folder):
    """The games in folder/plays.old and folder/plays.log (missing files: no games)."""
    if not os.path.exists(folder):
        raise UserError("--flash %s: no such folder" % folder)
    if not os.path.isdir(folder):
        raise UserError("--flash %s: not a folder" % folder)
    files = {}
    for name in FILES:
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
    started again after the two files are read."""
    from layerlight_tools.flash import restart
    port = port or devicefs.find_port()
    with devicefs.Board(port, soft_reset=False) as board:
        devicefs.set_clock(board)
        files = {name: board.read_bytes("/" + name) for name in FILES}
        restart(board, 0)
    return from_files(files)
