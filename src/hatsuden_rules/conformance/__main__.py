"""``python -m hatsuden_rules.conformance``: the same as the ``hatsuden-conformance`` command."""

import sys

from hatsuden_rules.cli._conformance import main

sys.exit(main())
