"""CPython's iteration order of a set, from the history a ``SetRec`` keeps (``semantics.sets``).

CPython iterates a set in the order of its hash table, which depends on the items' hashes and
on the whole history of the set: insertions, removals leaving dummy slots, resizes, and
copies or merges that lay a table out differently. ``replay`` rebuilds the set by running
that history on real sets in CPython, so its table is CPython's by construction, exactly when
every value the history holds hashes the same in every process (``order_problem`` says when
not: strs, salted per process, and None, hashed by address before Python 3.12).
``known_order`` replays a display of constants the three ways CPython may have built it.
``small_ints_in_order`` is the one symbolic case: a set made only by adding at most
``MAX_SORTED`` ints, each in ``range(table_size(n))``, is in ascending order.
"""

from __future__ import annotations

import marshal
import sys
from collections.abc import Callable

from pathloom.domain.values import Items, PyObj, SetHistory, SetRec, type_name
from pathloom.terms import expr as T
from pathloom.terms.expr import BOOL, INT, Arg, Term


def _deterministic(value: object) -> bool:
    """A value whose hash is the same in every CPython process."""
    if isinstance(value, Term):
        return value.sort in (INT, BOOL)
    if value is None:
        return sys.version_info >= (3, 12)
    if isinstance(value, tuple):
        return all(_deterministic(v) for v in value)
    return type(value) in (int, bool, float)


def history_values(history: SetHistory) -> list[object]:
    """Every value the history holds, each operand's included."""
    found: list[object] = []
    todo: list[SetHistory] = [history]
    while todo:
        node = todo.pop()
        for arg in node.args:
            if isinstance(arg, SetHistory):
                todo.append(arg)
            elif isinstance(arg, Items):
                found.extend(arg.values)
            elif isinstance(arg, PyObj) and isinstance(arg.obj, (set, frozenset)):
                found.extend(arg.obj)
            else:
                found.append(arg)
        if node.parent is not None:
            todo.append(node.parent)
    return found


def _flat(values: list[object]) -> list[object]:
    out: list[object] = []
    for v in values:
        out.extend(_flat(list(v)) if isinstance(v, tuple) else [v])
    return out


def concrete_history(history: SetHistory) -> bool:
    values = history_values(history)
    return all(_deterministic(v) for v in values) and not any(isinstance(v, Term) for v in _flat(values))


def order_problem(history: SetHistory) -> str | None:
    """Why CPython's order of this set cannot be known here, or None."""
    for value in _flat(history_values(history)):
        if not _deterministic(value):
            return f"the iteration order of a set that held a {type_name(value)} (CPython's order depends on the process's hash seed or addresses)"
    return None


_IN_PLACE = {
    "add": "add",
    "discard": "discard",
    "clear": "clear",
    "pop": "pop",
    "update": "update",
    "intersection_update": "intersection_update",
    "difference_update": "difference_update",
    "symmetric_difference_update": "symmetric_difference_update",
    "|=": "__ior__",
    "&=": "__iand__",
    "-=": "__isub__",
    "^=": "__ixor__",
}
_NEW = {
    "copy": "copy",
    "|": "__or__",
    "&": "__and__",
    "-": "__sub__",
    "^": "__xor__",
    "union": "union",
    "intersection": "intersection",
    "difference": "difference",
    "symmetric_difference": "symmetric_difference",
}


# How CPython may have built a display of constants: item by item (not folded), or from the
# frozenset constant of a fresh compile (built from the items in source order), or from the
# one a .pyc holds (marshal writes a frozenset's items sorted by their marshalled bytes and
# reads them back one by one). Which one ran is not known here.
DISPLAY_FORMS = ("adds", "source", "marshal")


def _display(values: list[object], form: str) -> set[object]:
    if form == "adds":
        return set(values)
    constant = frozenset(sorted(values, key=_marshalled) if form == "marshal" else values)
    result: set[object] = set()
    result.update(constant)
    return result


def _marshalled(value: object) -> bytes:
    return marshal.dumps(value)  # type: ignore[arg-type]


