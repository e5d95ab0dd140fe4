"""``python -m hatsuden_rules.conformance``: the same as the ``hatsuden-conformance`` command."""

import sys

from ._runner import main

sys.exit(main())
