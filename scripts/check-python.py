"""Fail early, with the fix, when the Python that builds the virtualenv is too old."""

import sys

if sys.version_info < (3, 11):  # noqa: UP036 - this script runs on any Python
    sys.exit(
        f"webenv needs Python 3.11 or newer; {sys.executable} is "
        f"{sys.version.split()[0]}. Run `make PYTHON=python3.11 ...`."
    )
