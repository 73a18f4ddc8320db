"""What ``progress=`` accepts: None (silent), a callable ``(stage, fraction)`` (returning False
cancels), or True: a tqdm bar when tqdm is installed, else one line on stderr per stage."""
import sys


class _Bar:
    """A callable that drives a tqdm bar (or prints the stages), closed at "done"."""

    def __init__(self, what):
        self._bar = None
        self._stage = None
        try:
            from tqdm.auto import tqdm
            self._bar = tqdm(total=1000, desc=what, bar_format="{desc}: {percentage:3.0f}%|{bar}|")
        except ImportError:
            pass
        self._what = what

    def __call__(self, stage, fraction):
        if self._bar is not None:
            self._bar.n = int(round(1000 * fraction))
            self._bar.set_description_str(f"{self._what} ({stage})", refresh=False)
            self._bar.refresh()
            if stage == "done":
                self._bar.close()
        elif stage != self._stage:
            print(f"{self._what}: {stage} ({100 * fraction:.0f}%)", file=sys.stderr)
        self._stage = stage


def callback(progress, what):
    if progress is None or progress is False:
        return None
    if progress is True:
        return _Bar(what)
    if callable(progress):
        return progress
    raise TypeError("progress must be None, True or a callable (stage, fraction)")
