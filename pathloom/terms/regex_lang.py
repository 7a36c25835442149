"""Literal ``re`` patterns as deterministic automata over code points, for the ``re_member``
term: whether ``re.fullmatch``/``re.match``/``re.search(pattern, s, flags)`` finds a match.

The subset modelled (anything else is ``None`` from ``automaton``: the semantics layer then
runs ``re`` in CPython on pinned values, as for any other library call):

- single-character items: literals, ``.``, classes ``[...]`` with ranges, negation and the
  categories ``\\d \\w \\s \\D \\W \\S``; concatenation, alternation, groups (capturing or
  not, with scoped flags), the quantifiers ``* + ? {m,n}`` greedy or lazy (expanded: at most
  ``MAX_NFA`` automaton states in all);
- flags IGNORECASE, ASCII, DOTALL, VERBOSE, UNICODE (global or scoped); MULTILINE only in a
  pattern without anchors;
- the anchors ``^``/``\\A`` first and ``$``/``\\Z`` last in the pattern's top-level
  sequence (not inside a group or an alternative).

Refused: back-references, lookarounds, atomic groups, possessive quantifiers, conditionals,
``\\b``/``\\B``, anchors elsewhere, LOCALE, automata past ``MAX_DFA`` states.

Which characters an item matches is read from CPython's ``re`` itself: the item is written
back as a one-item pattern and searched, under the flags in effect, over a string of every
code point up to ``MAX_CODE`` (one ``finditer``, cached). So ``\\d`` is exactly what sre
calls a decimal digit (``'١'`` included, unless ASCII), ``\\s`` includes ``'\\x1c'``, and
IGNORECASE's equivalences are sre's own (``'ſ'`` matches ``s``, the Kelvin sign ``k``), not
``str.lower``'s. No multi-character case folding exists in sre (``'ß'`` never matches
``ss``), so a sequence matches case-insensitively exactly when each character does.

Why a match exists exactly when ``s`` is in the language: sre is a backtracking matcher that,
on this subset, tries every alternative of every branch and every count of every repeat
before it gives up (greedy and lazy only order the tries). Without back-references,
lookarounds, atomic groups and possessive repeats, nothing cuts that search, and no item's
success depends on what an earlier item consumed. So ``fullmatch`` succeeds exactly when
some way of matching the items consumes all of ``s``, i.e. ``s`` is in L(P); ``match``
exactly when some prefix of ``s`` is in L(P) (``s`` in L(P)·Σ*); ``search`` when some
substring is (Σ*·L(P)·Σ*; a leading ``^``/``\\A`` drops the first Σ*). sre stops a repeat
whose iteration matched the empty string; such an iteration consumes nothing, so stopping
loses no position. A trailing ``\\Z`` drops the last Σ*; a trailing ``$`` (no MULTILINE)
accepts the end or a final ``'\\n'`` (``match``/``search``: L(P)·(ε|\\n); under ``fullmatch``
it changes nothing). ``tests/unit/test_regex_lang.py`` checks the automata against ``re``
on generated patterns and strings, and on the characters where Unicode bites.

Invariant: for every string ``s`` of code points up to ``MAX_CODE``, ``run(automaton(p, f,
mode), s)`` is ``getattr(re.compile(p, f), mode)(s) is not None`` whenever ``automaton``
gives an automaton; ``member`` terms mean exactly that (``py_member``).
"""

from __future__ import annotations

import bisect
import functools
import importlib
import re
from dataclasses import dataclass
from typing import Any, cast

from pathloom.terms import char_classes
from pathloom.terms.char_classes import MAX_CODE, Ranges
from pathloom.terms.expr import BOOL, Arg, Term, make

P: Any = importlib.import_module("re._parser")  # the running CPython's own parser and its opcodes
C: Any = importlib.import_module("re._constants")
MAX_NFA = 2000  # automaton states of the expanded pattern
MAX_DFA = 400  # states of the deterministic automaton
MODES = ("fullmatch", "match", "search")
ALLOWED_FLAGS = re.IGNORECASE | re.ASCII | re.DOTALL | re.VERBOSE | re.UNICODE | re.MULTILINE
_CHAR_FLAGS = re.IGNORECASE | re.ASCII | re.DOTALL | re.UNICODE  # the flags an item's characters depend on
_CATEGORIES = {
    C.CATEGORY_DIGIT: r"\d",
    C.CATEGORY_NOT_DIGIT: r"\D",
    C.CATEGORY_SPACE: r"\s",
    C.CATEGORY_NOT_SPACE: r"\S",
    C.CATEGORY_WORD: r"\w",
    C.CATEGORY_NOT_WORD: r"\W",
}
EVERY: Ranges = ((0, MAX_CODE),)


