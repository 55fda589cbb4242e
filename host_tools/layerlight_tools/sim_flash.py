"""`sim --flash DIR`: the simulated device's flash kept in a folder across runs.

What the device writes (the saved game, bests, settings, the play log, the
error log) goes to DIR as it happens, and the next run starts with it, as a
board keeps its flash between power-ons: a season can be played over many
runs and read back with `layerlight history --flash DIR`. The firmware's own
data (the decks, layerlight.json) come from each run's options instead.
"""

import os

from layerlight_tools import simcore
from layerlight_tools.errors import UserError


class FolderStorage(simcore.MemoryStorage):
    """The simulator's storage, written through to a folder."""

    def __init__(self, files, folder):
        simcore.MemoryStorage.__init__(self, files)
        self.folder = folder
        try:
            os.makedirs(folder, exist_ok=True)
            names = sorted(os.listdir(folder))
        except OSError as e:
            raise UserError("--flash: cannot use %s: %s" % (folder, e.strerror))
        self.given = set(self.files)
        for name in names:
            path = os.path.join(folder, name)
            if name in self.given or not os.path.isfile(path) or name.endswith(".tmp"):
                continue
            with open(path, "rb") as f:
                self.files[name] = f.read()

    def _sync(self, *names):
        for name in names:
            if name in self.given:
                continue  # the run's own decks and settings file are not the device's writing
            path = os.path.join(self.folder, name)
            try:
                if name in self.files:
                    with open(path + ".tmp", "wb") as f:
                        f.write(self.files[name])
                    os.replace(path + ".tmp", path)
                elif os.path.exists(path):
                    os.remove(path)
            except OSError as e:
                raise UserError("--flash: cannot write %s: %s" % (path, e.strerror))

    def write_atomic(self, name, data):
        simcore.MemoryStorage.write_atomic(self, name, data)
        self._sync(name, name + ".new")

    def append(self, name, data):
        simcore.MemoryStorage.append(self, name, data)
        self._sync(name)

    def rename(self, name, new):
        simcore.MemoryStorage.rename(self, name, new)
        self._sync(name, new)

    def remove(self, name):
        simcore.MemoryStorage.remove(self, name)
        self._sync(name, name + ".new")
