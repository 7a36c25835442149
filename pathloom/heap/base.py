"""The heap protocol of a path: what the forking engines (dse, compose, navigation) keep per
state, and the plug-in point for another heap representation.

``Heap`` extends ``semantics.heapview.HeapView``, the read-only side the shared semantics sees
(``record``, ``fresh``, ``models``), with what an engine does to its own heap: apply the writes
an outcome carries (``write``), ``copy`` the heap when a state forks, read a list's length
(the loop bound's ``items_left``), look a reference up without failing (``get``), list the
references it holds (``ids``), and say which path it is on (``model_source``, for the models
concretization asks for). ``heap.concrete.ConcreteHeap`` implements it (one dict of immutable
records per path). MultiSE keeps no heap per path: its value summaries of heap cells are read
by the semantics through the same ``HeapView`` (``engines/multise/heap.py``). The input-heap
models (lazy initialization, lazier#, POSE) are policies registered with
``semantics.input_heap.register_model``, written as records, so every heap carries them.

Invariant: a heap is only changed through ``write``; ``copy`` shares no mutable state (records
are immutable), so writes after a fork are seen by one state only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from pathloom.domain.values import Record, Ref
from pathloom.semantics.heapview import HeapView
from pathloom.terms.expr import Arg, Term

ModelSource = Callable[[list[Term], str, Arg], tuple[list[dict[str, Any]], bool]]


class Heap(HeapView, Protocol):
    model_source: ModelSource | None

    def write(self, ref: Ref, record: Record) -> None: ...

    def copy(self) -> Heap: ...

    def list_length(self, ref: Ref) -> object: ...

    def get(self, ref: Ref) -> Record | None: ...

    def ids(self) -> frozenset[int]: ...
