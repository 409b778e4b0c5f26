# SPDX-License-Identifier: MIT
"""The Ctrl-C tests need Python's own SIGINT handler. A shell that starts the suite in the
background leaves SIGINT ignored (POSIX: asynchronous lists without job control), and Python
then installs no handler of its own, so no KeyboardInterrupt would ever come."""
import signal

import pytest


@pytest.fixture(autouse=True)
def python_sigint_handler():
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)
