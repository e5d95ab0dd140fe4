"""``python -m hatsuden_rules``: the ``hatsuden`` command."""

import sys

from hatsuden_rules.cli import main

sys.exit(main())