class NotModelled(Exception):
    """The pattern is outside the subset (the message says what)."""


@dataclass(frozen=True)
class Dfa:
    """A deterministic automaton, start state 0: ``classes`` partitions the code points (each
    a set of ranges), ``step[q][k]`` is the state after a character of class ``k`` in state
    ``q`` (-1: no string from there is accepted); ``universal``: accepting states whose every
    continuation is accepted too."""

    classes: tuple[Ranges, ...]
    step: tuple[tuple[int, ...], ...]
    accepting: frozenset[int]
    universal: frozenset[int]
    starts: tuple[int, ...]  # sorted first code points of the segments of ``classes``...
    segment_class: tuple[int, ...]  # ...and the class of each

    def class_of(self, code: int) -> int:
        return self.segment_class[bisect.bisect_right(self.starts, code) - 1]


@functools.cache
def _every_code_point() -> str:
    return "".join(map(chr, range(MAX_CODE + 1)))


def _escape(code: int) -> str:
    return re.escape(chr(code))


def _item_source(op: object, av: object) -> str:
    """A one-character item written back as pattern text (the parser's own tree)."""
    if op is C.LITERAL:
        return _escape(av)  # type: ignore[arg-type]
    if op is C.NOT_LITERAL:
        return f"[^{_escape(av)}]"  # type: ignore[arg-type]
    if op is C.ANY:
        return "."
    if op is C.IN:
        parts: list[str] = []
        for i, (sub, arg) in enumerate(cast(list[tuple[object, Any]], av)):
            if sub is C.NEGATE and i == 0:
                parts.append("^")
            elif sub is C.LITERAL:
                parts.append(_escape(arg))
            elif sub is C.RANGE:
                parts.append(f"{_escape(arg[0])}-{_escape(arg[1])}")
            elif sub is C.CATEGORY and arg in _CATEGORIES:
                parts.append(_CATEGORIES[arg])
            else:
                raise NotModelled(f"class item {sub}")
        return "[" + "".join(parts) + "]"
    raise NotModelled(str(op))


@functools.cache
def item_chars(source: str, flags: int) -> Ranges:
    """The code points the one-character pattern ``source`` matches under ``flags``, as sre
    decides (one search over every code point)."""
    found: list[tuple[int, int]] = []
    for m in re.compile(source, flags).finditer(_every_code_point()):
        code = m.start()
        if found and found[-1][1] == code - 1:
            found[-1] = (found[-1][0], code)
        else:
            found.append((code, code))
    return tuple(found)


# The pattern as a tree of plain tuples, from which both the automaton and Z3's own regular
# expressions are built: ("chars", ranges) one character of the set; ("seq", nodes);
# ("alt", nodes); ("rep", low, high, node) with high -1 for no bound; ("group", number, node)
# a capturing group (0: a group that does not capture).
Node = tuple[Any, ...]
EPSILON: Node = ("seq", ())
# the character classes of an automaton: their ranges, the items each is in, the segments
Minterms = tuple[tuple[Ranges, ...], list[frozenset[int]], tuple[int, ...], tuple[int, ...]]


def _star(node: Node) -> Node:
    return ("rep", 0, -1, node)


def _items(items: list[tuple[object, object]], flags: int) -> Node:
    return ("seq", tuple(_node(op, av, flags) for op, av in items))


def _node(op: object, av: object, flags: int) -> Node:
    if op in (C.LITERAL, C.NOT_LITERAL, C.ANY, C.IN):
        char_flags = flags & _CHAR_FLAGS
        if char_flags & re.ASCII:
            char_flags &= ~re.UNICODE
        return ("chars", item_chars(_item_source(op, av), char_flags))
    if op is C.SUBPATTERN:
        group, add, remove, inner = cast(tuple[Any, int, int, list[tuple[object, object]]], av)
        return ("group", group or 0, _items(list(inner), _scoped(flags, add, remove)))
    if op is C.BRANCH:
        return ("alt", tuple(_items(list(alternative), flags) for alternative in av[1]))  # type: ignore[index]
    if op in (C.MAX_REPEAT, C.MIN_REPEAT):
        low, high, sub = cast(tuple[int, int, list[tuple[object, object]]], av)
        return ("rep", low, -1 if high == C.MAXREPEAT else high, _items(list(sub), flags))
    raise NotModelled(f"{op} in a pattern")


