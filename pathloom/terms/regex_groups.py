"""The groups of ``re.fullmatch(pattern, s, flags)`` and ``re.match`` as pieces of ``s`` (Str
terms), for the top-level groups of a pattern whose split at their boundaries is unique.

A pattern of the modelled subset (``regex_lang``) is a sequence of top-level items
``t_0 ... t_{n-1}``; a capturing group that is one of them (not inside an alternative, a
repeat or another group) spans from boundary ``i`` to boundary ``i + 1`` of the sequence.
``spans`` gives those groups when, at each such boundary ``j``, every string of the pattern's
language splits in one way only into a string of ``t_0 ... t_{j-1}`` followed by one of
``t_j ... t_{n-1}`` (``_unambiguous``, decided on the two automata; for ``match`` the last
item is Σ*, what may follow the match, or an optional newline after a final ``$``, so the
groups must end where nothing after them can take part). The boundaries then cut
a matching ``s`` into pieces in one way only (two such splits would differ at a first
boundary), and sre's match is one such split (a group's span is where the match entered and
left it), so it is that split. ``v?(\\d+)\\.(\\d+)`` and ``(\\d{2})-(\\d{2})`` qualify;
``(a*)(a*)`` does not (sre's greedy choice would have to be modelled), nor ``re.match(r"(\\d+)",
s)`` (more digits may follow), nor any group of ``search`` (where the match starts is free).

``piece(s, pattern, flags, mode, k)`` is the text between the ``k``-th boundary and the next (""
when ``s`` does not match); a group is one piece, its start the lengths of the pieces before
it. The Z3 encoding (``regex_z3.piece``) is a string constant per piece, defined for all the
pieces of one string together: a matching ``s`` is their concatenation, each in its items'
language (Z3 reasons about such word equations and the pieces' own languages far better than
about positions defined by the languages of a prefix and a suffix); ``py_piece`` asks CPython
(``m.span(g)``), and the two agree because the split is unique.

Invariant: for a pattern ``spans`` accepts, ``piece`` is the text CPython's match gives
between those boundaries, for every ``s`` (and "" when it does not match).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from pathloom.terms import expr as T
from pathloom.terms import regex_lang as RL
from pathloom.terms.expr import STR, Arg, Term, make

MAX_PAIRS = 200_000  # state pairs times classes explored per boundary before giving up


@dataclass(frozen=True)
class Spans:
    """The top-level groups: ``groups[g]`` is (start boundary, end boundary); ``size`` the
    number of top-level items (boundary ``size`` is the end of the string); ``names`` the
    named groups' numbers; ``count`` every capturing group of the pattern."""

    groups: dict[int, tuple[int, int]]
    size: int
    names: dict[str, int]
    count: int

    def boundary(self, j: int) -> tuple[int, int]:
        """(group, 0 for its start or 1 for its end) of an inner boundary ``j``."""
        for group, (start, end) in sorted(self.groups.items()):
            if j in (start, end):
                return group, int(j == end)
        raise KeyError(j)


def _items(pattern: str, flags: int, mode: str) -> tuple[RL.Node, ...]:
    """The top-level items of the pattern, then for ``match`` what may follow the match (one
    more item: Σ*, or an optional newline after a final ``$``; none after ``\\Z``):
    ``regex_lang.language``."""
    tree = RL.language(pattern, flags, mode)  # the pattern's items, then what may follow (none after \Z)
    return tuple(tree[1][0][1]) + tuple(tree[1][1:])


@functools.cache
def spans(pattern: str, flags: int, mode: str) -> Spans | None:
    """The groups whose pieces ``piece`` gives, or None (none can be given, the pattern is
    outside the subset, or ``mode`` is ``search``, whose start is free)."""
    if mode not in ("fullmatch", "match"):
        return None
    try:
        items = _items(pattern, flags, mode)
        groups = {item[1]: (i, i + 1) for i, item in enumerate(items) if item[0] == "group" and item[1] > 0}
        boundaries = sorted({j for pair in groups.values() for j in pair} - {0, len(items)})
        for j in boundaries:
            if not _unambiguous(*RL.automata_pair(("seq", items[:j]), ("seq", items[j:]))):
                return None
    except RL.NotModelled:
        return None
    compiled = re.compile(pattern, flags)
    return Spans(groups, len(items), dict(compiled.groupindex), compiled.groups) if groups else None


