"""Memoization trees (the paper's summary trees) and the choice chains paths build them from.

A ``MemoTree`` summarizes one function explored alone, on fresh symbols for its formals. Each
``MemoLeaf`` is one path of that exploration: the conjuncts of its path condition over the
formals (in the order they were added), how it ended (``return``, ``raise``, ``cut`` or
``unknown``), a witness model of its condition, the most frames it had on the stack, and
the choices it took at every conditional (``Branch``/``ForIter``) as two traces: ``full``,
every choice (a normal node per choice, the callees' choices included), and ``compressed``,
where a callee replayed from its own tree is one summary node ``("@", callee, leaf)``
standing for that leaf's choices (the paper's summary nodes). The tree's normal nodes are the
distinct prefixes of the leaves' traces.

Invariants: the leaves' conditions are pairwise disjoint and together cover every value of
the formals (each leaf is one final state of a complete exploration, cuts and unknowns
included), so exactly one leaf holds for any arguments; each witness satisfies its leaf's
condition. Trees serialize to JSON only (terms through ``terms.serialize``), never pickle.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from pathloom.terms.expr import Arg
from pathloom.terms.serialize import TermTable, const_to_json, read_table, resolve

Choice = tuple[Any, ...]  # (qualname, block label, direction) or ("@", callee, leaf index)
SUMMARY = "@"


class Chain:
    """A persistent list of choices (shared by the states a fork creates)."""

    __slots__ = ("item", "length", "prev")

    prev: Chain | None
    item: Choice
    length: int

    def __init__(self, prev: Chain | None, item: Choice) -> None:
        self.prev = prev
        self.item = item
        self.length = 1 + (prev.length if prev is not None else 0)


def push(chain: Chain | None, item: Choice) -> Chain:
    return Chain(chain, item)


def length(chain: Chain | None) -> int:
    return chain.length if chain is not None else 0


def suffix(chain: Chain | None, start: int) -> tuple[Choice, ...]:
    """The choices of ``chain`` after its first ``start`` ones, oldest first."""
    items: list[Choice] = []
    while chain is not None and chain.length > start:
        items.append(chain.item)
        chain = chain.prev
    return tuple(reversed(items))


@dataclass(frozen=True)
class MemoLeaf:
    conjuncts: tuple[Arg, ...]
    outcome: str  # return | raise | cut | unknown
    detail: str | None  # exception type, or why the path was cut
    witness: dict[str, Any]
    frames: int  # the most frames the path had (1: the function alone)
    full: tuple[Choice, ...]
    compressed: tuple[Choice, ...]
    bug: bool = False  # an error path: a failed assert or an implicit exception (the paper's targets)

    @property
    def replayable(self) -> bool:
        """A finished path: its choices hold in every context (a cut or unknown path is
        re-executed in its context instead, where the bound or the solver may decide otherwise)."""
        return self.outcome in ("return", "raise")


@dataclass(frozen=True)
class MemoTree:
    qualname: str
    formals: tuple[tuple[str, str], ...]  # (symbol name, sort) of each parameter, in order
    leaves: tuple[MemoLeaf, ...]

    def nodes(self, compressed: bool) -> int:
        """Normal and summary nodes (the root included) of the tree."""
        return count_nodes(leaf.compressed if compressed else leaf.full for leaf in self.leaves)


def count_nodes(traces: Iterable[tuple[Choice, ...]]) -> int:
    """Nodes of the trie of ``traces`` (its root included), in memory linear in the traces'
    total length (a set of every prefix was quadratic: a fuzzed loop's traces of thousands of
    choices took 23 GB)."""
    root: dict[Choice, dict] = {}  # type: ignore[type-arg]
    nodes = 1
    for trace in traces:
        node = root
        for choice in trace:
            child = node.get(choice)
            if child is None:
                child = node[choice] = {}
                nodes += 1
            node = child
    return nodes


# ---------------------------------------------------------------- JSON


def tree_to_json(tree: MemoTree, stop: Callable[[], bool] | None = None) -> dict[str, Any]:
    """The tree as JSON data: the leaves' conjuncts are references into one term table, so a
    subterm shared by many leaves is written once. ``stop`` is checked as the table grows
    (``serialize.SerializationStopped`` once it answers true)."""
    table = TermTable(stop)
    leaves = [[table.ref(c) for c in leaf.conjuncts] for leaf in tree.leaves]
    return {
        "qualname": tree.qualname,
        "formals": [list(f) for f in tree.formals],
        "terms": table.nodes,
        "leaves": [
            {
                "conjuncts": conjuncts,
                "outcome": leaf.outcome,
                "detail": leaf.detail,
                "witness": {name: const_to_json(value) for name, value in leaf.witness.items()},
                "frames": leaf.frames,
                "full": [list(c) for c in leaf.full],
                "compressed": [list(c) for c in leaf.compressed],
                "bug": leaf.bug,
            }
            for leaf, conjuncts in zip(tree.leaves, leaves)
        ],
    }


def tree_from_json(data: dict[str, Any]) -> MemoTree:
    """The tree ``tree_to_json`` wrote; raises ``ValueError`` on anything else."""
    try:
        terms = read_table(data["terms"])
        leaves = tuple(
            MemoLeaf(
                conjuncts=tuple(resolve(terms, c) for c in leaf["conjuncts"]),
                outcome=str(leaf["outcome"]),
                detail=None if leaf["detail"] is None else str(leaf["detail"]),
                witness={str(k): _plain(resolve([], v)) for k, v in dict(leaf["witness"]).items()},
                frames=int(leaf["frames"]),
                full=tuple(tuple(c) for c in leaf["full"]),
                compressed=tuple(tuple(c) for c in leaf["compressed"]),
                bug=bool(leaf.get("bug", False)),
            )
            for leaf in data["leaves"]
        )
        formals = tuple((str(n), str(s)) for n, s in data["formals"])
        return MemoTree(str(data["qualname"]), formals, leaves)
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"bad memoization tree JSON: {exc}") from None


def _plain(value: Any) -> Any:
    if isinstance(value, (bool, int, str)):
        return value
    raise ValueError("a witness value must be a bool, int or str")