class _Nfa:
    """A Thompson automaton: ``edges`` (source, item, target) on one character of the item's
    set, ``eps`` empty moves."""

    def __init__(self) -> None:
        self.size = 0
        self.eps: dict[int, list[int]] = {}
        self.edges: list[tuple[int, int, int]] = []
        self.items: dict[Ranges, int] = {}  # the character set -> item id
        self.sets: list[Ranges] = []

    def state(self) -> int:
        self.size += 1
        if self.size > MAX_NFA:
            raise NotModelled(f"more than {MAX_NFA} automaton states")
        return self.size - 1

    def empty(self, a: int, b: int) -> None:
        self.eps.setdefault(a, []).append(b)

    def build(self, start: int, node: Node) -> int:
        """The automaton of ``node`` from ``start``; its end state."""
        kind = node[0]
        if kind == "chars":
            if node[1] not in self.items:
                self.items[node[1]] = len(self.sets)
                self.sets.append(node[1])
            end = self.state()
            self.edges.append((start, self.items[node[1]], end))
            return end
        if kind == "seq":
            for item in node[1]:
                start = self.build(start, item)
            return start
        if kind == "group":
            return self.build(start, node[2])
        if kind == "alt":
            end = self.state()
            for alternative in node[1]:
                self.empty(self.build(start, alternative), end)
            return end
        _, low, high, sub = node
        for _ in range(low):
            start = self.build(start, sub)
        if high < 0:
            loop = self.state()
            self.empty(start, loop)
            self.empty(self.build(loop, sub), loop)
            return loop
        end = self.state()
        for _ in range(high - low):
            self.empty(start, end)
            start = self.build(start, sub)
        self.empty(start, end)
        return end


def _scoped(flags: int, add: int, remove: int) -> int:
    if (add | remove) & ~ALLOWED_FLAGS:
        raise NotModelled("scoped flags")
    return (flags | add) & ~remove


def _anchors(items: list[tuple[object, object]], flags: int) -> tuple[bool, str, list[tuple[object, object]]]:
    """(a leading ``^``/``\\A``, the trailing anchor "$", "Z" or "", the items between)."""
    start = bool(items) and items[0] in ((C.AT, C.AT_BEGINNING), (C.AT, C.AT_BEGINNING_STRING))
    if start:
        items = items[1:]
    end = ""
    if items and items[-1] in ((C.AT, C.AT_END), (C.AT, C.AT_END_STRING)):
        end = "$" if items[-1][1] is C.AT_END else "Z"
        items = items[:-1]
    if (start or end) and flags & re.MULTILINE:
        raise NotModelled("anchors under MULTILINE")
    return start, end, items


def _minterms(sets: list[Ranges]) -> Minterms:
    """The classes of code points no item tells apart: their ranges, the items each is in,
    and the segments (first code point, class) for lookups."""
    points = sorted({0} | {lo for r in sets for lo, _ in r} | {hi + 1 for r in sets for _, hi in r if hi < MAX_CODE})
    inside: list[set[int]] = [set() for _ in points]
    for i, ranges in enumerate(sets):
        for lo, hi in ranges:
            for j in range(bisect.bisect_left(points, lo), bisect.bisect_right(points, hi)):
                inside[j].add(i)
    ids: dict[frozenset[int], int] = {}
    members: list[list[tuple[int, int]]] = []
    seg_class: list[int] = []
    for j, start in enumerate(points):
        end = points[j + 1] - 1 if j + 1 < len(points) else MAX_CODE
        key = frozenset(inside[j])
        if key not in ids:
            ids[key] = len(members)
            members.append([])
        members[ids[key]].append((start, end))
        seg_class.append(ids[key])
    signatures = sorted(ids, key=ids.__getitem__)
    return tuple(char_classes.union(tuple(m), ()) for m in members), signatures, tuple(points), tuple(seg_class)


