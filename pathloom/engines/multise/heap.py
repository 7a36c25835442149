"""MultiSE's heap: one value summary per heap cell, read lazily by the shared semantics.

The paper (MultiSE, slides 62-64) keeps a value summary in every object field, so that paths
which differ in one field still share every other field. Here a cell is one part of a heap
record: ``(ref, KIND)`` (``"list"`` or the class name), for lists ``(ref, LEN)`` (the length,
an int or an Int term), ``(ref, CAP)`` (how many item cells the record has: ``len(items)``)
and ``(ref, i)`` for each item, for instances ``(ref, NAMES)`` (attribute names in insertion
order) and ``(ref, ("f", name))`` for each attribute, for dicts (kind ``"dict"``) and sets
(kind ``"set"``) one cell ``(ref, ENTRIES)`` holding the whole immutable ``DictRec`` (``SetRec``): a dict's entries change together
(an insertion moves its size and its keys), so paths that differ in one entry hold two
records.

The semantics sees records (``HeapView.record``). Under one guard, :class:`CellReader` hands
it a :class:`LazyList` or :class:`LazyObj`: a record whose parts are looked up only when the
semantics touches them. A part whose cell holds several values under the guard raises
:class:`NeedSplit` with that cell's summary, and the engine runs the instruction again once
per value (on a narrower guard), so an instruction splits only on the cells it reads. Item
tuples stay lazy under slicing and concatenation (:class:`LazyItems`), so ``xs[i] = v`` reads
no other item.

Invariants: a cell is read only under a guard where it is defined (a reference is reachable
only on paths that wrote its record); :func:`cell_writes` turns a record the semantics wrote
back into the cells that changed, copying an unread cell as a summary, so writing a record
never forces a read.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pathloom.guards.bdd import Guard, GuardManager
from pathloom.guards.summary import ValueSummary, same_value
from pathloom.domain.values import DictRec, ListRec, ObjRec, Record, Ref, SetRec

KIND = "kind"
LEN = "len"
CAP = "cap"
NAMES = "names"
ENTRIES = "entries"
CellKey = tuple[int, object]
CellWrite = tuple[CellKey, object]  # the new value, or a ValueSummary copied from another cell


class NeedSplit(Exception):
    """A cell read under a guard where it has several values: run again per entry."""

    def __init__(self, summary: ValueSummary[Any], key: CellKey) -> None:
        super().__init__()
        self.summary = summary
        self.key = key  # the cell: under each entry's guard it holds that entry's value


class _Cell:
    """An item slot not read yet: cell ``key`` of the heap."""

    __slots__ = ("key",)

    def __init__(self, key: CellKey) -> None:
        self.key = key


class CellReader:
    """Cells as seen under one guard; remembers what it read."""

    def __init__(self, mgr: GuardManager, cells: dict[CellKey, ValueSummary[Any]], guard: Guard) -> None:
        self.mgr = mgr
        self.cells = cells
        self.guard = guard
        self.seen: dict[CellKey, object] = {}

    def value(self, key: CellKey) -> object:
        if key in self.seen:
            return self.seen[key]
        summary = self.cells[key]
        if len(summary) == 1:  # defined wherever it is read (see Invariants)
            value = summary.entries[0][1]
        else:
            restricted = summary.restrict(self.mgr, self.guard)
            if len(restricted) != 1:
                if not restricted.entries:
                    raise AssertionError(f"heap cell {key} read where it is undefined")
                raise NeedSplit(restricted, key)
            value = restricted.entries[0][1]
        self.seen[key] = value
        return value

    def copy(self, key: CellKey) -> ValueSummary[Any]:
        """The summary of a cell under this guard, without choosing a value."""
        if key in self.seen:
            return ValueSummary.single(self.mgr, self.seen[key])
        return self.cells[key].restrict(self.mgr, self.guard)

    def record(self, ref: Ref) -> Record:
        kind = self.value((ref.id, KIND))
        if kind in ("dict", "set"):
            return self.value((ref.id, ENTRIES))  # type: ignore[return-value]
        if kind == "list":
            return LazyList(self, ref.id)
        return LazyObj(self, ref.id, None, ())


class LazyItems:
    """A tuple of list items whose unread slots are cells; slicing and ``+`` stay lazy."""

    __slots__ = ("reader", "slots")
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, reader: CellReader, slots: tuple[object, ...]) -> None:
        self.reader = reader
        self.slots = slots

    def _resolve(self, slot: object) -> object:
        return self.reader.value(slot.key) if isinstance(slot, _Cell) else slot

    def __len__(self) -> int:
        return len(self.slots)

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return LazyItems(self.reader, self.slots[index])
        return self._resolve(self.slots[index])

    def __iter__(self) -> Iterator[object]:
        return (self._resolve(s) for s in self.slots)

    def __mul__(self, times: int) -> LazyItems:
        return LazyItems(self.reader, self.slots * times)

    def __add__(self, other: object) -> LazyItems:
        if isinstance(other, LazyItems):
            return LazyItems(self.reader, self.slots + other.slots)
        if isinstance(other, tuple):
            return LazyItems(self.reader, self.slots + other)
        return NotImplemented

    def __radd__(self, other: object) -> LazyItems:
        if isinstance(other, tuple):
            return LazyItems(self.reader, other + self.slots)
        return NotImplemented

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (tuple, LazyItems)):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"LazyItems({self.slots!r})"


class LazyList(ListRec):
    """A list record read cell by cell."""

    def __init__(self, reader: CellReader, ref_id: int) -> None:
        object.__setattr__(self, "reader", reader)
        object.__setattr__(self, "ref_id", ref_id)

    @property
    def length(self) -> object:
        return self.reader.value((self.ref_id, LEN))  # type: ignore[attr-defined]

    @property
    def items(self) -> LazyItems:  # type: ignore[override]
        ref_id: int = self.ref_id  # type: ignore[attr-defined]
        cap = self.reader.value((ref_id, CAP))  # type: ignore[attr-defined]
        return LazyItems(self.reader, tuple(_Cell((ref_id, i)) for i in range(int(cap))))  # type: ignore[attr-defined]


class LazyObj(ObjRec):
    """An instance record read attribute by attribute; ``with_field`` records overrides."""

    def __init__(self, reader: CellReader, ref_id: int, names: tuple[str, ...] | None, overrides: tuple[tuple[str, object], ...]) -> None:
        object.__setattr__(self, "reader", reader)
        object.__setattr__(self, "ref_id", ref_id)
        object.__setattr__(self, "_names", names)
        object.__setattr__(self, "overrides", overrides)

    def names(self) -> tuple[str, ...]:
        names: tuple[str, ...] | None = self._names  # type: ignore[attr-defined]
        if names is None:
            names = self.reader.value((self.ref_id, NAMES))  # type: ignore[attr-defined]
        return names

    @property
    def cls(self) -> str:
        return self.reader.value((self.ref_id, KIND))  # type: ignore[attr-defined, no-any-return]

    @property
    def fields(self) -> tuple[tuple[str, object], ...]:
        return tuple((name, self.get(name)[1]) for name in self.names())

    def get(self, name: str) -> tuple[bool, object]:
        for key, value in self.overrides:  # type: ignore[attr-defined]
            if key == name:
                return True, value
        if name not in self.names():
            return False, None
        return True, self.reader.value((self.ref_id, ("f", name)))  # type: ignore[attr-defined]

    def with_field(self, name: str, value: object) -> ObjRec:
        names = self.names()
        if name not in names:
            names = names + (name,)
        overrides = tuple((k, v) for k, v in self.overrides if k != name) + ((name, value),)  # type: ignore[attr-defined]
        return LazyObj(self.reader, self.ref_id, names, overrides)  # type: ignore[attr-defined]


def _changed(reader: CellReader | None, key: CellKey, value: object) -> bool:
    return reader is None or key not in reader.seen or not same_value(reader.seen[key], value)


def cell_writes(reader: CellReader | None, ref: Ref, record: Record) -> list[CellWrite]:
    """The cells a write of ``record`` to ``ref`` changes (``reader``: the view the record was
    read through, ``None`` for records built from scratch)."""
    r = ref.id
    writes: list[CellWrite] = []

    def put(key: CellKey, value: object) -> None:
        if _changed(reader, key, value):
            writes.append((key, value))

    if isinstance(record, LazyObj) and record.ref_id == r and record.reader is reader:  # type: ignore[attr-defined]
        if record._names is not None:  # type: ignore[attr-defined]
            put((r, NAMES), record._names)  # type: ignore[attr-defined]
        for name, value in record.overrides:  # type: ignore[attr-defined]
            put((r, ("f", name)), value)
        return writes
    if isinstance(record, ObjRec):
        put((r, KIND), record.cls)
        put((r, NAMES), tuple(name for name, _ in record.fields))
        for name, value in record.fields:
            put((r, ("f", name)), value)
        return writes
    if isinstance(record, LazyList) and record.ref_id == r and record.reader is reader:  # type: ignore[attr-defined]
        return writes
    if isinstance(record, (DictRec, SetRec)):
        put((r, KIND), record.cls)
        put((r, ENTRIES), record)
        return writes
    put((r, KIND), "list")
    put((r, LEN), record.length)
    items = record.items
    slots: tuple[object, ...] = items.slots if isinstance(items, LazyItems) else tuple(items)
    put((r, CAP), len(slots))
    for i, slot in enumerate(slots):
        if isinstance(slot, _Cell):
            if slot.key != (r, i):
                assert reader is not None
                writes.append(((r, i), reader.copy(slot.key)))
        else:
            put((r, i), slot)
    return writes
