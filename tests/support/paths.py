"""Where the tests find the checkout and the golden files."""

from pathlib import Path

#: The root of the checkout.
ROOT_DIR = Path(__file__).resolve().parents[2]
#: The golden files (tests/golden/).
GOLDEN_DIR = ROOT_DIR / "tests" / "golden"