def _determinize(nfa: _Nfa, start: int, final: int, minterms: Minterms | None = None) -> Dfa:
    classes, signatures, points, seg_class = minterms or _minterms(nfa.sets)
    by_source: dict[int, list[tuple[int, int]]] = {}
    for a, item, b in nfa.edges:
        by_source.setdefault(a, []).append((item, b))

    def closure(states: set[int]) -> frozenset[int]:
        todo = list(states)
        while todo:
            for b in nfa.eps.get(todo.pop(), ()):
                if b not in states:
                    states.add(b)
                    todo.append(b)
        return frozenset(states)

    first = closure({start})
    index = {first: 0}
    order = [first]
    step: list[list[int]] = []
    while len(step) < len(order):
        current = order[len(step)]
        row: list[int] = []
        for signature in signatures:
            target = closure({b for a in current for item, b in by_source.get(a, ()) if item in signature})
            if not target:
                row.append(-1)
                continue
            if target not in index:
                if len(order) >= MAX_DFA:
                    raise NotModelled(f"more than {MAX_DFA} automaton states")
                index[target] = len(order)
                order.append(target)
            row.append(index[target])
        step.append(row)
    accepting = {q for q, states in enumerate(order) if final in states}
    return _prune(classes, step, accepting, points, seg_class)


def _prune(classes: tuple[Ranges, ...], step: list[list[int]], accepting: set[int], points: tuple[int, ...], seg_class: tuple[int, ...]) -> Dfa:
    """Steps into states that accept nothing become -1; universal states found."""
    live = set(accepting)
    changed = True
    while changed:
        changed = False
        for q, row in enumerate(step):
            if q not in live and any(t in live for t in row):
                live.add(q)
                changed = True
    universal = set(accepting)
    changed = True
    while changed:
        changed = False
        for q in list(universal):
            if any(t not in universal for t in step[q]):
                universal.discard(q)
                changed = True
    table = [[t if t in live else -1 for t in row] for row in step]
    block = _minimal_blocks(table, accepting, universal)
    order = sorted(set(block), key=block.index)  # the start state's block first
    number = {b: i for i, b in enumerate(order)}
    rows = {number[block[q]]: tuple(number[block[t]] if t >= 0 else -1 for t in row) for q, row in enumerate(table) if q in live or q == 0}
    merged = tuple(rows.get(i, tuple(-1 for _ in classes)) for i in range(len(order)))
    accept = frozenset(number[block[q]] for q in accepting)
    return Dfa(classes, merged, accept, frozenset(number[block[q]] for q in universal), points, seg_class)


def _minimal_blocks(table: list[list[int]], accepting: set[int], universal: set[int]) -> list[int]:
    """Moore's refinement: the block of each state in the coarsest partition that keeps
    accepting, universal and dead states apart and is closed under steps."""
    block = [(q in accepting) + 2 * (q in universal) for q in range(len(table))]
    while True:
        keys = [(block[q], tuple(block[t] if t >= 0 else -1 for t in row)) for q, row in enumerate(table)]
        ids: dict[tuple[int, tuple[int, ...]], int] = {}
        refined = [ids.setdefault(k, len(ids)) for k in keys]
        if len(ids) == len(set(block)):
            return refined
        block = refined


@functools.cache
def automaton(pattern: str, flags: int, mode: str) -> Dfa | None:
    """The automaton of ``getattr(re, mode)(pattern, s, flags) is not None`` over ``s``, or
    None when the pattern or flags are outside the subset (``explain`` says why)."""
    try:
        return _automaton(pattern, flags, mode)
    except NotModelled:
        return None


def explain(pattern: str, flags: int, mode: str) -> str | None:
    """Why ``automaton`` gives None (None when it does not)."""
    try:
        _automaton(pattern, flags, mode)
    except NotModelled as exc:
        return str(exc)
    return None


@functools.cache
def language(pattern: str, flags: int, mode: str) -> Node:
    """The tree of the strings on which ``re.<mode>(pattern, s, flags)`` finds a match (the
    pattern's own tree with Σ* before it for ``search``, after it for ``match`` and
    ``search``, or a final newline for a trailing ``$``); raises ``NotModelled``."""
    if mode not in MODES:
        raise NotModelled(f"re.{mode}")
    if flags & ~ALLOWED_FLAGS:
        raise NotModelled("flags")  # (DEBUG would print the parse, LOCALE is CPython's ValueError)
    try:
        parsed = P.parse(pattern, flags)
    except (re.error, ValueError) as exc:
        raise NotModelled(f"{type(exc).__name__}: {exc}") from None
    flags = parsed.state.flags
    if flags & ~ALLOWED_FLAGS:
        raise NotModelled("flags")
    anchored, end, items = _anchors(list(parsed), flags)
    parts = [_items(items, flags)]
    if mode == "search" and not anchored:
        parts.insert(0, _star(("chars", EVERY)))
    if mode != "fullmatch" and end == "$":
        parts.append(("rep", 0, 1, ("chars", ((10, 10),))))
    elif mode != "fullmatch" and not end:
        parts.append(_star(("chars", EVERY)))
    return ("seq", tuple(parts))


