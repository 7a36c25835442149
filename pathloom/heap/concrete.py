"""The heap of objects created by the analyzed code (and of list inputs, whose records hold
symbolic lengths and items). One heap per path: ``copy`` is shallow because records are
immutable. Invariant: references are never reused within one heap's history."""

from __future__ import annotations

from pathloom.frontend.ir import ClassInfo
from pathloom.semantics.values import Record, Ref


class ConcreteHeap:
    __slots__ = ("records", "next_id", "classes")

    def __init__(self, classes: dict[str, ClassInfo], records: dict[int, Record] | None = None, next_id: int = 1) -> None:
        self.records: dict[int, Record] = records if records is not None else {}
        self.next_id = next_id
        self.classes = classes

    def record(self, ref: Ref) -> Record:
        return self.records[ref.id]

    def fresh(self) -> Ref:
        ref = Ref(self.next_id)
        self.next_id += 1
        return ref

    def write(self, ref: Ref, record: Record) -> None:
        self.records[ref.id] = record

    def copy(self) -> ConcreteHeap:
        return ConcreteHeap(self.classes, dict(self.records), self.next_id)
