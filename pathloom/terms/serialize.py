"""Terms to and from JSON-compatible data (the compose engine's summary store), linear in the
term DAG.

Invariant: every distinct subterm is written once, however many terms share it, and read
back once, so writing and reading take time and space linear in the number of distinct
nodes (a nested JSON object per reference expanded shared subterms once per path: a tree
function's store row grew to 24 GB).

Format: a *table* is a list of nodes, each written after its term arguments; a node is
``{"op": name, "sort": sort, "args": [...]}``, a symbol ``{"op": "sym", "sort": s, "args":
[name]}``. An argument or a root is a *reference*: ``{"t": i}`` (node ``i`` of the table, which
must come before the node that refers to it), ``{"c": value}`` for a concrete bool, int or str
(keeps bool apart from int), ``{"i": hex digits}`` for an int past 2**53 (JSON readers lose
precision there, and Python writes no decimal int past 4,300 digits), or ``{"f":
float.hex(value)}`` for a float (exact, signed zeros, ``inf`` and ``nan`` included). Decoding rebuilds through ``make`` (interning), never through
eval; anything else raises ``ValueError``.

Writing is bounded: ``TermTable`` calls its ``stop`` check every ``CHECK_EVERY`` nodes and
raises ``SerializationStopped`` once it answers true (the deadline passed, Ctrl-C).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pathloom.terms.expr import Arg, Term, make, postorder

JSON = Any

CHECK_EVERY = 1024  # nodes written between two calls of the stop check


class SerializationStopped(Exception):
    """The stop check answered true while a table was being written."""


SAFE_INT = 2**53  # ints at least this large (in absolute value) are written as hex digits


def const_to_json(value: Arg) -> JSON:
    """A concrete value as a reference (``resolve`` reads it back)."""
    if isinstance(value, float):
        return {"f": value.hex()}
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= SAFE_INT:
        return {"i": format(value, "x")}  # hex: no digit limit, exact
    return {"c": value}


class TermTable:
    """Writes terms into one shared node table; ``ref`` gives a term's reference."""

    def __init__(self, stop: Callable[[], bool] | None = None) -> None:
        self.nodes: list[JSON] = []
        self._index: dict[Term, int] = {}
        self._stop = stop

    def ref(self, term: Arg) -> JSON:
        if not isinstance(term, Term):
            return const_to_json(term)
        if term not in self._index:
            for t in postorder(term, self._index):  # iterative: terms can be deeper than the recursion limit
                if self._stop is not None and len(self.nodes) % CHECK_EVERY == 0 and self._stop():
                    raise SerializationStopped
                if t.op == "sym":
                    args: list[JSON] = [t.args[0]]
                else:
                    args = [{"t": self._index[a]} if isinstance(a, Term) else const_to_json(a) for a in t.args]
                self._index[t] = len(self.nodes)
                self.nodes.append({"op": t.op, "sort": t.sort, "args": args})
        return {"t": self._index[term]}


def read_table(nodes: JSON) -> list[Arg]:
    """The terms of a table ``TermTable`` wrote, by index."""
    if not isinstance(nodes, list):
        raise ValueError("a term table must be a list")
    built: list[Arg] = []
    for node in nodes:
        if not isinstance(node, dict):
            raise ValueError("a term node must be an object")
        op, sort, args = node.get("op"), node.get("sort"), node.get("args")
        if not isinstance(op, str) or not isinstance(sort, str) or not isinstance(args, list):
            raise ValueError("bad term JSON")
        if op == "sym":
            if len(args) != 1 or not isinstance(args[0], str):
                raise ValueError("bad symbol in term JSON")
            built.append(make("sym", (args[0],), sort))
        else:
            built.append(make(op, tuple(resolve(built, a) for a in args), sort))
    return built


def resolve(built: list[Arg], ref: JSON) -> Arg:
    """The value of a reference into the table read so far."""
    if not isinstance(ref, dict):
        raise ValueError("a term reference must be an object")
    if "t" in ref:
        index = ref["t"]
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(built):
            raise ValueError("a term reference must name an earlier node")
        return built[index]
    if "f" in ref:
        return float.fromhex(str(ref["f"]))  # ValueError if it is not a float's hex
    if "i" in ref:
        return int(str(ref["i"]), 16)  # ValueError if it is not hex digits
    if "c" in ref:
        value = ref["c"]
        if not isinstance(value, (int, str)):
            raise ValueError("bad constant in term JSON")
        return value
    raise ValueError("bad term reference")


def to_json(term: Arg) -> JSON:
    """One term as ``{"nodes": table, "root": reference}``."""
    table = TermTable()
    root = table.ref(term)
    return {"nodes": table.nodes, "root": root}


def from_json(data: JSON) -> Arg:
    if not isinstance(data, dict):
        raise ValueError("term JSON must be an object")
    return resolve(read_table(data.get("nodes")), data.get("root"))
