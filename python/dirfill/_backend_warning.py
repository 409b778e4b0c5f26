# SPDX-License-Identifier: MIT
"""Warns once, as the package is imported, when DIRFILL_BACKEND names no backend this build
has for this CPU (the library then chooses one itself)."""
import warnings

from . import _dirfill

_status, _requested = _dirfill._backend_env()
if _status != "ok":
    # stacklevel 3: past this module and the package's __init__ to the line that imports
    # dirfill (the import machinery's frames are not counted).
    warnings.warn("DIRFILL_BACKEND=%r ignored (%s): dirfill uses %s. Backends: %s (names are "
                  "exact, lower case)." % (_requested, _status, _dirfill.backend(),
                                           ", ".join(_dirfill.backends())),
                  RuntimeWarning, stacklevel=3)
