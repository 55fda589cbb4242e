# Files on the device's flash (or a folder on the PC), behind one small object
# so that game code never touches `open` and the simulator can swap in its own.

import os

# On the device, the files the firmware ships with (the default decks) when it
# came as the Layerlight UF2: MicroPython's ROMFS, read in place from flash.
SHIPPED = "/rom"


class FileStorage:
    """Files below a root folder: '/' on the device.

    On the device (root ""), a file the filesystem does not have is read from
    SHIPPED: the table's own files (a deck put there) come first, the UF2's
    decks otherwise. Only reads look there; writes go to the filesystem."""

    def __init__(self, root=""):
        self.root = root.rstrip("/")

    def _path(self, name):
        return self.root + "/" + name.lstrip("/")

    def open_read(self, name):
        """A binary file object for reading (raises OSError if missing)."""
        try:
            return open(self._path(name), "rb")
        except OSError:
            if self.root:
                raise
        return open(SHIPPED + "/" + name.lstrip("/"), "rb")

    def read_bytes(self, name):
        """The whole file as bytes (raises OSError if missing)."""
        with open(self._path(name), "rb") as f:
            return f.read()

    def read_text(self, name):
        """The whole file as text (raises OSError if missing)."""
        with open(self._path(name), "r") as f:
            return f.read()

    def write_atomic(self, name, data):
        """Write a new file, then rename it over the old one, so a power cut leaves the old or the new."""
        path = self._path(name)
        tmp = path + ".new"
        with open(tmp, "wb") as f:
            f.write(data)
        try:
            os.rename(tmp, path)
        except OSError:
            # FAT will not rename over an existing file: remove it first. If
            # the power goes between the two, persist.load reads name.new.
            os.remove(path)
            os.rename(tmp, path)

    def append(self, name, data):
        """Add bytes at the end of a file (made if missing)."""
        with open(self._path(name), "ab") as f:
            f.write(data)

    def rename(self, name, new):
        """Rename a file over another (FAT will not rename over one: it goes first)."""
        try:
            os.rename(self._path(name), self._path(new))
        except OSError:
            os.remove(self._path(new))
            os.rename(self._path(name), self._path(new))

    def remove(self, name):
        """Delete a file if it is there."""
        for path in (self._path(name), self._path(name) + ".new"):
            try:
                os.remove(path)
            except OSError:
                pass

    def listdir(self, name=""):
        try:
            return sorted(os.listdir(self._path(name) if name else (self.root or "/")))
        except OSError:
            return []
