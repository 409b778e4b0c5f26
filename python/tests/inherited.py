# SPDX-License-Identifier: MIT
"""A DataLoader worker's init that closes the reading its parent was doing when it forked: the
torch tests' check that a forked worker does not wait for its parent's reader thread."""
import gc

#: What the main process is reading while it forks a DataLoader's workers.
HELD = []


def close_inherited(worker_id):
    """A worker that closes the reading it inherited (its generator, the reader with it)."""
    for g in HELD:
        g.close()
    HELD.clear()
    gc.collect()
