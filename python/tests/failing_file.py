# SPDX-License-Identifier: MIT
"""A binary file object whose read() gives the first n bytes of its data and then raises: a
source that fails partway, for the readers' tests."""
import io


class FailingFile(io.RawIOBase):
    """Reads of data[:n], then `error` (OSError("disk on fire") unless given) on every read."""

    def __init__(self, data, n, error=None):
        self.data, self.at, self.n = data, 0, n
        self.error = error if error is not None else OSError("disk on fire")

    def readable(self):
        return True

    def read(self, size=-1):
        if self.at >= self.n:
            raise self.error
        if size < 0:
            size = self.n - self.at
        out = self.data[self.at:min(self.at + size, self.n)]
        self.at += len(out)
        return out
