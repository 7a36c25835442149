"""The heap protocol every heap model implements (see ``semantics.heapview`` for the read side).

A heap maps references to immutable records. Engines read through ``record``, allocate with
``fresh``, apply the writes that outcomes carry with ``write``, and ``copy`` a heap when a state
forks. Input-heap models (lazy initialization, lazier#, the path-optimal ite heap) will add the
operations on input references behind this same protocol.
"""

from __future__ import annotations

from typing import Protocol

from pathloom.domain.values import Record, Ref


class Heap(Protocol):
    def record(self, ref: Ref) -> Record: ...

    def fresh(self) -> Ref: ...

    def write(self, ref: Ref, record: Record) -> None: ...

    def copy(self) -> Heap: ...
