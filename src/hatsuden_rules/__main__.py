"""``python -m hatsuden_rules``: the ``hatsuden`` command."""

import sys

from .cli import main

sys.exit(main())