def _has_display(history: SetHistory) -> bool:
    todo = [history]
    while todo:
        node = todo.pop()
        if node.op == "display":
            return True
        todo.extend(a for a in node.args if isinstance(a, SetHistory))
        if node.parent is not None:
            todo.append(node.parent)
    return False


def known_order(history: SetHistory, real: Callable[[object], object]) -> set[object] | None:
    """The set ``history`` builds in CPython, when its order is the same however CPython built
    its displays of constants; None when it is not."""
    first = replay(history, real, "adds")
    if not _has_display(history):
        return first
    shown = [(type(x), x) for x in first]
    for form in DISPLAY_FORMS[1:]:
        if [(type(x), x) for x in replay(history, real, form)] != shown:
            return None
    return first


def replay(history: SetHistory, real: Callable[[object], object], form: str = "adds") -> set[object]:
    """The set ``history`` builds, built by CPython (``real`` gives each value's real object;
    ``form``: how a display of constants was built, one of ``DISPLAY_FORMS``)."""
    chain: list[SetHistory] = []
    node = history
    while node.op in _IN_PLACE:
        chain.append(node)
        assert node.parent is not None
        node = node.parent
    if node.op == "real":  # a real set, the left operand of an operator making a new set
        return node.args[0].obj  # type: ignore[attr-defined, no-any-return]
    if node.op == "new":
        result: set[object] = set()
    elif node.op in ("from", "display"):
        items = node.args[0]
        assert isinstance(items, Items)
        values = [real(v) for v in items.values]
        result = set(values) if node.op == "from" else _display(values, form)
    else:
        assert node.parent is not None
        result = getattr(replay(node.parent, real, form), _NEW[node.op])(*(_operand(a, real, form) for a in node.args))
    for step in reversed(chain):
        getattr(result, _IN_PLACE[step.op])(*(_operand(a, real, form) for a in step.args))
    return result


def _operand(arg: object, real: Callable[[object], object], form: str) -> object:
    if isinstance(arg, SetHistory):
        return replay(arg, real, form)
    if isinstance(arg, Items):
        return [real(v) for v in arg.values]
    if isinstance(arg, PyObj):  # a real set operand, never changed by the operation
        return arg.obj
    return real(arg)


from pathloom.semantics.aggregates import network  # noqa: E402  (sorting network of ite terms)

MAX_SORTED = 6  # most items ordered by a sorting network of if-then-else terms


def table_size(count: int) -> int:
    """The size of CPython's hash table after ``count`` distinct items were added one by one
    to a new set (``set_add_entry``: a resize to the smallest power of two above four times
    the items once the table is three fifths full; no item was removed)."""
    mask = 7
    for fill in range(1, count + 1):
        if fill * 5 >= mask * 3:
            size = 8
            while size <= fill * 4:
                size <<= 1
            mask = size - 1
    return mask + 1


def small_ints_in_order(record: SetRec) -> tuple[Arg, tuple[object, ...]] | None:
    """For a set of ints made only by adding (``set(xs)``, a display or comprehension with
    symbolic items, ``add``), of at most ``MAX_SORTED`` items: the condition that every item
    is in ``range(table_size(n))`` and the items in ascending order. Under that condition
    CPython's order is ascending: an int in that range is its own hash, so it sits at its own
    slot (distinct items, distinct slots: no probing; no dummies without removals; a resize
    puts every item back at its own slot), and iteration walks the slots in order."""
    items = record.items
    if len(items) > MAX_SORTED or not all(_is_int(x) for x in items):
        return None
    node: SetHistory | None = record.history
    while node is not None and node.op == "add":
        node = node.parent
    if node is None or node.op not in ("new", "from"):
        return None
    size = table_size(len(items))
    within = T.conj([T.and_(T.le(0, x), T.lt(x, size)) for x in items])  # type: ignore[arg-type]
    return within, network(items)  # type: ignore[arg-type]


def _is_int(value: object) -> bool:
    return (isinstance(value, Term) and value.sort == INT) or type(value) is int


DISPLAY_PROBLEM = (
    "the iteration order of a set built from a display of constants, which depends on whether CPython compiled the module afresh or loaded it from a .pyc"
)
