"""A pseudo-terminal bridged to the emulated Pico's USB serial port.

The other end of the pty is a serial port like a real board's /dev/ttyACM0:
`layerlight flash --port` and `mpremote connect` open it as they would a
Pico's. While the bridge is open the emulator runs on its own, as fast as it
can, so that the board answers.
"""

import os
import threading
import tty


class SerialBridge:
    def __init__(self, pico, step_ms=10):
        self.pico = pico
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # a serial line: no echo, no line editing
        self.port = os.ttyname(self.slave)
        self.step_ms = step_ms
        self.running = True
        pico.serial_listeners.append(self._to_host)
        self.threads = [threading.Thread(target=self._to_board, daemon=True),
                        threading.Thread(target=self._pump, daemon=True)]
        for t in self.threads:
            t.start()

    def _to_host(self, data):
        try:
            os.write(self.master, data)
        except OSError:
            pass

    def _to_board(self):
        while self.running:
            try:
                data = os.read(self.master, 4096)
            except OSError:
                return
            if data and self.running:
                self.pico.write(data)

    def _pump(self):
        try:
            while self.running:
                self.pico.run_ms(self.step_ms)
        except Exception:  # the emulator went away: the port's reader sees the board gone
            self.running = False

    def close(self):
        self.running = False
        self.threads[1].join(timeout=30)
        self.pico.serial_listeners.remove(self._to_host)
        os.close(self.slave)
        os.close(self.master)
        self.threads[0].join(timeout=5)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
