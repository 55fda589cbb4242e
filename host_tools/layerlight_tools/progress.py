"""Progress bars (tqdm, on standard error, only when it is a terminal) for long commands."""

import sys

LABELS = {"stackings": "stackings", "missions": "solving again", "check": "checking", "export": "solving"}


class Bars:
    """A callable progress(stage, done, total) that keeps one tqdm bar per stage."""

    def __init__(self, enabled=None):
        if enabled is None:
            enabled = sys.stderr.isatty()
        self.enabled = enabled
        self.bars = {}

    def __call__(self, stage, done, total):
        if not self.enabled:
            return
        from tqdm import tqdm
        bar = self.bars.get(stage)
        if bar is None:
            big = total > 100_000
            bar = self.bars[stage] = tqdm(total=total, desc=LABELS.get(stage, stage), file=sys.stderr,
                                          unit="", unit_scale=big, leave=False, dynamic_ncols=True)
        bar.update(done - bar.n)

    def close(self):
        for bar in self.bars.values():
            bar.close()
        self.bars = {}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
