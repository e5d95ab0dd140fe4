"""``python -m hatsuden_rules.modelcheck``: the ``hatsuden-check`` command."""

import sys

from hatsuden_rules.cli._check import main

if __name__ == "__main__":
    sys.exit(main())
