"""``python -m chicago``: the same program as the ``chicago`` command (for a Python whose
scripts directory is not on the PATH)."""

import sys

from chicago.cli import main

if __name__ == "__main__":
    sys.exit(main())