def _automaton(pattern: str, flags: int, mode: str) -> Dfa:
    return tree_automaton(language(pattern, flags, mode))


@functools.cache
def tree_automaton(tree: Node) -> Dfa:
    """The minimal automaton of the strings of ``tree`` (raises ``NotModelled`` past the
    bounds)."""
    nfa = _Nfa()
    start = nfa.state()
    return _determinize(nfa, start, nfa.build(start, tree))


def automata_pair(x: Node, y: Node) -> tuple[Dfa, Dfa]:
    """The automata of two trees over the same classes of characters."""
    nfa = _Nfa()
    x_start, y_start = nfa.state(), nfa.state()
    x_end, y_end = nfa.build(x_start, x), nfa.build(y_start, y)
    minterms = _minterms(nfa.sets)
    return _determinize(nfa, x_start, x_end, minterms), _determinize(nfa, y_start, y_end, minterms)


def included(a: Node, b: Node) -> bool:
    """Whether every string of tree ``a`` is one of tree ``b`` (no pair of states reachable on
    one string with ``a`` accepting and ``b`` not; -1 is ``b``'s dead state)."""
    x, y = automata_pair(a, b)
    seen: set[tuple[int, int]] = set()
    todo = [(0, 0)]
    while todo:
        p, q = todo.pop()
        if (p, q) in seen:
            continue
        seen.add((p, q))
        if p in x.accepting and q not in y.accepting:
            return False
        todo.extend((x.step[p][c], y.step[q][c] if q >= 0 else -1) for c in range(len(x.classes)) if x.step[p][c] >= 0)
    return True


INT_PLAIN: Node = ("seq", (("rep", 0, 1, ("chars", ((43, 43), (45, 45)))), ("rep", 1, -1, ("chars", ((48, 57),)))))  # [+-]?[0-9]+


@functools.cache
def int_syntax_tree() -> Node:
    """CPython's base-10 ``int`` syntax (``char_classes.int_syntax_pattern``) as a tree."""
    return language(char_classes.int_syntax_pattern().pattern, 0, "fullmatch")


@functools.cache
def ascii_integers_only(pattern: str, flags: int, mode: str) -> bool:
    """Whether every string on which the call finds a match is a sign and ASCII digits
    (``[+-]?[0-9]+``: what ``int(s)``'s model takes symbolically, ``semantics.strings``)."""
    try:
        return mode == "fullmatch" and included(language(pattern, flags, mode), INT_PLAIN)
    except NotModelled:
        return False


def run(dfa: Dfa, s: str) -> bool:
    """Whether the automaton accepts ``s`` (the Python twin of the Z3 encoding)."""
    q = 0
    for c in s:
        if q in dfa.universal:
            return True
        q = dfa.step[q][dfa.class_of(ord(c))]
        if q < 0:
            return False
    return q in dfa.accepting


def py_member(s: str, pattern: str, flags: int, mode: str) -> bool:
    """CPython's answer: ``re.<mode>(pattern, s, flags)`` finds a match."""
    return getattr(re.compile(pattern, flags), mode)(s) is not None


def member(s: Arg, pattern: str, flags: int, mode: str) -> Arg:
    """The term of ``py_member`` (for a pattern ``automaton`` models; folds a concrete ``s``)."""
    if not isinstance(s, Term):
        return py_member(str(s), pattern, flags, mode)
    return make("re_member", (s, pattern, int(flags), mode), BOOL)


def shortest_member(pattern: str, flags: int = 0) -> str | None:
    """A shortest string ``re.fullmatch(pattern, s, flags)`` accepts, each character the least
    code point of its automaton class (``\\s\\s`` gives ``'\\t\\t'``, ``<[^>]*>`` gives
    ``'<>'``): a value the code's own pattern describes, for concretization to try (``Module.
    literals_near``). None when the pattern is outside the subset or accepts nothing."""
    dfa = automaton(pattern, flags, "fullmatch")
    if dfa is None:
        return None
    found: dict[int, str] = {0: ""}
    frontier = [0]
    while frontier:
        following = []
        for state in frontier:
            if state in dfa.accepting:
                return found[state]
            for k, target in enumerate(dfa.step[state]):
                if target >= 0 and target not in found and dfa.classes[k]:
                    found[target] = found[state] + chr(dfa.classes[k][0][0])
                    following.append(target)
        frontier = following
    return None
