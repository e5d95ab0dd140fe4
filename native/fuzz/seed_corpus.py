"""Seed corpora of the fuzz targets from the conformance suite (stdlib only).

Every string of the vectors that is a notation line or a JSON document becomes one input: for
`notation`, a first byte choosing the reader (0 rules, 1 move, 2 move under STANDARD, 3 state,
4 observation, 5 record) then the text; for `json`, the text. Run by `make fuzz-native`.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path

_KIND = {"rules": 0, "move": 1, "state": 3, "observation": 4, "record": 5}


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        if "type" in value and "format_version" in value:  # a JSON document held as an object
            yield json.dumps(value, separators=(",", ":"))
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _kind(text: str) -> int | None:
    if text.startswith("{"):
        return None
    if text.startswith("rules="):
        return 3
    if text.startswith("player=") or " player=" in text[:80]:
        return 4
    if text.count("/") >= 8 and " " not in text:
        return 0
    if len(text) < 24:
        return 1
    return None


def main(suite: Path, out: Path) -> int:
    """Write the seed inputs of both targets from the vectors in `suite` into `out`."""
    seen: set[bytes] = set()
    for target in ("notation", "json"):
        (out / target).mkdir(parents=True, exist_ok=True)
    for path in sorted(suite.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            for text in _strings(json.loads(line)):
                if text.startswith("{"):
                    entries = [("json", text.encode())]
                elif (kind := _kind(text)) is not None:
                    entries = [("notation", bytes([kind]) + text.encode())]
                    if kind == 1:
                        entries.append(("notation", bytes([2]) + text.encode()))
                else:
                    continue
                for target, data in entries:
                    if data in seen:
                        continue
                    seen.add(data)
                    name = hashlib.sha1(data).hexdigest()[:16]
                    (out / target / name).write_bytes(data)
    print(f"{len(seen)} seed inputs in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