def _coreachable(a: RL.Dfa, b: RL.Dfa) -> set[tuple[int, int]]:
    """The pairs of states from which one string leads both automata to accept."""
    pairs = [(p, q) for p in range(len(a.step)) for q in range(len(b.step))]
    good = {(p, q) for p, q in pairs if p in a.accepting and q in b.accepting}
    changed = True
    while changed:
        changed = False
        for p, q in pairs:
            if (p, q) not in good and any((a.step[p][c], b.step[q][c]) in good for c in range(len(a.classes))):
                good.add((p, q))
                changed = True
    return good


def _unambiguous(x: RL.Dfa, y: RL.Dfa) -> bool:
    """No string is ``x1 y1 = x2 y2`` with ``x1 != x2`` in L(x) and ``y1, y2`` in L(y): no
    non-empty ``v`` with ``x1, x1 v`` in L(x) and ``v y2, y2`` in L(y). Explores the pairs
    (state of x after ``x1 v``, state of y after ``v``) from the accepting states of x."""
    classes = range(len(x.classes))
    if len(x.step) * len(y.step) * len(x.classes) > MAX_PAIRS or len(y.step) ** 2 * len(x.classes) > MAX_PAIRS:
        return False
    good = _coreachable(y, y)
    seen: set[tuple[int, int]] = set()
    frontier = [(x.step[p][c], y.step[0][c]) for p in x.accepting for c in classes]
    while frontier:
        p, q = frontier.pop()
        if p < 0 or q < 0 or (p, q) in seen:
            continue
        seen.add((p, q))
        if p in x.accepting and (q, 0) in good:
            return False
        frontier.extend((x.step[p][c], y.step[q][c]) for c in classes)
    return True


def segments(pattern: str, flags: int, mode: str) -> tuple[tuple[int, ...], tuple[RL.Node, ...]]:
    """The inner boundaries of the groups ``spans`` gives, in order, and the trees of the items
    between consecutive boundaries (the first from the start, the last to the end)."""
    items = _items(pattern, flags, mode)
    shape = spans(pattern, flags, mode)
    assert shape is not None, pattern
    inner = tuple(sorted({j for pair in shape.groups.values() for j in pair} - {0, len(items)}))
    edges = (0, *inner, len(items))
    return inner, tuple(("seq", items[a:b]) for a, b in zip(edges, edges[1:]))


def _edges(shape: Spans) -> tuple[int, ...]:
    return tuple(sorted({0, shape.size} | {j for pair in shape.groups.values() for j in pair}))


def py_piece(s: str, pattern: str, flags: int, mode: str, k: int) -> str:
    """CPython's piece ``k`` of ``s``: the text between the ``k``-th and the next boundary
    (``segments``; the last piece runs to the end of ``s``), "" when ``s`` does not match."""
    found: re.Match[str] | None = getattr(re.compile(pattern, flags), mode)(s)
    if found is None:
        return ""
    shape = spans(pattern, flags, mode)
    assert shape is not None, pattern  # piece terms are built only for such patterns
    edges = _edges(shape)

    def at(j: int) -> int:
        if j in (0, shape.size):
            return 0 if j == 0 else len(s)
        group, side = shape.boundary(j)
        return found.span(group)[side]

    return s[at(edges[k]) : at(edges[k + 1])]


def piece(s: Arg, pattern: str, flags: int, mode: str, k: int) -> Arg:
    """The term of ``py_piece`` (folds a concrete ``s``)."""
    if not isinstance(s, Term):
        return py_piece(str(s), pattern, flags, mode, k)
    return make("re_piece", (s, pattern, int(flags), mode, k), STR)


def group_span(s: Arg, pattern: str, flags: int, mode: str, group: int, shape: Spans) -> tuple[Arg, Arg, Arg]:
    """(start, end, text) of a group ``spans`` gives, in a matching ``s``: the group is one
    piece; its start the lengths of the pieces before it."""
    edges = _edges(shape)
    k = edges.index(shape.groups[group][0])
    start: Arg = 0
    for before in range(k):
        start = T.add(start, T.str_len(piece(s, pattern, flags, mode, before)))
    text = piece(s, pattern, flags, mode, k)
    return start, T.add(start, T.str_len(text)), text
