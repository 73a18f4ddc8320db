"""Core's failures as Python exceptions.

Core reports every failure as one typed value (core/common/failure.h): a kind, the file, the
place (byte offset, line and column for text; -1 when not about a place) and the reason. Each
kind is a subclass of :class:`Error`, so ``except contend.MalformedError`` catches a broken
file and ``except contend.Error`` catches them all; ``str(e)`` is core's own message
(``trace.json: byte 1048576 (line 2301, column 17): expected ',' or '}'``).
"""


class Error(Exception):
    """A failure of Contend's core: ``kind``, ``file``, ``offset``, ``line``, ``column``, ``reason``."""

    kind = "other"

    def __init__(self, message, *, file="", offset=None, line=None, column=None, reason=""):
        super().__init__(message)
        self.file = file
        self.offset = offset
        self.line = line
        self.column = column
        self.reason = reason or message

    @property
    def place(self):
        """Where in the file: a dict with the byte offset, line and column that are known."""
        return {k: v for k, v in (("offset", self.offset), ("line", self.line), ("column", self.column))
                if v is not None}


class UnreadableError(Error, OSError):
    """A file cannot be opened, read or written (missing, permissions, I/O)."""
    kind = "unreadable"


class MalformedError(Error, ValueError):
    """A file is broken at a place (``offset``, ``line``, ``column`` say where when known)."""
    kind = "malformed"


class NotATraceError(Error, ValueError):
    """Readable, but not a format Contend reads."""
    kind = "not_a_trace"


class OutOfMemoryError(Error, MemoryError):
    """The work would need more memory than its budget (``memory_limit``, CONTEND_MAX_MEMORY)."""
    kind = "out_of_memory"


class CancelledError(Error):
    """The progress callback returned False."""
    kind = "cancelled"


class UnsupportedError(Error):
    """This machine cannot do it (a CPU without AVX2)."""
    kind = "unsupported"


class InternalError(Error):
    """A bug in Contend."""
    kind = "internal"


class InvalidError(Error, ValueError):
    """A request outside what is accepted (a coefficient out of its range); nothing was read."""
    kind = "invalid"


_BY_KIND = {cls.kind: cls for cls in (Error, UnreadableError, MalformedError, NotATraceError, OutOfMemoryError,
                                      CancelledError, UnsupportedError, InternalError, InvalidError)}


def from_failure(kind, file, offset, line, column, reason, message):
    """The exception for a core Failure (called by the C++ module)."""
    cls = _BY_KIND.get(kind, Error)
    known = lambda v: v if v is not None and v >= 0 else None  # noqa: E731
    return cls(message, file=file, offset=known(offset), line=known(line), column=known(column), reason=reason)
