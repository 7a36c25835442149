"""The heap of objects created by the analyzed code (and of list inputs, whose records hold
symbolic lengths and items), the forking engines' implementation of ``heap.base.Heap``. One
heap per path: ``copy`` is shallow because records are immutable. Invariant: references are
never reused within one heap's history."""

from __future__ import annotations

from typing import Any

from pathloom.domain.values import ListRec, Record, Ref
from pathloom.frontend.ir import ClassInfo
from pathloom.heap.base import Heap, ModelSource
from pathloom.terms.expr import Arg, Term


class ConcreteHeap:
    __slots__ = ("classes", "model_source", "next_id", "records")

    def __init__(self, classes: dict[str, ClassInfo], records: dict[int, Record] | None = None, next_id: int = 1) -> None:
        self.records: dict[int, Record] = records if records is not None else {}
        self.next_id = next_id
        self.classes = classes
        self.model_source: ModelSource | None = None  # set by the engine for the path this heap is on

    def models(self, terms: list[Term], site: str, where: Arg = True) -> tuple[list[dict[str, Any]], bool]:
        """Models of the current path and ``where`` that give ``terms`` pairwise different
        values, and whether there is no other value (see ``semantics.concretize``)."""
        assert self.model_source is not None, "the engine did not say which path this heap is on"
        return self.model_source(terms, site, where)

    def record(self, ref: Ref) -> Record:
        return self.records[ref.id]

    def get(self, ref: Ref) -> Record | None:
        return self.records.get(ref.id)

    def ids(self) -> frozenset[int]:
        return frozenset(self.records)

    def list_length(self, ref: Ref) -> object:
        """The length of the list at ``ref`` (an int or an Int term; None if it is no list)."""
        record = self.records[ref.id]
        return record.length if isinstance(record, ListRec) else None

    def fresh(self) -> Ref:
        ref = Ref(self.next_id)
        self.next_id += 1
        return ref

    def write(self, ref: Ref, record: Record) -> None:
        self.records[ref.id] = record

    def copy(self) -> ConcreteHeap:
        return ConcreteHeap(self.classes, dict(self.records), self.next_id)


_IMPLEMENTS: type[Heap] = ConcreteHeap  # checked by mypy: ConcreteHeap has every member of the protocol
