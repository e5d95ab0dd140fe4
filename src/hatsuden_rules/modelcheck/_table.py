"""A compact set of 64-bit fingerprints: a bucketed hash table in one numpy array.

The table is an array of buckets of `WIDTH` fingerprints (64 bytes, one cache line each);
fingerprint 0 marks an empty slot (a state whose fingerprint is 0 is stored as 1: one more way
to collide, within the estimate). A fingerprint lives in its home bucket (chosen by its high
32 bits) or, when that bucket was full, in the next one with room (linear probing by bucket).

Lookups and insertions are made a batch at a time and vectorised: the candidates are made
unique (the first occurrence of a fingerprint in the batch is the one that counts), then, round
after round, every pending candidate reads its bucket at once; those found are done, those whose
bucket has room are written into it (ranked within the bucket), the others move to the next
bucket. The table grows by half before it would be more than `MAX_LOAD` full, so it holds
10 to 15 bytes a state, and a growth (old and new array together) is checked against
`max_bytes` before anything is allocated.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

__all__ = ["MAX_LOAD", "WIDTH", "FingerprintTable", "TableFull"]

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
#: Fingerprints per bucket.
WIDTH: Final = 8
#: The table grows before it would hold more than this share of its slots.
MAX_LOAD: Final = 0.8
_GROWTH: Final = 1.5
_MIN_BUCKETS: Final = 1 << 12
_EMPTY: Final = np.uint64(0)
_REHASH_BATCH: Final = 1 << 20


class TableFull(Exception):
    """Growing the table would pass the memory it may use."""


class FingerprintTable:
    """A set of 64-bit fingerprints, 8 to a bucket, grown by half when 80% full.

    Args:
        max_bytes: The most the table may take, a growth in progress included; None for no
            limit. `insert` raises `TableFull` (and adds nothing) before it would pass it.
        capacity: Fingerprints to make room for at once.

    Examples:
        >>> table = FingerprintTable()
        >>> new = table.insert(np.array([5, 7, 5, 9], dtype=np.uint64))
        >>> new.tolist(), len(table)
        ([True, True, False, True], 3)
        >>> table.insert(np.array([9, 11], dtype=np.uint64)).tolist()
        [False, True]
        >>> 11 in table, 12 in table
        (True, False)
    """

    def __init__(self, max_bytes: int | None = None, capacity: int = 0) -> None:
        self.max_bytes = max_bytes
        buckets = max(_MIN_BUCKETS, int(capacity / (MAX_LOAD * WIDTH)) + 1)
        self._table: U64 = np.zeros((buckets, WIDTH), dtype=np.uint64)
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def __contains__(self, fingerprint: object) -> bool:
        if not isinstance(fingerprint, int | np.integer) or not 0 <= fingerprint < 1 << 64:
            return False
        probe = np.array([fingerprint or 1], dtype=np.uint64)
        return bool(self._place(probe, add=False)[0])

    @property
    def nbytes(self) -> int:
        """The bytes of the table's array."""
        return int(self._table.nbytes)

    def grown_bytes(self, extra: int) -> int:
        """The size in bytes of the table after making room for `extra` more fingerprints."""
        buckets = len(self._table)
        while self._count + extra > MAX_LOAD * WIDTH * buckets:
            buckets = int(buckets * _GROWTH)
        return buckets * WIDTH * 8

    def insert(self, fingerprints: U64) -> npt.NDArray[np.bool_]:
        """Add `fingerprints`; True where one was not in the table before (first of the batch).

        Raises:
            TableFull: Room for the batch would pass `max_bytes`.
        """
        fps = np.where(fingerprints == _EMPTY, np.uint64(1), fingerprints)
        size = self.grown_bytes(len(fps))
        if size > self.nbytes:
            if self.max_bytes is not None and self.nbytes + size > self.max_bytes:
                raise TableFull(
                    f"growing the fingerprint table to {size:,} bytes would pass the limit"
                )
            self._rehash(size // (WIDTH * 8))
        unique, first = np.unique(fps, return_index=True)
        added = self._place(unique, add=True)
        new = np.zeros(len(fps), dtype=np.bool_)
        new[first[added]] = True
        return new

    def _home(self, fps: U64) -> I64:
        """The home bucket of each fingerprint: its high 32 bits scaled to the table."""
        buckets = np.uint64(len(self._table))
        return ((fps >> np.uint64(32)) * buckets >> np.uint64(32)).astype(np.int64)

    def _place(self, unique: U64, *, add: bool) -> npt.NDArray[np.bool_]:
        """Look up (and with `add`, insert) distinct fingerprints.

        Returns, with `add`, True for those that were not present; without, True for those
        that are.
        """
        table = self._table
        buckets = len(table)
        result = np.zeros(len(unique), dtype=np.bool_)
        pending = np.arange(len(unique))
        bucket = self._home(unique)
        while pending.size:
            keys = unique[pending]
            rows = table[bucket]
            present = (rows == keys[:, None]).any(axis=1)
            fill = np.count_nonzero(rows, axis=1)
            if not add:
                result[pending[present]] = True
                done = present | (fill < WIDTH)  # a bucket with room ends the probe
            else:
                done = present.copy()
                room = np.flatnonzero(~present & (fill < WIDTH))
                if room.size:
                    order = room[np.argsort(bucket[room], kind="stable")]
                    homes = bucket[order]
                    index = np.arange(len(order))
                    starts = np.r_[True, homes[1:] != homes[:-1]]
                    rank = index - np.maximum.accumulate(np.where(starts, index, 0))
                    slot = fill[order] + rank
                    fits = slot < WIDTH
                    placed = order[fits]
                    table[bucket[placed], slot[fits]] = keys[placed]
                    result[pending[placed]] = True
                    done[placed] = True
                    self._count += len(placed)
            keep = ~done
            pending = pending[keep]
            bucket = bucket[keep] + 1
            bucket[bucket == buckets] = 0
        return result

    def _rehash(self, buckets: int) -> None:
        """Move every fingerprint into a new array of `buckets` buckets."""
        old = self._table.reshape(-1)
        self._table = np.zeros((buckets, WIDTH), dtype=np.uint64)
        self._count = 0
        for start in range(0, len(old), _REHASH_BATCH):
            part = old[start : start + _REHASH_BATCH]
            self._place(np.sort(part[part != _EMPTY]), add=True)  # already distinct
