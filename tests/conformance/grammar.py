"""The grammar coverage table: every Python syntax form, and what pathloom does with it.

Invariant (checked by ``test_grammar.py``):

* every concrete ``ast`` node class of the running Python has a row (a ``Row`` whose ``node``
  is that class) or is in ``NOT_NODES`` with the reason it cannot occur inside the body of a
  function pathloom analyses;
* every row is either modelled exactly in every engine (dse, multise, compose: the target's
  status is "complete" or "incomplete", a bound, and every input it reports replays in
  CPython) or refused with the one line ``rows.py:LINE:COL: unsupported: <what>`` (status
  "unsupported"), by the engines its ``refused_by`` names; a row that some engines refuse
  and others model names the refusing ones in ``refused_by`` and the others must model it;
  or cut (status "cut": a statement pathloom does not model, inside a function it explores:
  every engine explores the function, a path that reaches the form is cut with kind
  ``unsupported`` and reason ``unsupported: <what>``, and its input replays in CPython);
* the random-program generator (``tests.differential.progen``) writes every modelled row's
  form: ``row.fuzz`` is the feature tag under which it does (a tag may stand for a choice
  among a few forms, e.g. ``compare`` for the six comparison operators), except the rows
  named in ``NOT_YET_FUZZED``, the honest gap list, which only shrinks.

Every row's ``source`` is one top-level function named ``row.name`` with typed parameters
(``int``, ``bool``, ``str``, ``list[int]``), so that its paths are symbolic where the form
allows; it may use the helpers defined once in ``HEADER``. The statuses are what pathloom
does today, found by running all rows as one module (``module_source()``) with each engine:

    pathloom explore rows.py --engine ENGINE --verify --json ENGINE.json --quiet \\
        --timeout 20 --max-iterations 4 --max-list-len 3

A refused or cut row carries the refusal's text in a comment above it. When pathloom learns a form,
flip its row to ``MODELLED`` and give it a ``fuzz`` tag once progen writes it (or add its name
to ``NOT_YET_FUZZED``); when a new Python adds node classes, the coverage test names them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathloom.engines.registry import engine_names

ENGINES: tuple[str, ...] = tuple(engine_names())
MODELLED = "modelled"
REFUSED = "refused"
CUT = "cut"


def slug(shape: str) -> str:
    """The identifier part of a shape: ``"one-name tuple target"`` -> ``one_name_tuple_target``."""
    return re.sub(r"[^0-9A-Za-z]+", "_", shape).strip("_")


@dataclass(frozen=True)
class Row:
    node: str  # the ast class name in Python 3.11, e.g. "Assign", "Starred", "MatchClass", "Add"
    shape: str  # which form of it, e.g. "one-name tuple target"
    source: str  # one top-level function named self.name that uses the form (HEADER in scope)
    status: str  # MODELLED, REFUSED or CUT
    fuzz: str | None = None  # the progen feature tag under which the generator writes this form
    refused_by: tuple[str, ...] = ENGINES  # REFUSED rows: the engines that refuse it (the others model it)

    @property
    def name(self) -> str:
        return f"g_{self.node}_{slug(self.shape)}"


def module_source() -> str:
    """``HEADER`` and every row's function: the module the statuses were measured on."""
    return "\n\n".join([HEADER] + [row.source for row in ROWS])


# Module-level helpers the rows use. pathloom analyses HEADER's own functions and methods too;
# they are no rows (``twice``, unannotated, and the async ones are refused, the rest modelled).
# "super() in a method" relies on ``Child.size``: a top-level function cannot call super().
HEADER = """\
import contextlib
import enum
import functools
import itertools
from dataclasses import dataclass
from typing import Iterator


def one(a: int) -> tuple[int]:
    return (a,)


def add3(a: int, b: int, c: int) -> int:
    return a + 2 * b + 3 * c


def count_up(n: int) -> Iterator[int]:
    for k in range(3):
        if k < n:
            yield k


def twice(fn):
    def wrapped(a: int) -> int:
        return fn(a) * 2
    return wrapped


def keep(fn):
    return fn


def logged(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs) + 1
    return wrapper


COUNTER = 0


class Oops(ValueError):
    pass


class Box:
    def __init__(self, v: int) -> None:
        self.v = v

    def get(self) -> int:
        return self.v


class Base:
    def __init__(self, v: int) -> None:
        self.v = v

    def size(self) -> int:
        return self.v + 1


class Child(Base):
    def size(self) -> int:
        return super().size() * 2


@dataclass
class Point:
    x: int
    y: int


class Color(enum.Enum):
    RED = 1
    GREEN = 2


@dataclass(frozen=True)
class Frozen:
    x: int
    y: int


class Vec:
    def __init__(self, v: int) -> None:
        self.v = v

    def __matmul__(self, other: "Vec") -> int:
        return self.v * other.v


class Guard:
    def __init__(self, log: list[int]) -> None:
        self.log = log

    def __enter__(self) -> int:
        self.log.append(1)
        return len(self.log)

    def __exit__(self, kind: object, value: object, tb: object) -> bool:
        self.log.append(2)
        return False


class Swallow:
    def __init__(self, log: list[int]) -> None:
        self.log = log

    def __enter__(self) -> int:
        return len(self.log)

    def __exit__(self, kind: object, value: object, tb: object) -> bool:
        self.log.append(3)
        return kind is ZeroDivisionError


async def ready(a: int) -> int:
    return a


async def ticks(n: int):
    for k in range(n):
        yield k


class AGuard:
    async def __aenter__(self) -> int:
        return 1

    async def __aexit__(self, kind: object, value: object, tb: object) -> bool:
        return False
"""


ROWS: tuple[Row, ...] = (
    # ------------------------------ assignment targets
    Row(
        "Assign",
        "name target",
        """\
def g_Assign_name_target(x: int) -> int:
    r = x + 1
    if r > 3:
        return r
    return -r
""",
        MODELLED,
        "assign",
    ),
    Row(
        "Assign",
        "one-name tuple target",
        """\
def g_Assign_one_name_tuple_target(x: int) -> int:
    r, = one(x)
    if r > 0:
        return r
    return 0
""",
        MODELLED,
        "unpack_one",
    ),
    Row(
        "Assign",
        "parenthesised one-name tuple target",
        """\
def g_Assign_parenthesised_one_name_tuple_target(xs: list[int]) -> int:
    (r,) = xs
    return r + 1
""",
        MODELLED,
        "unpack_one",
    ),
    Row(
        "Assign",
        "one-name list target",
        """\
def g_Assign_one_name_list_target(xs: list[int]) -> int:
    [y] = xs
    return y * 2
""",
        MODELLED,
        "unpack_one",
    ),
    Row(
        "Assign",
        "two-name tuple target",
        """\
def g_Assign_two_name_tuple_target(x: int) -> int:
    a, b = x, x - 1
    if a > 2:
        return a + 2 * b
    return b
""",
        MODELLED,
        "tuple_unpack",
    ),
    Row(
        "Assign",
        "swap",
        """\
def g_Assign_swap(x: int, y: int) -> int:
    a, b = x, y
    a, b = b, a
    return a - b
""",
        MODELLED,
        "swap",
    ),
    Row(
        "Assign",
        "nested tuple target",
        """\
def g_Assign_nested_tuple_target(x: int, xs: list[int]) -> int:
    (a, b), c = (x, 1), xs[0]
    if a > c:
        return a + b
    return c
""",
        MODELLED,
    ),
    Row(
        "Assign",
        "two-name list target",
        """\
def g_Assign_two_name_list_target(xs: list[int]) -> int:
    [a, b] = xs
    return a - b
""",
        MODELLED,
    ),
    Row(
        "Assign",
        "attribute target",
        """\
def g_Assign_attribute_target(x: int) -> int:
    b = Box(0)
    b.v = x + 1
    if b.get() > 2:
        return 1
    return 0
""",
        MODELLED,
        "field_write",
    ),
    Row(
        "Assign",
        "subscript target",
        """\
def g_Assign_subscript_target(x: int, xs: list[int]) -> int:
    xs[0] = x
    return sum(xs)
""",
        MODELLED,
    ),
    Row(
        "Assign",
        "dict subscript target",
        """\
def g_Assign_dict_subscript_target(x: int, s: str) -> int:
    d = {"a": 1}
    d[s] = x
    return d["a"] + len(d)
""",
        MODELLED,
    ),
    Row(
        "Assign",
        "slice target",
        """\
def g_Assign_slice_target(x: int, xs: list[int]) -> int:
    xs[1:2] = [x, x]
    return sum(xs) + len(xs)
""",
        MODELLED,
        "slice_assign",
    ),
    Row(
        "Assign",
        "extended slice target",
        """\
def g_Assign_extended_slice_target(x: int, xs: list[int]) -> int:
    xs[::2] = [x]
    return sum(xs)
""",
        MODELLED,
        "slice_assign_step",
    ),
    Row(
        "Assign",
        "chained assignment",
        """\
def g_Assign_chained_assignment(x: int) -> int:
    a = b = x
    a += 1
    if b > 0:
        return a - b
    return b
""",
        MODELLED,
    ),
    Row(
        "Assign",
        "tuple target whose subscript reads an earlier target",
        """\
def g_Assign_tuple_target_whose_subscript_reads_an_earlier_target(x: int, xs: list[int]) -> int:
    i, xs[i] = 1, x
    return xs[1] + i
""",
        MODELLED,
    ),
    Row(
        "Assign",
        "chained assignment whose subscript reads the first target",
        """\
def g_Assign_chained_assignment_whose_subscript_reads_the_first_target(x: int, xs: list[int]) -> int:
    x = xs[x] = 0
    return sum(xs) + x
""",
        MODELLED,
    ),
    Row(
        "Assign",
        "same name twice in a target",
        """\
def g_Assign_same_name_twice_in_a_target(x: int, y: int) -> int:
    a, a = x, y
    return a
""",
        MODELLED,
    ),
    Row(
        "Assign",
        "subscript swap",
        """\
def g_Assign_subscript_swap(xs: list[int]) -> int:
    xs[0], xs[1] = xs[1], xs[0]
    return xs[0] - xs[1]
""",
        MODELLED,
    ),
    Row(
        "Assign",
        "tuple target from a str",
        """\
def g_Assign_tuple_target_from_a_str(s: str) -> str:
    a, b = s
    return b + a
""",
        MODELLED,
    ),
    Row(
        "AnnAssign",
        "with value",
        """\
def g_AnnAssign_with_value(x: int) -> int:
    r: int = x * 2
    if r > 4:
        return r
    return 0
""",
        MODELLED,
    ),
    Row(
        "AnnAssign",
        "without value",
        """\
def g_AnnAssign_without_value(x: int, p: bool) -> int:
    r: int
    if p:
        r = x
    else:
        r = -x
    return r
""",
        MODELLED,
    ),
    Row(
        "AnnAssign",
        "attribute target",
        """\
def g_AnnAssign_attribute_target(x: int) -> int:
    b = Box(0)
    b.v: int = x
    return b.get()
""",
        MODELLED,
    ),
    Row(
        "AugAssign",
        "name target",
        """\
def g_AugAssign_name_target(x: int) -> int:
    r = 1
    r += x
    r -= 2
    r *= 3
    if r > 0:
        return r
    return -r
""",
        MODELLED,
        "augassign:+=",
    ),
    Row(
        "AugAssign",
        "attribute target",
        """\
def g_AugAssign_attribute_target(x: int) -> int:
    b = Box(x)
    b.v += 2
    if b.v > 5:
        b.v *= 3
    return b.v
""",
        MODELLED,
    ),
    Row(
        "AugAssign",
        "subscript target",
        """\
def g_AugAssign_subscript_target(x: int, xs: list[int]) -> int:
    xs[0] += x
    return xs[0]
""",
        MODELLED,
    ),
    Row(
        "AugAssign",
        "dict subscript target",
        """\
def g_AugAssign_dict_subscript_target(x: int, s: str) -> int:
    d = {"a": 1, "b": 2}
    d[s] += x
    return d["a"]
""",
        MODELLED,
        "defaultdict_incr",
    ),
    Row(
        "AugAssign",
        "every other operator",
        """\
def g_AugAssign_every_other_operator(x: int, y: int) -> int:
    r = x
    r //= 3
    r %= 7
    r **= 2
    r <<= 1
    r >>= 1
    r |= 1
    r &= 13
    r ^= 5
    if y > r:
        return r
    return y
""",
        MODELLED,
    ),
    Row(
        "AugAssign",
        "list extend",
        """\
def g_AugAssign_list_extend(x: int, xs: list[int]) -> int:
    ys = [x]
    ys += xs
    return len(ys) + ys[-1]
""",
        MODELLED,
    ),
    Row(
        "AugAssign",
        "str concatenation",
        """\
def g_AugAssign_str_concatenation(s: str, t: str) -> int:
    u = s
    u += t
    if u == "ab":
        return 1
    return len(u)
""",
        MODELLED,
    ),
    # cut: augmented assignment to a slice (xs[a:b] += ...)
    Row(
        "AugAssign",
        "slice target",
        """\
def g_AugAssign_slice_target(x: int, xs: list[int]) -> int:
    xs[1:] += [x]
    return len(xs) + xs[-1]
""",
        CUT,
    ),
    Row(
        "AugAssign",
        "list extend through an alias",
        """\
def g_AugAssign_list_extend_through_an_alias(x: int, xs: list[int]) -> int:
    ys = xs
    ys += [x]
    zs = xs
    zs = zs + [x]
    return len(xs) * 10 + len(zs)
""",
        MODELLED,
    ),
    Row(
        "Starred",
        "starred assignment target",
        """\
def g_Starred_starred_assignment_target(xs: list[int]) -> int:
    a, *rest = xs
    return a + len(rest)
""",
        MODELLED,
        fuzz="unpack_star",
    ),
    Row(
        "Starred",
        "starred first assignment target",
        """\
def g_Starred_starred_first_assignment_target(xs: list[int]) -> int:
    *init, last = xs
    if init:
        return last - init[0]
    return last
""",
        MODELLED,
        fuzz="unpack_star",
    ),
    Row(
        "Starred",
        "starred for target",
        """\
def g_Starred_starred_for_target(x: int) -> int:
    t = 0
    for a, *rest in [(x, 1, 2), (3, x)]:
        t += a + len(rest)
    return t
""",
        MODELLED,
    ),
    Row(
        "Starred",
        "starred comprehension target",
        """\
def g_Starred_starred_comprehension_target(x: int) -> int:
    ys = [a + len(r) for a, *r in [(x, 1), (2, 3, x)]]
    return ys[0] if ys[1] > 3 else ys[1]
""",
        MODELLED,
    ),
    Row(
        "Starred",
        "starred argument",
        """\
def g_Starred_starred_argument(xs: list[int]) -> int:
    return add3(*xs)
""",
        MODELLED,
        fuzz="star_call",
    ),
    Row(
        "Starred",
        "starred arguments to a method, a constructor and a builtin",
        """\
def g_Starred_starred_arguments_to_a_method_a_constructor_and_a_builtin(x: int, xs: list[int]) -> int:
    b = Box(*xs[:1])
    return b.get(*()) + max(*xs, x) + add3(x, *xs[1:], **{"c": 1})
""",
        MODELLED,
        fuzz="star_call_builtin",
    ),
    Row(
        "Starred",
        "starred argument that is not iterable",
        """\
def g_Starred_starred_argument_that_is_not_iterable(x: int, xs: list[int]) -> int:
    if x > 0:
        return add3(*x)
    return add3(x, *xs, *x)
""",
        MODELLED,
    ),
    Row(
        "Starred",
        "starred item in a list display",
        """\
def g_Starred_starred_item_in_a_list_display(x: int, xs: list[int]) -> int:
    ys = [*xs, x]
    return ys[0] + len(ys)
""",
        MODELLED,
        fuzz="star_list",
    ),
    Row(
        "Starred",
        "starred item in a tuple display",
        """\
def g_Starred_starred_item_in_a_tuple_display(x: int, xs: list[int]) -> int:
    t = (x, *xs)
    return t[-1] + len(t)
""",
        MODELLED,
        fuzz="star_tuple",
    ),
    Row(
        "Starred",
        "starred item in a set display",
        """\
def g_Starred_starred_item_in_a_set_display(x: int, xs: list[int]) -> int:
    return len({*xs, x})
""",
        MODELLED,
        fuzz="star_set",
    ),
    Row(
        "Starred",
        "starred str, range, dict and tuple items",
        """\
def g_Starred_starred_str_range_dict_and_tuple_items(x: int, s: str) -> int:
    ys = [*s, *range(x % 3), *{x: 1, 2: 3}, *(x, s)]
    return len(ys) + ys.count(x)
""",
        MODELLED,
        fuzz="star_kinds",
    ),
    Row(
        "Starred",
        "starred item that is not iterable",
        """\
def g_Starred_starred_item_that_is_not_iterable(x: int, xs: list[int]) -> int:
    if x > 2:
        return len([*xs, *x])
    return len({*xs, *x}) if x < -2 else x
""",
        MODELLED,
    ),
    # ------------------------------ for / while
    Row(
        "For",
        "name target",
        """\
def g_For_name_target(x: int, xs: list[int]) -> int:
    t = 0
    for v in xs:
        if v > x:
            t += 1
    return t
""",
        MODELLED,
        "for_list",
    ),
    Row(
        "For",
        "tuple target",
        """\
def g_For_tuple_target(x: int, xs: list[int]) -> int:
    for i, v in enumerate(xs):
        if v == x:
            return i
    return -1
""",
        MODELLED,
        "for_enumerate",
    ),
    Row(
        "For",
        "one-name tuple target",
        """\
def g_For_one_name_tuple_target(xs: list[int]) -> int:
    t = 0
    for (v,) in zip(xs):
        t += v
    return t
""",
        MODELLED,
        "unpack_one_for",
    ),
    Row(
        "For",
        "one-name tuple target without parentheses",
        """\
def g_For_one_name_tuple_target_without_parentheses(xs: list[int]) -> int:
    t = 0
    for v, in zip(xs):
        if v > 1:
            t += v
    return t
""",
        MODELLED,
        "unpack_one_for",
    ),
    Row(
        "For",
        "nested tuple target",
        """\
def g_For_nested_tuple_target(xs: list[int]) -> int:
    t = 0
    for i, (a, b) in enumerate(zip(xs, xs)):
        if a > i:
            t += a + b
    return t
""",
        MODELLED,
    ),
    Row(
        "For",
        "list target",
        """\
def g_For_list_target(x: int) -> int:
    t = 0
    for [a, b] in [(x, 1), (2, x)]:
        t += a * b
    return t
""",
        MODELLED,
    ),
    Row(
        "For",
        "attribute target",
        """\
def g_For_attribute_target(xs: list[int]) -> int:
    b = Box(0)
    t = 0
    for b.v in xs:
        t += b.get()
    return t
""",
        MODELLED,
    ),
    Row(
        "For",
        "subscript target",
        """\
def g_For_subscript_target(xs: list[int]) -> int:
    ys = [0, 0]
    for ys[1] in xs:
        ys[0] += ys[1]
    return ys[0]
""",
        MODELLED,
    ),
    Row(
        "For",
        "range",
        """\
def g_For_range(x: int) -> int:
    t = 0
    for k in range(3):
        if k < x:
            t += k
    return t
""",
        MODELLED,
        "for_range",
    ),
    Row(
        "For",
        "str iteration",
        """\
def g_For_str_iteration(s: str) -> int:
    n = 0
    for ch in s:
        if ch == "a":
            n += 1
    return n
""",
        MODELLED,
        "for_str",
    ),
    Row(
        "For",
        "for/else",
        """\
def g_For_for_else(x: int, xs: list[int]) -> int:
    for v in xs:
        if v == x:
            break
    else:
        return -1
    return 1
""",
        MODELLED,
    ),
    Row(
        "For",
        "nested loops",
        """\
def g_For_nested_loops(xs: list[int]) -> int:
    t = 0
    for a in xs:
        for b in xs:
            if a < b:
                t += 1
    return t
""",
        MODELLED,
        "nested_loop",
    ),
    Row(
        "For",
        "loop variable read after the loop",
        """\
def g_For_loop_variable_read_after_the_loop(xs: list[int]) -> int:
    for v in xs:
        pass
    return v
""",
        MODELLED,
    ),
    Row(
        "For",
        "iterating a list that grows",
        """\
def g_For_iterating_a_list_that_grows(x: int, xs: list[int]) -> int:
    n = 0
    for v in xs:
        n += 1
        if len(xs) < 3 and v > x:
            xs.append(v - 1)
    return n
""",
        MODELLED,
    ),
    Row(
        "While",
        "counter loop",
        """\
def g_While_counter_loop(x: int) -> int:
    i = 0
    while i < x and i < 4:
        i += 1
    return i
""",
        MODELLED,
        "while",
    ),
    Row(
        "While",
        "while/else",
        """\
def g_While_while_else(x: int) -> int:
    i = 0
    while i < 3:
        if i == x:
            break
        i += 1
    else:
        return -1
    return i
""",
        MODELLED,
    ),
    Row(
        "While",
        "while True with break",
        """\
def g_While_while_True_with_break(x: int) -> int:
    i = 0
    while True:
        i += 1
        if i >= x or i > 3:
            break
    return i
""",
        MODELLED,
    ),
    Row(
        "While",
        "while/else with continue",
        """\
def g_While_while_else_with_continue(x: int) -> int:
    i = 0
    t = 0
    while i < 3:
        i += 1
        if i == x:
            continue
        t += i
    else:
        t += 100
    return t
""",
        MODELLED,
    ),
    Row(
        "Break",
        "break out of a for loop",
        """\
def g_Break_break_out_of_a_for_loop(xs: list[int]) -> int:
    t = 0
    for v in xs:
        if v < 0:
            break
        t += v
    return t
""",
        MODELLED,
        "break",
    ),
    Row(
        "Break",
        "break inside try",
        """\
def g_Break_break_inside_try(xs: list[int]) -> int:
    t = 0
    for v in xs:
        try:
            t += 10 // v
        except ZeroDivisionError:
            break
    return t
""",
        MODELLED,
    ),
    Row(
        "Continue",
        "continue in a for loop",
        """\
def g_Continue_continue_in_a_for_loop(xs: list[int]) -> int:
    t = 0
    for v in xs:
        if v < 0:
            continue
        t += v
    return t
""",
        MODELLED,
        "continue",
    ),
    # ------------------------------ comprehensions
    Row(
        "ListComp",
        "list comprehension",
        """\
def g_ListComp_list_comprehension(x: int, xs: list[int]) -> int:
    ys = [v * 2 for v in xs]
    if x in ys:
        return len(ys)
    return -1
""",
        MODELLED,
        "listcomp",
    ),
    Row(
        "SetComp",
        "set comprehension",
        """\
def g_SetComp_set_comprehension(xs: list[int]) -> int:
    return len({v % 3 for v in xs})
""",
        MODELLED,
        "setcomp",
    ),
    Row(
        "DictComp",
        "dict comprehension",
        """\
def g_DictComp_dict_comprehension(x: int, xs: list[int]) -> int:
    d = {v: v * 2 for v in xs}
    return d.get(x, -1)
""",
        MODELLED,
    ),
    Row(
        "GeneratorExp",
        "generator expression summed",
        """\
def g_GeneratorExp_generator_expression_summed(x: int, xs: list[int]) -> int:
    return sum(v for v in xs if v > x)
""",
        MODELLED,
        "genexp_sum",
    ),
    Row(
        "GeneratorExp",
        "generator expression in any",
        """\
def g_GeneratorExp_generator_expression_in_any(x: int, xs: list[int]) -> bool:
    return any(v == x for v in xs)
""",
        MODELLED,
        "genexp_anyall",
    ),
    Row(
        "GeneratorExp",
        "generator expression in min",
        """\
def g_GeneratorExp_generator_expression_in_min(xs: list[int]) -> int:
    return min(v * 2 for v in xs)
""",
        MODELLED,
        "genexp_minmax",
    ),
    Row(
        "GeneratorExp",
        "for over a generator expression",
        """\
def g_GeneratorExp_for_over_a_generator_expression(x: int, xs: list[int]) -> int:
    total = 0
    for v in (w * 2 for w in xs if w != x):
        if v > 4:
            break
        total += v
    else:
        total = -total
    return total
""",
        MODELLED,
        "for_genexp",
    ),
    # cut: generator expression outside list(), tuple(), set(), sorted(), sum(), min(), max(), any(), all() and 'sep'.join()
    Row(
        "GeneratorExp",
        "generator expression bound to a name",
        """\
def g_GeneratorExp_generator_expression_bound_to_a_name(xs: list[int]) -> int:
    g = (v + 1 for v in xs)
    return sum(g) + sum(g)
""",
        CUT,
    ),
    Row(
        "comprehension",
        "name target",
        """\
def g_comprehension_name_target(xs: list[int]) -> int:
    return len([v for v in xs])
""",
        MODELLED,
        "listcomp",
    ),
    Row(
        "comprehension",
        "with an if",
        """\
def g_comprehension_with_an_if(x: int, xs: list[int]) -> int:
    return len([v for v in xs if v > x])
""",
        MODELLED,
        "comprehension_filter",
    ),
    Row(
        "comprehension",
        "with two ifs",
        """\
def g_comprehension_with_two_ifs(x: int, xs: list[int]) -> int:
    return len([v for v in xs if v > x if v < 5])
""",
        MODELLED,
    ),
    Row(
        "comprehension",
        "two for clauses",
        """\
def g_comprehension_two_for_clauses(xs: list[int]) -> int:
    return len([(a, b) for a in xs for b in xs if a < b])
""",
        MODELLED,
    ),
    Row(
        "comprehension",
        "tuple target",
        """\
def g_comprehension_tuple_target(xs: list[int]) -> int:
    return sum([i * v for i, v in enumerate(xs)])
""",
        MODELLED,
    ),
    Row(
        "comprehension",
        "one-name tuple target",
        """\
def g_comprehension_one_name_tuple_target(xs: list[int]) -> int:
    rows = [(v,) for v in xs]
    return sum([v + 1 for v, in rows])
""",
        MODELLED,
        "unpack_one_comp",
    ),
    Row(
        "comprehension",
        "nested tuple target",
        """\
def g_comprehension_nested_tuple_target(xs: list[int]) -> int:
    return sum([a * b + i for i, (a, b) in enumerate(zip(xs, xs))])
""",
        MODELLED,
    ),
    Row(
        "comprehension",
        "over a str",
        """\
def g_comprehension_over_a_str(s: str) -> str:
    return "".join([ch for ch in s if ch != "a"])
""",
        MODELLED,
        "join",
    ),
    Row(
        "comprehension",
        "variable shadowing a parameter",
        """\
def g_comprehension_variable_shadowing_a_parameter(x: int, xs: list[int]) -> int:
    ys = [x for x in xs]
    return x + len(ys)
""",
        MODELLED,
    ),
    # ------------------------------ calls and definitions
    Row(
        "Call",
        "positional arguments",
        """\
def g_Call_positional_arguments(x: int) -> int:
    if add3(x, 1, 2) > 10:
        return 1
    return 0
""",
        MODELLED,
        "helper_call",
    ),
    Row(
        "Call",
        "keyword arguments",
        """\
def g_Call_keyword_arguments(x: int) -> int:
    return add3(x, c=1, b=2)
""",
        MODELLED,
        "dataclass_kw",
    ),
    Row(
        "Call",
        "method call",
        """\
def g_Call_method_call(x: int) -> int:
    b = Box(x)
    if b.get() > 2:
        return b.get()
    return 0
""",
        MODELLED,
        "method_call",
    ),
    Row(
        "Call",
        "builtin calls",
        """\
def g_Call_builtin_calls(x: int, xs: list[int]) -> int:
    return len(xs) + abs(x) + min(x, 3)
""",
        MODELLED,
        "len_list",
    ),
    Row(
        "Call",
        "constructor call",
        """\
def g_Call_constructor_call(x: int) -> int:
    p = Point(x, 2)
    return p.x + p.y
""",
        MODELLED,
        "heap:new_node",
    ),
    Row(
        "Call",
        "super() in a method",
        """\
def g_Call_super_in_a_method(x: int) -> int:
    c = Child(x)
    if c.size() > 4:
        return 1
    return 0
""",
        MODELLED,
    ),
    Row(
        "Call",
        "two-argument super()",
        """\
def g_Call_two_argument_super(x: int) -> int:
    c = Child(x)
    return super(Child, c).size()
""",
        MODELLED,
    ),
    Row(
        "keyword",
        "keyword argument",
        """\
def g_keyword_keyword_argument(x: int) -> int:
    p = Point(x=x, y=2)
    return p.x * p.y
""",
        MODELLED,
        "dataclass_kw",
    ),
    Row(
        "keyword",
        "double-starred argument",
        """\
def g_keyword_double_starred_argument(x: int) -> int:
    kw = {"b": x, "c": 1}
    return add3(0, **kw)
""",
        MODELLED,
        fuzz="kw_call",
    ),
    Row(
        "keyword",
        "double-starred arguments merged with keywords",
        """\
def g_keyword_double_starred_arguments_merged_with_keywords(x: int, s: str) -> int:
    kw = {"b": x}
    if s == "c":
        kw = {"b": x, "c": 2}
    return add3(a=1, **kw, c=x)
""",
        MODELLED,
    ),
    Row(
        "arguments",
        "default values",
        """\
def g_arguments_default_values(x: int, k: int = 3) -> int:
    if x > k:
        return x
    return k
""",
        MODELLED,
    ),
    Row(
        "arguments",
        "nested def with default values",
        """\
def g_arguments_nested_def_with_default_values(x: int) -> int:
    def h(a: int, b: int = 2) -> int:
        return a * b
    return h(x) + h(x, 3)
""",
        MODELLED,
    ),
    Row(
        "arguments",
        "keyword-only parameters",
        """\
def g_arguments_keyword_only_parameters(x: int, *, k: int = 2) -> int:
    if x > k:
        return x - k
    return k
""",
        MODELLED,
        "kinds_helper",
    ),
    Row(
        "arguments",
        "positional-only parameters",
        """\
def g_arguments_positional_only_parameters(x: int, y: int, /) -> int:
    if x > y:
        return x
    return y
""",
        MODELLED,
        "kinds_helper",
    ),
    # refused: *args parameter of the explored function (only the functions it calls may take *args and **kwargs)
    Row(
        "arguments",
        "star-args and star-kwargs parameters",
        """\
def g_arguments_star_args_and_star_kwargs_parameters(*args: int, **kwargs: int) -> int:
    return len(args) + len(kwargs)
""",
        REFUSED,
    ),
    Row(
        "arguments",
        "nested def with star-args and star-kwargs",
        """\
def g_arguments_nested_def_with_star_args_and_star_kwargs(x: int) -> int:
    def h(*args: int, **kw: int) -> int:
        return sum(args) + len(kw)
    return h(x, 1, k=2)
""",
        MODELLED,
        "kinds_varargs",
    ),
    Row(
        "arguments",
        "called function with every parameter kind",
        """\
def g_arguments_called_function_with_every_parameter_kind(x: int, s: str) -> int:
    def h(a: int, /, b: int = 1, *rest: int, c: int, d: int = 2, **named: int) -> int:
        return a + 2 * b + 3 * c + 5 * d + 7 * sum(rest) + 11 * named.get("z", 0)
    if s == "a":
        return h(x, 2, 3, 4, c=x, z=1)
    return h(x, c=1, **{"d": x})
""",
        MODELLED,
        "kinds_varkw",
    ),
    Row(
        "arguments",
        "bad calls of positional-only and keyword-only parameters",
        """\
def g_arguments_bad_calls_of_positional_only_and_keyword_only_parameters(x: int) -> int:
    def h(a: int, /, *, c: int) -> int:
        return a + c
    if x > 0:
        return h(a=x, c=1)
    if x == 0:
        return h(x, x)
    return h(x)
""",
        MODELLED,
        "kinds_call_error",
    ),
    # refused: default value that is not a literal constant (the real function's is unknown)
    Row(
        "arguments",
        "nested def default evaluated at definition",
        """\
def g_arguments_nested_def_default_evaluated_at_definition(x: int) -> int:
    def h(a: int = x) -> int:
        return a
    x += 1
    return h() - x
""",
        REFUSED,
    ),
    Row(
        "arg",
        "annotated parameters of each kind",
        """\
def g_arg_annotated_parameters_of_each_kind(x: int, p: bool, s: str, xs: list[int]) -> int:
    if p and s == "a":
        return x
    return len(xs)
""",
        MODELLED,
        "param:list",
    ),
    Row(
        "arg",
        "Enum-typed parameter",
        """\
def g_arg_Enum_typed_parameter(c: Color, x: int) -> str:
    if c is Color.RED and x > 0:
        return c.name
    return str(c.value)
""",
        MODELLED,
        "enum_param",
    ),
    Row(
        "arg",
        "frozen dataclass parameter",
        """\
def g_arg_frozen_dataclass_parameter(p: Frozen) -> int:
    if p.x > p.y:
        return p.x
    return p.y
""",
        MODELLED,
        "frozen_param",
    ),
    Row(
        "Lambda",
        "lambda passed to reduce",
        """\
def g_Lambda_lambda_passed_to_reduce(x: int, xs: list[int]) -> int:
    return functools.reduce(lambda a, b: a + b * 2, xs, x)
""",
        MODELLED,
        "reduce_fold",
    ),
    Row(
        "Lambda",
        "lambda bound to a name",
        """\
def g_Lambda_lambda_bound_to_a_name(x: int) -> int:
    f = lambda a: a * 2 + x
    return f(3)
""",
        MODELLED,
    ),
    Row(
        "Lambda",
        "lambda as a sort key",
        """\
def g_Lambda_lambda_as_a_sort_key(xs: list[int]) -> int:
    ys = sorted(xs, key=lambda v: -v)
    return ys[0]
""",
        MODELLED,
    ),
    # cut: a function that closes over the comprehension variable 'v'
    Row(
        "Lambda",
        "lambdas closing over a comprehension variable",
        """\
def g_Lambda_lambdas_closing_over_a_comprehension_variable(x: int) -> int:
    fs = [lambda: v for v in range(3)]
    return fs[0]() + x
""",
        CUT,
    ),
    # refused: default value that is not a literal constant (the real function's is unknown)
    Row(
        "Lambda",
        "lambda with a default",
        """\
def g_Lambda_lambda_with_a_default(x: int) -> int:
    f = lambda a, b=x: a - b
    x = 100
    return f(1)
""",
        REFUSED,
    ),
    Row(
        "FunctionDef",
        "nested def (closure)",
        """\
def g_FunctionDef_nested_def_closure(x: int) -> int:
    def add(a: int) -> int:
        return a + x
    if x > 0:
        return add(1)
    return add(-1)
""",
        MODELLED,
        "nonlocal_counter",
    ),
    Row(
        "FunctionDef",
        "recursive nested def",
        """\
def g_FunctionDef_recursive_nested_def(x: int) -> int:
    def fact(n: int) -> int:
        if n <= 1:
            return 1
        return n * fact(n - 1)
    if x > 4:
        return 0
    return fact(x)
""",
        MODELLED,
    ),
    # cut: decorator on a nested function
    Row(
        "FunctionDef",
        "decorated nested def",
        """\
def g_FunctionDef_decorated_nested_def(x: int) -> int:
    @twice
    def inc(a: int) -> int:
        return a + 1
    return inc(x)
""",
        CUT,
    ),
    Row(
        "FunctionDef",
        "top-level def under functools.cache",
        """\
@functools.cache
def g_FunctionDef_top_level_def_under_functools_cache(x: int, s: str) -> int:
    if x > 3 and s == "a":
        return x * 2
    return -x
""",
        MODELLED,
        "cache_helper",
    ),
    Row(
        "FunctionDef",
        "top-level def under functools.lru_cache with a maxsize",
        """\
@functools.lru_cache(maxsize=8)
def g_FunctionDef_top_level_def_under_functools_lru_cache_with_a_maxsize(x: int) -> int:
    if x > 3:
        return x - 1
    return 0
""",
        MODELLED,
        "lru_helper",
    ),
    # refused: a cached function that reads 'print' (the cache could change what the program observes)
    Row(
        "FunctionDef",
        "cached def that prints",
        """\
@functools.cache
def g_FunctionDef_cached_def_that_prints(x: int) -> int:
    print(x)
    return x
""",
        REFUSED,
    ),
    Row(
        "FunctionDef",
        "top-level def under an identity decorator",
        """\
@keep
def g_FunctionDef_top_level_def_under_an_identity_decorator(x: int) -> int:
    if x > 1:
        return x
    return 1
""",
        MODELLED,
        "identity_decorator",
    ),
    Row(
        "FunctionDef",
        "top-level def under a decorator returning a wrapper",
        """\
@logged
def g_FunctionDef_top_level_def_under_a_decorator_returning_a_wrapper(x: int) -> int:
    if x > 2:
        return x
    return 0
""",
        MODELLED,
        "wrapper_decorator",
    ),
    Row(
        "FunctionDef",
        "decorated top-level def",
        """\
@twice
def g_FunctionDef_decorated_top_level_def(x: int) -> int:
    return x + 1
""",
        MODELLED,
        "wrapper_own_params",
    ),
    Row(
        "FunctionDef",
        "function returning None",
        """\
def g_FunctionDef_function_returning_None(xs: list[int]) -> None:
    if not xs:
        return
    xs.append(1)
""",
        MODELLED,
    ),
    Row(
        "FunctionDef",
        "closure reading a later-assigned local",
        """\
def g_FunctionDef_closure_reading_a_later_assigned_local(x: int) -> int:
    def h() -> int:
        return y * 2
    y = x + 1
    return h()
""",
        MODELLED,
    ),
    # cut: nested class
    Row(
        "ClassDef",
        "class inside a function",
        """\
def g_ClassDef_class_inside_a_function(x: int) -> int:
    class Acc:
        def __init__(self, v: int) -> None:
            self.v = v

        def bump(self) -> int:
            self.v += 1
            return self.v
    a = Acc(x)
    return a.bump()
""",
        CUT,
    ),
    # cut: nested class
    Row(
        "ClassDef",
        "subclass using super() inside a function",
        """\
def g_ClassDef_subclass_using_super_inside_a_function(x: int) -> int:
    class Sub(Base):
        def size(self) -> int:
            return super().size() + 10
    return Sub(x).size()
""",
        CUT,
    ),
    Row(
        "Return",
        "return a value",
        """\
def g_Return_return_a_value(x: int) -> int:
    if x > 0:
        return x
    return -x
""",
        MODELLED,
        "return_early",
    ),
    Row(
        "Return",
        "return without value",
        """\
def g_Return_return_without_value(x: int, xs: list[int]) -> None:
    if x > 0:
        return
    xs.append(x)
""",
        MODELLED,
    ),
    Row(
        "Yield",
        "generator function consumed whole",
        """\
def g_Yield_generator_function_consumed_whole(x: int) -> Iterator[int]:
    yield x
    if x > 0:
        yield x + 1
""",
        MODELLED,
        "generator",
    ),
    Row(
        "Yield",
        "yield in a loop",
        """\
def g_Yield_yield_in_a_loop(xs: list[int]) -> Iterator[int]:
    for v in xs:
        if v > 0:
            yield v * 2
""",
        MODELLED,
        "generator_loop",
    ),
    Row(
        "Yield",
        "nested generator def consumed by list()",
        """\
def g_Yield_nested_generator_def_consumed_by_list(x: int) -> int:
    def gen(n: int) -> Iterator[int]:
        yield n
        yield n + 1
    return sum(list(gen(x)))
""",
        MODELLED,
    ),
    Row(
        "Yield",
        "yield as an expression",
        """\
def g_Yield_yield_as_an_expression(x: int) -> Iterator[int]:
    got = yield x
    if got is None:
        yield 0
""",
        MODELLED,
    ),
    Row(
        "YieldFrom",
        "yield from a list",
        """\
def g_YieldFrom_yield_from_a_list(x: int, xs: list[int]) -> Iterator[int]:
    yield x
    yield from xs
""",
        MODELLED,
        "yield_from_list",
    ),
    Row(
        "YieldFrom",
        "yield from a generator call",
        """\
def g_YieldFrom_yield_from_a_generator_call(x: int) -> Iterator[int]:
    yield from count_up(x)
    yield -1
""",
        MODELLED,
        "yield_from_call",
    ),
    Row(
        "For",
        "for over a generator call, item by item",
        """\
def g_For_for_over_a_generator_call_item_by_item(x: int) -> int:
    total = 0
    for k in count_up(x):
        if k == 2:
            break
        total += k + 1
    else:
        total = -total
    return total
""",
        MODELLED,
        "for_generator",
    ),
    Row(
        "Call",
        "sum of a generator call, item by item",
        """\
def g_Call_sum_of_a_generator_call_item_by_item(x: int) -> int:
    return sum(count_up(x)) + int(any(k > 0 for k in count_up(x)))
""",
        MODELLED,
        "generator_sum_call",
    ),
    Row(
        "GeneratorExp",
        "next of a generator expression or call, with a default",
        """\
def g_GeneratorExp_next_of_a_generator_expression_or_call_with_a_default(x: int, xs: list[int]) -> int:
    return next((v for v in xs if v > x), -1) + next(count_up(x), 5)
""",
        MODELLED,
        "generator_next",
    ),
    Row(
        "GeneratorExp",
        "min or max of a generator expression with default and key",
        """\
def g_GeneratorExp_min_or_max_of_a_generator_expression_with_default_and_key(x: int, xs: list[int]) -> int:
    return max((v for v in xs if v != x), default=x) + min((v for v in xs), key=lambda v: -v, default=0)
""",
        MODELLED,
        "genexp_minmax_default",
    ),
    Row(
        "GeneratorExp",
        "generator expression unpacked into names",
        """\
def g_GeneratorExp_generator_expression_unpacked_into_names(xs: list[int]) -> int:
    a, b = (v + 1 for v in xs)
    return a * 3 + b
""",
        MODELLED,
        "genexp_unpack",
    ),
    Row(
        "Call",
        "islice of a generator call",
        """\
def g_Call_islice_of_a_generator_call(x: int) -> int:
    return sum(itertools.islice(count_up(3), x)) + len(list(itertools.islice(count_up(x), 2)))
""",
        MODELLED,
        "generator_islice",
    ),
    # ------------------------------ statements
    Row(
        "If",
        "if without else",
        """\
def g_If_if_without_else(x: int) -> int:
    if x > 0:
        x = x - 1
    return x
""",
        MODELLED,
        "if",
    ),
    Row(
        "If",
        "if/elif/else",
        """\
def g_If_if_elif_else(x: int) -> int:
    if x > 10:
        return 2
    elif x > 0:
        return 1
    else:
        return 0
""",
        MODELLED,
        "elif",
    ),
    Row(
        "Pass",
        "pass",
        """\
def g_Pass_pass(x: int) -> int:
    if x > 0:
        pass
    else:
        x = -x
    return x
""",
        MODELLED,
    ),
    Row(
        "Expr",
        "call statement",
        """\
def g_Expr_call_statement(x: int, xs: list[int]) -> int:
    xs.append(x)
    return len(xs)
""",
        MODELLED,
        "append",
    ),
    Row(
        "Expr",
        "docstring",
        """\
def g_Expr_docstring(x: int) -> int:
    \"\"\"A docstring.\"\"\"
    return x + 1
""",
        MODELLED,
    ),
    Row(
        "Raise",
        "raise an instance",
        """\
def g_Raise_raise_an_instance(x: int) -> int:
    if x < 0:
        raise ValueError("neg")
    return x
""",
        MODELLED,
        "raise",
    ),
    Row(
        "Raise",
        "raise a class",
        """\
def g_Raise_raise_a_class(x: int) -> int:
    if x < 0:
        raise KeyError
    return x
""",
        MODELLED,
    ),
    Row(
        "Raise",
        "raise from",
        """\
def g_Raise_raise_from(x: int) -> int:
    try:
        return 10 // x
    except ZeroDivisionError as e:
        raise ValueError("zero") from e
""",
        MODELLED,
    ),
    Row(
        "Raise",
        "raise from None",
        """\
def g_Raise_raise_from_None(x: int) -> int:
    try:
        return 10 // x
    except ZeroDivisionError:
        raise ValueError("zero") from None
""",
        MODELLED,
    ),
    Row(
        "Raise",
        "bare re-raise",
        """\
def g_Raise_bare_re_raise(x: int, xs: list[int]) -> int:
    try:
        return xs[x]
    except IndexError:
        if x > 0:
            raise
        return -1
""",
        MODELLED,
    ),
    # cut: bare raise outside an except clause
    Row(
        "Raise",
        "bare raise outside an except clause",
        """\
def g_Raise_bare_raise_outside_an_except_clause(x: int) -> int:
    if x > 3:
        raise
    return x
""",
        CUT,
    ),
    # cut: bare raise after a try or with statement inside its except clause
    Row(
        "Raise",
        "bare re-raise after a nested try",
        """\
def g_Raise_bare_re_raise_after_a_nested_try(x: int) -> int:
    try:
        return 10 // x
    except ZeroDivisionError:
        try:
            x = int("a")
        except ValueError:
            pass
        raise
""",
        CUT,
    ),
    Row(
        "ExceptHandler",
        "except as, left by continue",
        """\
def g_ExceptHandler_except_as_left_by_continue(x: int, xs: list[int]) -> int:
    n = 0
    for v in xs:
        try:
            n += 10 // (v - x)
        except ZeroDivisionError as e:
            continue
    return n + len(e.args) if xs and xs[-1] == x else n
""",
        MODELLED,
    ),
    Row(
        "Try",
        "try/except",
        """\
def g_Try_try_except(x: int) -> int:
    try:
        return 10 // x
    except ZeroDivisionError:
        return 0
""",
        MODELLED,
        "try",
    ),
    Row(
        "Try",
        "try/except/else/finally",
        """\
def g_Try_try_except_else_finally(x: int, xs: list[int]) -> int:
    t = 0
    try:
        v = xs[x]
    except IndexError:
        t = -1
    else:
        t = v
    finally:
        xs.append(t)
    return len(xs) + t
""",
        MODELLED,
        "finally",
    ),
    Row(
        "Try",
        "try/finally only",
        """\
def g_Try_try_finally_only(x: int, xs: list[int]) -> int:
    try:
        return 10 // x
    finally:
        xs.append(x)
""",
        MODELLED,
        "finally_only",
    ),
    Row(
        "Try",
        "return in finally",
        """\
def g_Try_return_in_finally(x: int) -> int:
    try:
        if x < 0:
            raise ValueError("neg")
    finally:
        if x < -5:
            return 0
    return x
""",
        MODELLED,
        "finally_only",
    ),
    Row(
        "Try",
        "break and continue through finally",
        """\
def g_Try_break_and_continue_through_finally(n: int) -> int:
    t = 0
    for i in range(4):
        try:
            if i == n:
                continue
            if i > n:
                break
            t += 10 // (i - 1)
        finally:
            t += 100
    return t
""",
        MODELLED,
        "finally",
    ),
    Row(
        "Try",
        "exception re-raised after finally",
        """\
def g_Try_exception_re_raised_after_finally(x: int, xs: list[int]) -> int:
    try:
        try:
            xs.append(10 // x)
        finally:
            xs.append(x)
    except ZeroDivisionError:
        return -len(xs)
    return len(xs)
""",
        MODELLED,
        "finally",
    ),
    Row(
        "Try",
        "break in finally swallows the exception",
        """\
def g_Try_break_in_finally_swallows_the_exception(x: int) -> int:
    t = 0
    while t < 3:
        t += 1
        try:
            if x < t:
                raise ValueError("neg")
        finally:
            if x < 0:
                break
    return t
""",
        MODELLED,
        "finally",
    ),
    # cut: a try statement inside a finally body
    Row(
        "Try",
        "try inside a finally body",
        """\
def g_Try_try_inside_a_finally_body(x: int) -> int:
    try:
        return 10 // x
    finally:
        try:
            x += 1
        except ValueError:
            pass
""",
        CUT,
    ),
    Row(
        "Try",
        "nested try re-raising to the outer handler",
        """\
def g_Try_nested_try_re_raising_to_the_outer_handler(x: int) -> int:
    try:
        try:
            return 10 // x
        except ZeroDivisionError:
            raise ValueError("zero")
    except ValueError:
        return -1
""",
        MODELLED,
    ),
    Row(
        "ExceptHandler",
        "exception class",
        """\
def g_ExceptHandler_exception_class(s: str) -> int:
    try:
        return int(s)
    except ValueError:
        return -1
""",
        MODELLED,
        "except:ValueError",
    ),
    Row(
        "ExceptHandler",
        "named handler",
        """\
def g_ExceptHandler_named_handler(x: int, xs: list[int]) -> int:
    try:
        return xs[x]
    except IndexError as err:
        return -1 if err else -2
""",
        MODELLED,
        "except:IndexError_as",
    ),
    Row(
        "ExceptHandler",
        "tuple of classes",
        """\
def g_ExceptHandler_tuple_of_classes(x: int, xs: list[int]) -> int:
    try:
        return xs[x] // x
    except (IndexError, ZeroDivisionError):
        return 0
""",
        MODELLED,
        "except:tuple",
    ),
    Row(
        "ExceptHandler",
        "bare except",
        """\
def g_ExceptHandler_bare_except(x: int) -> int:
    try:
        return 10 // x
    except:
        return 0
""",
        MODELLED,
    ),
    Row(
        "ExceptHandler",
        "handler reading the message",
        """\
def g_ExceptHandler_handler_reading_the_message(x: int) -> str:
    try:
        if x < 0:
            raise ValueError("neg")
        return "ok"
    except ValueError as e:
        return str(e)
""",
        MODELLED,
    ),
    Row(
        "ExceptHandler",
        "handler name unbound after the handler",
        """\
def g_ExceptHandler_handler_name_unbound_after_the_handler(x: int) -> int:
    try:
        if x > 0:
            raise ValueError("pos")
        e = 1
    except ValueError as e:
        pass
    return e
""",
        MODELLED,
    ),
    Row(
        "ExceptHandler",
        "base class catches a subclass",
        """\
def g_ExceptHandler_base_class_catches_a_subclass(x: int, xs: list[int]) -> int:
    try:
        return xs[x]
    except LookupError:
        return -1
""",
        MODELLED,
    ),
    Row(
        "ExceptHandler",
        "user exception class",
        """\
def g_ExceptHandler_user_exception_class(x: int) -> int:
    try:
        if x > 2:
            raise Oops("big")
        return x
    except ValueError:
        return -1
""",
        MODELLED,
    ),
    # cut: try/except*
    Row(
        "TryStar",
        "except star",
        """\
def g_TryStar_except_star(x: int) -> int:
    try:
        if x < 0:
            raise ValueError("neg")
    except* ValueError:
        x = 0
    return x
""",
        CUT,
    ),
    Row(
        "Assert",
        "without message",
        """\
def g_Assert_without_message(x: int) -> int:
    y = x * 2
    assert y != 6
    return y
""",
        MODELLED,
        "assert",
    ),
    Row(
        "Assert",
        "with message",
        """\
def g_Assert_with_message(x: int) -> int:
    y = x + 1
    assert y != 3, "three"
    return y
""",
        MODELLED,
        "assert_msg",
    ),
    Row(
        "Delete",
        "name",
        """\
def g_Delete_name(x: int) -> int:
    y = x + 1
    del y
    return x
""",
        MODELLED,
    ),
    Row(
        "Delete",
        "subscript",
        """\
def g_Delete_subscript(xs: list[int]) -> int:
    del xs[0]
    return len(xs)
""",
        MODELLED,
        "del_item",
    ),
    # cut: del of an attribute
    Row(
        "Delete",
        "attribute",
        """\
def g_Delete_attribute(x: int) -> int:
    b = Box(x)
    del b.v
    b.v = 2
    return b.v
""",
        CUT,
    ),
    # cut: del of a slice
    Row(
        "Delete",
        "slice",
        """\
def g_Delete_slice(x: int, xs: list[int]) -> int:
    del xs[1:x]
    return len(xs)
""",
        CUT,
    ),
    Row(
        "Delete",
        "dict key",
        """\
def g_Delete_dict_key(x: int, s: str) -> int:
    d = {"a": x}
    del d[s]
    return len(d)
""",
        MODELLED,
    ),
    Row(
        "Delete",
        "several targets",
        """\
def g_Delete_several_targets(xs: list[int]) -> int:
    del xs[0], xs[0]
    return sum(xs)
""",
        MODELLED,
    ),
    Row(
        "Delete",
        "name read after del",
        """\
def g_Delete_name_read_after_del(x: int) -> int:
    y = x
    if x > 0:
        del y
    return y
""",
        MODELLED,
    ),
    Row(
        "Global",
        "global counter",
        """\
def g_Global_global_counter(x: int) -> int:
    global COUNTER
    COUNTER += x
    if COUNTER > 2:
        return COUNTER
    return 0
""",
        MODELLED,
        "global_counter",
    ),
    Row(
        "Nonlocal",
        "nested def updating an outer local",
        """\
def g_Nonlocal_nested_def_updating_an_outer_local(x: int) -> int:
    n = 0
    def tick(d: int) -> int:
        nonlocal n
        n += d
        return n
    tick(x)
    tick(1)
    return n
""",
        MODELLED,
        "nonlocal_counter",
    ),
    Row(
        "Import",
        "import inside a function",
        """\
def g_Import_import_inside_a_function(x: int) -> int:
    import math
    return math.gcd(x, 12)
""",
        MODELLED,
        "local_import",
    ),
    Row(
        "ImportFrom",
        "from-import inside a function",
        """\
def g_ImportFrom_from_import_inside_a_function(x: int) -> int:
    from math import isqrt
    if x < 0:
        return -1
    return isqrt(x)
""",
        MODELLED,
        "local_from_import",
    ),
    Row(
        "alias",
        "import as",
        """\
def g_alias_import_as(x: int) -> int:
    import math as m
    return m.gcd(x, 8)
""",
        MODELLED,
        "local_import_as",
    ),
    Row(
        "alias",
        "from-import as",
        """\
def g_alias_from_import_as(x: int) -> int:
    from math import gcd as g
    return g(x, 6)
""",
        MODELLED,
        "local_from_import_as",
    ),
    Row(
        "With",
        "with a context manager",
        """\
def g_With_with_a_context_manager(x: int) -> int:
    log = [x]
    with Guard(log) as n:
        if x > 0:
            return n
    return len(log)
""",
        MODELLED,
    ),
    Row(
        "withitem",
        "two items",
        """\
def g_withitem_two_items(x: int) -> int:
    log = [x]
    with Guard(log) as a, Guard(log) as b:
        t = a + b
    return t + len(log)
""",
        MODELLED,
    ),
    Row(
        "withitem",
        "without as",
        """\
def g_withitem_without_as(x: int) -> int:
    log = [x]
    with Guard(log):
        x += 1
    return x + len(log)
""",
        MODELLED,
    ),
    Row(
        "With",
        "exception suppressed by exit",
        """\
def g_With_exception_suppressed_by_exit(x: int) -> int:
    log = [x]
    with Swallow(log) as n:
        if x > 2:
            raise ValueError("big")
        log.append(10 // x)
    return len(log) + n
""",
        MODELLED,
    ),
    Row(
        "With",
        "break and continue through with",
        """\
def g_With_break_and_continue_through_with(n: int) -> int:
    log = [n]
    for i in range(3):
        with Guard(log):
            if i == n:
                continue
            if i > n:
                break
            log.append(i)
    return len(log)
""",
        MODELLED,
    ),
    Row(
        "With",
        "contextlib.suppress",
        """\
def g_With_contextlib_suppress(x: int, xs: list[int]) -> int:
    with contextlib.suppress(IndexError, ZeroDivisionError):
        return xs[x] // x
    return -1
""",
        MODELLED,
    ),
    # cut: with statement over a context manager other than a class of the analysed code or contextlib.suppress
    Row(
        "With",
        "with a file",
        """\
def g_With_with_a_file(x: int) -> int:
    with open("rows.txt") as f:
        return len(f.read()) + x
""",
        CUT,
    ),
    # refused: async function
    Row(
        "AsyncFunctionDef",
        "async def",
        """\
async def g_AsyncFunctionDef_async_def(x: int) -> int:
    return x + 1
""",
        REFUSED,
    ),
    # refused: async function
    Row(
        "Await",
        "await",
        """\
async def g_Await_await(x: int) -> int:
    return await ready(x)
""",
        REFUSED,
    ),
    # refused: async function
    Row(
        "AsyncFor",
        "async for",
        """\
async def g_AsyncFor_async_for(x: int) -> int:
    t = 0
    async for v in ticks(x):
        t += v
    return t
""",
        REFUSED,
    ),
    # refused: async function
    Row(
        "AsyncWith",
        "async with",
        """\
async def g_AsyncWith_async_with(x: int) -> int:
    async with AGuard() as a:
        return a + x
""",
        REFUSED,
    ),
    # ------------------------------ match
    Row(
        "Match",
        "match on an int",
        """\
def g_Match_match_on_an_int(x: int) -> int:
    match x:
        case 1:
            return 10
        case 2:
            return 20
    return 0
""",
        MODELLED,
        "match_literal",
    ),
    Row(
        "match_case",
        "case with a guard",
        """\
def g_match_case_case_with_a_guard(x: int) -> int:
    match x:
        case v if v > 2:
            return v
        case _:
            return 0
""",
        MODELLED,
        "match_guard",
    ),
    Row(
        "MatchValue",
        "literal pattern",
        """\
def g_MatchValue_literal_pattern(s: str) -> int:
    match s:
        case "a":
            return 1
        case "ab":
            return 2
        case _:
            return 0
""",
        MODELLED,
        "match_literal",
    ),
    Row(
        "MatchValue",
        "dotted name pattern",
        """\
def g_MatchValue_dotted_name_pattern(x: int) -> int:
    c = Color.RED if x > 0 else Color.GREEN
    match c:
        case Color.RED:
            return 1
        case _:
            return 2
""",
        MODELLED,
    ),
    Row(
        "MatchSingleton",
        "None and bool patterns",
        """\
def g_MatchSingleton_None_and_bool_patterns(x: int, p: bool) -> int:
    v = None if x > 0 else p
    match v:
        case None:
            return 0
        case True:
            return 1
        case False:
            return 2
    return 3
""",
        MODELLED,
    ),
    Row(
        "MatchSequence",
        "sequence pattern",
        """\
def g_MatchSequence_sequence_pattern(xs: list[int]) -> int:
    match xs:
        case []:
            return 0
        case [a, b]:
            return a + b
        case _:
            return -1
""",
        MODELLED,
    ),
    Row(
        "MatchStar",
        "star in a sequence pattern",
        """\
def g_MatchStar_star_in_a_sequence_pattern(xs: list[int]) -> int:
    match xs:
        case [a, *rest]:
            return a + len(rest)
        case _:
            return -1
""",
        MODELLED,
    ),
    Row(
        "MatchStar",
        "wildcard star",
        """\
def g_MatchStar_wildcard_star(xs: list[int]) -> int:
    match xs:
        case [1, *_]:
            return 1
        case _:
            return 0
""",
        MODELLED,
    ),
    Row(
        "MatchMapping",
        "mapping pattern",
        """\
def g_MatchMapping_mapping_pattern(x: int, s: str) -> int:
    d = {s: x}
    match d:
        case {"a": v}:
            return v
        case _:
            return -1
""",
        MODELLED,
        "match_mapping",
    ),
    Row(
        "MatchMapping",
        "mapping pattern with rest",
        """\
def g_MatchMapping_mapping_pattern_with_rest(x: int, s: str) -> int:
    d = {s: x, "b": 2}
    match d:
        case {"a": v, **rest}:
            return v + len(rest)
        case _:
            return -1
""",
        MODELLED,
        "match_rest",
    ),
    Row(
        "MatchClass",
        "keyword patterns",
        """\
def g_MatchClass_keyword_patterns(x: int) -> int:
    p = Point(x, 2)
    match p:
        case Point(x=0):
            return 0
        case Point(y=2):
            return 1
    return 2
""",
        MODELLED,
        "match_class_keyword",
    ),
    Row(
        "MatchClass",
        "positional patterns",
        """\
def g_MatchClass_positional_patterns(x: int) -> int:
    match Point(x, 3):
        case Point(a, b) if a > b:
            return a
        case Point(a, _):
            return -a
    return 0
""",
        MODELLED,
        "match_class_positional",
    ),
    Row(
        "MatchClass",
        "builtin class pattern",
        """\
def g_MatchClass_builtin_class_pattern(x: int) -> int:
    match x:
        case int(v) if v > 0:
            return v
        case _:
            return 0
""",
        MODELLED,
        "match_builtin_class",
    ),
    Row(
        "MatchMapping",
        "nested mapping and class patterns",
        """\
def g_MatchMapping_nested_mapping_and_class_patterns(x: int, xs: list[int]) -> int:
    match {"p": Point(x, 1), "l": xs}:
        case {"p": Point(x=0), "l": [a, *_]}:
            return a
        case {"p": Point(0 | 1, y), **rest}:
            return y + len(rest)
    return -1
""",
        MODELLED,
        "match_nested",
    ),
    Row(
        "MatchClass",
        "missing attribute in a class pattern",
        """\
def g_MatchClass_missing_attribute_in_a_class_pattern(x: int) -> int:
    match Point(x, 2):
        case Point(z=_):
            return 1
        case Point(x=v) if v > 0:
            return v
    return 0
""",
        MODELLED,
        "match_missing_attribute",
    ),
    Row(
        "MatchAs",
        "capture pattern",
        """\
def g_MatchAs_capture_pattern(x: int) -> int:
    match x:
        case 0:
            return 0
        case v:
            return v + 1
""",
        MODELLED,
        "match_capture",
    ),
    Row(
        "MatchAs",
        "as pattern",
        """\
def g_MatchAs_as_pattern(xs: list[int]) -> int:
    match xs:
        case [1, _] as whole:
            return len(whole)
        case _:
            return 0
""",
        MODELLED,
        "match_as",
    ),
    Row(
        "MatchOr",
        "or pattern",
        """\
def g_MatchOr_or_pattern(x: int) -> int:
    match x:
        case 1 | 2 | 3:
            return 1
        case _:
            return 0
""",
        MODELLED,
        "match_or",
    ),
    # ------------------------------ expressions
    Row(
        "BinOp",
        "nested arithmetic",
        """\
def g_BinOp_nested_arithmetic(x: int, y: int) -> int:
    r = (x + 1) * 2 - y // 3
    if r > 5:
        return r
    return 0
""",
        MODELLED,
        "binop:+",
    ),
    Row(
        "Add",
        "int addition",
        """\
def g_Add_int_addition(x: int, y: int) -> int:
    if x + y > 3:
        return 1
    return 0
""",
        MODELLED,
        "binop:+",
    ),
    Row(
        "Add",
        "str concatenation",
        """\
def g_Add_str_concatenation(s: str, t: str) -> int:
    if s + t == "ab":
        return 1
    return 0
""",
        MODELLED,
    ),
    Row(
        "Add",
        "list concatenation",
        """\
def g_Add_list_concatenation(x: int, xs: list[int]) -> int:
    ys = xs + [x]
    return len(ys) + ys[0]
""",
        MODELLED,
    ),
    Row(
        "Add",
        "bool addition",
        """\
def g_Add_bool_addition(p: bool, q: bool) -> int:
    return p + q + True
""",
        MODELLED,
    ),
    Row(
        "Sub",
        "int subtraction",
        """\
def g_Sub_int_subtraction(x: int, y: int) -> int:
    if x - y > 3:
        return 1
    return 0
""",
        MODELLED,
        "binop:-",
    ),
    Row(
        "Sub",
        "set difference",
        """\
def g_Sub_set_difference(x: int, xs: list[int]) -> int:
    return len(set(xs) - {x})
""",
        MODELLED,
        "set_op",
    ),
    Row(
        "Mult",
        "int multiplication",
        """\
def g_Mult_int_multiplication(x: int) -> int:
    if 3 * x > 7:
        return 1
    return 0
""",
        MODELLED,
        "binop:*",
    ),
    Row(
        "Mult",
        "list repetition",
        """\
def g_Mult_list_repetition(x: int) -> int:
    return len([1, 2] * x)
""",
        MODELLED,
        "list_repeat",
    ),
    Row(
        "Mult",
        "str repetition",
        """\
def g_Mult_str_repetition(s: str, x: int) -> int:
    if s * x == "aa":
        return 1
    return 0
""",
        MODELLED,
    ),
    # cut: operator MatMult
    Row(
        "MatMult",
        "matrix multiplication operator",
        """\
def g_MatMult_matrix_multiplication_operator(x: int) -> int:
    return Vec(x) @ Vec(2)
""",
        CUT,
    ),
    Row(
        "Div",
        "true division",
        """\
def g_Div_true_division(x: int) -> int:
    if x / 2 >= 3:
        return 1
    return 0
""",
        MODELLED,
        "math.floor",
    ),
    Row(
        "FloorDiv",
        "floor division",
        """\
def g_FloorDiv_floor_division(x: int, y: int) -> int:
    return x // y
""",
        MODELLED,
        "binop://",
    ),
    Row(
        "Mod",
        "int modulo",
        """\
def g_Mod_int_modulo(x: int, y: int) -> int:
    return x % y
""",
        MODELLED,
        "binop:%",
    ),
    Row(
        "Mod",
        "str formatting",
        """\
def g_Mod_str_formatting(x: int) -> str:
    return "v=%d" % x
""",
        MODELLED,
    ),
    Row(
        "Pow",
        "int power",
        """\
def g_Pow_int_power(x: int) -> int:
    if x ** 2 > 8:
        return 1
    return 0
""",
        MODELLED,
        "pow",
    ),
    Row(
        "Pow",
        "symbolic exponent",
        """\
def g_Pow_symbolic_exponent(x: int) -> int:
    if x > 5:
        return 0
    return 2 ** x
""",
        MODELLED,
    ),
    Row(
        "LShift",
        "left shift",
        """\
def g_LShift_left_shift(x: int) -> int:
    if x << 2 > 12:
        return 1
    return 0
""",
        MODELLED,
    ),
    Row(
        "RShift",
        "right shift by a symbolic count",
        """\
def g_RShift_right_shift_by_a_symbolic_count(x: int, y: int) -> int:
    return x >> y
""",
        MODELLED,
    ),
    Row(
        "BitOr",
        "int bitwise or",
        """\
def g_BitOr_int_bitwise_or(x: int) -> int:
    if x | 4 == 5:
        return 1
    return 0
""",
        MODELLED,
    ),
    Row(
        "BitOr",
        "set union",
        """\
def g_BitOr_set_union(x: int, xs: list[int]) -> int:
    return len(set(xs) | {x})
""",
        MODELLED,
        "set_op",
    ),
    Row(
        "BitXor",
        "int bitwise xor",
        """\
def g_BitXor_int_bitwise_xor(x: int) -> int:
    if x ^ 5 == 1:
        return 1
    return 0
""",
        MODELLED,
    ),
    Row(
        "BitXor",
        "set symmetric difference",
        """\
def g_BitXor_set_symmetric_difference(x: int, xs: list[int]) -> int:
    return len(set(xs) ^ {x, 1})
""",
        MODELLED,
        "set_op",
    ),
    Row(
        "BitAnd",
        "int bitwise and",
        """\
def g_BitAnd_int_bitwise_and(x: int) -> int:
    if x & 3 == 2:
        return 1
    return 0
""",
        MODELLED,
    ),
    Row(
        "BitAnd",
        "set intersection",
        """\
def g_BitAnd_set_intersection(x: int, xs: list[int]) -> int:
    return len(set(xs) & {x, 1})
""",
        MODELLED,
        "set_op",
    ),
    Row(
        "UnaryOp",
        "negated expression",
        """\
def g_UnaryOp_negated_expression(x: int) -> int:
    if -(x + 1) > 2:
        return 1
    return 0
""",
        MODELLED,
        "unary_minus",
    ),
    Row(
        "USub",
        "unary minus",
        """\
def g_USub_unary_minus(x: int) -> int:
    return -x
""",
        MODELLED,
        "unary_minus",
    ),
    Row(
        "UAdd",
        "unary plus",
        """\
def g_UAdd_unary_plus(x: int) -> int:
    if +x > 2:
        return 1
    return 0
""",
        MODELLED,
    ),
    Row(
        "Invert",
        "bitwise not",
        """\
def g_Invert_bitwise_not(x: int) -> int:
    if ~x == 3:
        return 1
    return 0
""",
        MODELLED,
    ),
    Row(
        "Not",
        "not",
        """\
def g_Not_not(p: bool, x: int) -> int:
    if not p and not x:
        return 1
    return 0
""",
        MODELLED,
        "not",
    ),
    Row(
        "BoolOp",
        "and/or mixed",
        """\
def g_BoolOp_and_or_mixed(x: int, p: bool) -> bool:
    return (x > 0 and p) or x < -3
""",
        MODELLED,
        "and_or_mixed",
    ),
    Row(
        "And",
        "and",
        """\
def g_And_and(x: int, y: int) -> int:
    if x > 0 and y > 0:
        return 1
    return 0
""",
        MODELLED,
        "and",
    ),
    Row(
        "And",
        "and returning an operand",
        """\
def g_And_and_returning_an_operand(x: int, s: str) -> str:
    return x > 0 and s
""",
        MODELLED,
    ),
    Row(
        "And",
        "short-circuit guarding a division",
        """\
def g_And_short_circuit_guarding_a_division(x: int) -> bool:
    return x != 0 and 10 // x > 2
""",
        MODELLED,
    ),
    Row(
        "Or",
        "or",
        """\
def g_Or_or(x: int, y: int) -> int:
    if x > 0 or y > 0:
        return 1
    return 0
""",
        MODELLED,
        "or",
    ),
    Row(
        "Or",
        "or returning an operand",
        """\
def g_Or_or_returning_an_operand(s: str) -> str:
    return s or "empty"
""",
        MODELLED,
    ),
    Row(
        "Compare",
        "single comparison",
        """\
def g_Compare_single_comparison(x: int) -> bool:
    return x > 3
""",
        MODELLED,
        "compare",
    ),
    Row(
        "Compare",
        "chained comparison",
        """\
def g_Compare_chained_comparison(x: int, y: int) -> int:
    if 0 < x < y <= 10:
        return 1
    return 0
""",
        MODELLED,
        "compare_chain",
    ),
    Row(
        "Compare",
        "list comparison",
        """\
def g_Compare_list_comparison(xs: list[int]) -> bool:
    return xs < [1, 2]
""",
        MODELLED,
        "list_compare",
    ),
    Row(
        "Compare",
        "chained comparison with a call evaluated once",
        """\
def g_Compare_chained_comparison_with_a_call_evaluated_once(x: int, xs: list[int]) -> int:
    if 0 < len(xs) < x:
        return 1
    return 0
""",
        MODELLED,
    ),
    Row(
        "Eq",
        "equality",
        """\
def g_Eq_equality(x: int) -> int:
    if x == 4:
        return 1
    return 0
""",
        MODELLED,
        "compare",
    ),
    Row(
        "Eq",
        "int compared with a str",
        """\
def g_Eq_int_compared_with_a_str(x: int, s: str) -> bool:
    return x == s
""",
        MODELLED,
    ),
    Row(
        "Eq",
        "bool compared with an int",
        """\
def g_Eq_bool_compared_with_an_int(p: bool, x: int) -> int:
    if p == x:
        return 1
    return 0
""",
        MODELLED,
    ),
    Row(
        "NotEq",
        "inequality",
        """\
def g_NotEq_inequality(s: str) -> int:
    if s != "ab":
        return 1
    return 0
""",
        MODELLED,
        "compare",
    ),
    Row(
        "Lt",
        "less than",
        """\
def g_Lt_less_than(x: int, y: int) -> int:
    if x < y:
        return 1
    return 0
""",
        MODELLED,
        "compare",
    ),
    Row(
        "Lt",
        "str ordering",
        """\
def g_Lt_str_ordering(s: str, t: str) -> int:
    if s < t:
        return 1
    return 0
""",
        MODELLED,
    ),
    Row(
        "LtE",
        "less or equal",
        """\
def g_LtE_less_or_equal(x: int, y: int) -> int:
    if x <= y:
        return 1
    return 0
""",
        MODELLED,
        "compare",
    ),
    Row(
        "Gt",
        "greater than",
        """\
def g_Gt_greater_than(x: int) -> int:
    if x > 7:
        return 1
    return 0
""",
        MODELLED,
        "compare",
    ),
    Row(
        "GtE",
        "greater or equal",
        """\
def g_GtE_greater_or_equal(x: int) -> int:
    if x >= 7:
        return 1
    return 0
""",
        MODELLED,
        "compare",
    ),
    Row(
        "Is",
        "is None",
        """\
def g_Is_is_None(x: int) -> int:
    v = None if x > 0 else x
    if v is None:
        return 1
    return 0
""",
        MODELLED,
        "narrow_is_none",
    ),
    Row(
        "IsNot",
        "is not None",
        """\
def g_IsNot_is_not_None(x: int) -> int:
    v = None if x > 0 else x
    if v is not None:
        return v
    return 0
""",
        MODELLED,
        "narrow_is_not_none",
    ),
    Row(
        "In",
        "in a list",
        """\
def g_In_in_a_list(x: int, xs: list[int]) -> int:
    if x in xs:
        return 1
    return 0
""",
        MODELLED,
        "in_list",
    ),
    Row(
        "In",
        "in a str",
        """\
def g_In_in_a_str(s: str) -> int:
    if "b" in s:
        return 1
    return 0
""",
        MODELLED,
        "in_str",
    ),
    Row(
        "In",
        "in a range",
        """\
def g_In_in_a_range(x: int) -> int:
    if x in range(1, 8, 2):
        return 1
    return 0
""",
        MODELLED,
    ),
    Row(
        "In",
        "in a dict",
        """\
def g_In_in_a_dict(s: str) -> int:
    d = {"a": 1}
    if s in d:
        return d[s]
    return 0
""",
        MODELLED,
        "dict_in",
    ),
    Row(
        "NotIn",
        "not in",
        """\
def g_NotIn_not_in(x: int, xs: list[int]) -> int:
    if x not in xs:
        return 1
    return 0
""",
        MODELLED,
        "set_in",
    ),
    Row(
        "IfExp",
        "conditional expression",
        """\
def g_IfExp_conditional_expression(x: int) -> int:
    return x if x > 0 else -x
""",
        MODELLED,
        "ifexp",
    ),
    Row(
        "NamedExpr",
        "walrus in an if",
        """\
def g_NamedExpr_walrus_in_an_if(xs: list[int]) -> int:
    if (n := len(xs)) > 1:
        return n
    return 0
""",
        MODELLED,
        "walrus",
    ),
    Row(
        "NamedExpr",
        "walrus in a while condition",
        """\
def g_NamedExpr_walrus_in_a_while_condition(x: int) -> int:
    i = 0
    while (j := i * 2) < x and i < 3:
        i += 1
    return i + j
""",
        MODELLED,
        "walrus",
    ),
    Row(
        "NamedExpr",
        "walrus in a comprehension",
        """\
def g_NamedExpr_walrus_in_a_comprehension(xs: list[int]) -> int:
    ys = [w for v in xs if (w := v * 2) > 2]
    return len(ys)
""",
        MODELLED,
        "walrus_comp",
    ),
    Row(
        "NamedExpr",
        "walrus in a comprehension read after it",
        """\
def g_NamedExpr_walrus_in_a_comprehension_read_after_it(xs: list[int]) -> int:
    ys = [w for v in xs if (w := v * 2) > 2]
    return w if xs else len(ys)
""",
        MODELLED,
        "walrus_comp",
    ),
    Row(
        "NamedExpr",
        "walrus unbound when its operand is not evaluated",
        """\
def g_NamedExpr_walrus_unbound_when_its_operand_is_not_evaluated(x: int) -> int:
    if x > 0 or (u := x) > 0:
        return u
    return 0
""",
        MODELLED,
    ),
    # cut: assignment expression in a default value of a nested function or lambda
    Row(
        "NamedExpr",
        "walrus in a lambda default",
        """\
def g_NamedExpr_walrus_in_a_lambda_default(x: int) -> int:
    f = lambda a=(b := 3): a
    return b + x + f()
""",
        CUT,
    ),
    Row(
        "NamedExpr",
        "walrus in a lambda",
        """\
def g_NamedExpr_walrus_in_a_lambda(x: int) -> int:
    f = lambda v: (q := v + 1) * q
    return f(x)
""",
        MODELLED,
    ),
    Row(
        "JoinedStr",
        "f-string",
        """\
def g_JoinedStr_f_string(x: int, s: str) -> str:
    return f"{x}-{s}"
""",
        MODELLED,
    ),
    Row(
        "FormattedValue",
        "format spec",
        """\
def g_FormattedValue_format_spec(x: int) -> str:
    return f"{x:>4}"
""",
        MODELLED,
    ),
    Row(
        "FormattedValue",
        "repr conversion",
        """\
def g_FormattedValue_repr_conversion(s: str) -> str:
    return f"<{s!r}>"
""",
        MODELLED,
    ),
    Row(
        "FormattedValue",
        "conversion with a format spec",
        """\
def g_FormattedValue_conversion_with_a_format_spec(s: str) -> str:
    return f"{s!s:>3}|"
""",
        MODELLED,
    ),
    Row(
        "FormattedValue",
        "self-documenting expression",
        """\
def g_FormattedValue_self_documenting_expression(x: int) -> str:
    return f"{x=}"
""",
        MODELLED,
    ),
    Row(
        "FormattedValue",
        "nested format spec",
        """\
def g_FormattedValue_nested_format_spec(x: int, y: int) -> str:
    w = y % 4
    return f"{x:>{w}}"
""",
        MODELLED,
    ),
    Row(
        "Constant",
        "int literal",
        """\
def g_Constant_int_literal(x: int) -> int:
    return x + 7
""",
        MODELLED,
        "for_range",
    ),
    Row(
        "Constant",
        "str literal",
        """\
def g_Constant_str_literal(s: str) -> bool:
    return s == "ab"
""",
        MODELLED,
        "str_literal",
    ),
    Row(
        "Constant",
        "bool literal",
        """\
def g_Constant_bool_literal(x: int) -> bool:
    if x > 0:
        return True
    return False
""",
        MODELLED,
        "bool_literal",
    ),
    Row(
        "Constant",
        "None literal",
        """\
def g_Constant_None_literal(x: int) -> int:
    v = None
    if x > 0:
        v = x
    return 0 if v is None else v
""",
        MODELLED,
        "narrow_is_none",
    ),
    Row(
        "Constant",
        "float literal",
        """\
def g_Constant_float_literal(x: int) -> bool:
    return x * 0.5 > 1.0
""",
        MODELLED,
    ),
    Row(
        "Constant",
        "bytes literal",
        """\
def g_Constant_bytes_literal(x: int) -> int:
    b = b"ab"
    if x > 0:
        return len(b)
    return b[0]
""",
        MODELLED,
        "bytes_literal",
    ),
    # cut: ellipsis literal
    Row(
        "Constant",
        "ellipsis",
        """\
def g_Constant_ellipsis(x: int) -> int:
    e = ...
    if x > 0:
        ...
    return x if e is Ellipsis else 0
""",
        CUT,
    ),
    # cut: complex literal
    Row(
        "Constant",
        "complex literal",
        """\
def g_Constant_complex_literal(x: int) -> int:
    c = 2j * x
    if c.imag > 4:
        return 1
    return 0
""",
        CUT,
    ),
    Row(
        "Constant",
        "str literal with escapes and non-ASCII",
        """\
def g_Constant_str_literal_with_escapes_and_non_ASCII(s: str) -> int:
    if s == "\\tx\\u00e9":
        return 1
    if "\\n" in s:
        return 2
    return len("\\u00e9\\x00")
""",
        MODELLED,
    ),
    Row(
        "Constant",
        "big int literal",
        """\
def g_Constant_big_int_literal(x: int) -> int:
    if x > 123456789012345678901234567890:
        return x - 123456789012345678901234567890
    return 0
""",
        MODELLED,
    ),
    Row(
        "Name",
        "parameter and local reads",
        """\
def g_Name_parameter_and_local_reads(x: int) -> int:
    y = x
    return y
""",
        MODELLED,
        "param:int",
    ),
    Row(
        "Name",
        "local shadowing a global, read before assignment",
        """\
def g_Name_local_shadowing_a_global_read_before_assignment(x: int) -> int:
    if x > 0:
        COUNTER = 1
    return COUNTER
""",
        MODELLED,
    ),
    Row(
        "Name",
        "module global read",
        """\
def g_Name_module_global_read(x: int) -> int:
    return COUNTER + x
""",
        MODELLED,
    ),
    Row(
        "Attribute",
        "field read",
        """\
def g_Attribute_field_read(x: int) -> int:
    p = Point(x, 1)
    if p.x > p.y:
        return 1
    return 0
""",
        MODELLED,
        "field_read",
    ),
    Row(
        "Attribute",
        "bound method as a value",
        """\
def g_Attribute_bound_method_as_a_value(x: int) -> int:
    b = Box(x)
    m = b.get
    return m()
""",
        MODELLED,
    ),
    Row(
        "Attribute",
        "enum member value",
        """\
def g_Attribute_enum_member_value(x: int) -> int:
    c = Color.RED if x > 0 else Color.GREEN
    return c.value
""",
        MODELLED,
        "enum_value",
    ),
    Row(
        "Subscript",
        "list index",
        """\
def g_Subscript_list_index(x: int, xs: list[int]) -> int:
    return xs[x]
""",
        MODELLED,
        "index_list",
    ),
    Row(
        "Subscript",
        "negative index",
        """\
def g_Subscript_negative_index(xs: list[int]) -> int:
    return xs[-1]
""",
        MODELLED,
        "index_neg",
    ),
    Row(
        "Subscript",
        "str index",
        """\
def g_Subscript_str_index(x: int, s: str) -> str:
    return s[x]
""",
        MODELLED,
        "index_str",
    ),
    Row(
        "Subscript",
        "dict index",
        """\
def g_Subscript_dict_index(s: str) -> int:
    d = {"a": 1, "b": 2}
    return d[s]
""",
        MODELLED,
        "dict_index",
    ),
    Row(
        "Subscript",
        "tuple index",
        """\
def g_Subscript_tuple_index(x: int) -> int:
    t = (1, x, 3)
    return t[x % 3]
""",
        MODELLED,
    ),
    Row(
        "Subscript",
        "nested subscript",
        """\
def g_Subscript_nested_subscript(x: int, xs: list[int]) -> int:
    m = [xs, [x]]
    return m[0][0] + m[1][0]
""",
        MODELLED,
    ),
    Row(
        "Slice",
        "slice with bounds",
        """\
def g_Slice_slice_with_bounds(x: int, xs: list[int]) -> int:
    return sum(xs[1:x])
""",
        MODELLED,
        "slice_list",
    ),
    Row(
        "Slice",
        "slice with step",
        """\
def g_Slice_slice_with_step(xs: list[int]) -> int:
    return sum(xs[::2])
""",
        MODELLED,
        "slice_step",
    ),
    Row(
        "Slice",
        "str slice with negative step",
        """\
def g_Slice_str_slice_with_negative_step(s: str) -> bool:
    return s[::-1] == s
""",
        MODELLED,
        "slice_str",
    ),
    Row(
        "Slice",
        "symbolic step",
        """\
def g_Slice_symbolic_step(x: int, xs: list[int]) -> int:
    return len(xs[::x])
""",
        MODELLED,
    ),
    Row(
        "Tuple",
        "tuple display",
        """\
def g_Tuple_tuple_display(x: int) -> int:
    t = (x, x + 1)
    return t[1]
""",
        MODELLED,
        "tuple_unpack",
    ),
    Row(
        "Tuple",
        "tuple comparison",
        """\
def g_Tuple_tuple_comparison(x: int, y: int) -> bool:
    return (x, y) < (1, 2)
""",
        MODELLED,
    ),
    Row(
        "List",
        "list display",
        """\
def g_List_list_display(x: int) -> int:
    ys = [x, 1, 2]
    return ys[x % 3]
""",
        MODELLED,
        "list_repeat",
    ),
    Row(
        "List",
        "empty list",
        """\
def g_List_empty_list(x: int) -> int:
    ys: list[int] = []
    if x > 0:
        ys.append(x)
    return len(ys)
""",
        MODELLED,
    ),
    Row(
        "Set",
        "set display",
        """\
def g_Set_set_display(x: int) -> int:
    return len({x, 1, 2})
""",
        MODELLED,
        "set_display",
    ),
    Row(
        "Dict",
        "dict display",
        """\
def g_Dict_dict_display(x: int, s: str) -> int:
    d = {"a": x, "b": 2}
    return d[s]
""",
        MODELLED,
    ),
    Row(
        "Dict",
        "double-starred item in a dict display",
        """\
def g_Dict_double_starred_item_in_a_dict_display(x: int, s: str) -> int:
    d = {"a": 1}
    e = {**d, s: x}
    return e["a"] + len(e)
""",
        MODELLED,
        fuzz="star_dict",
    ),
    Row(
        "Dict",
        "double-starred items between key runs",
        """\
def g_Dict_double_starred_items_between_key_runs(x: int, s: str) -> int:
    e = {s: x, **{"a": 1}, "b": 2, **{s: 3, "c": x}}
    if x > 1:
        e = {**e, **x}
    return e[s] + len(e)
""",
        MODELLED,
    ),
    Row(
        "Dict",
        "duplicate keys in a display",
        """\
def g_Dict_duplicate_keys_in_a_display(x: int, s: str) -> int:
    d = {"a": 1, s: 2, "a": x}
    return d["a"] + len(d)
""",
        MODELLED,
    ),
)

# ast classes that cannot occur inside the body of a function of a module pathloom analyses
NOT_NODES: frozenset[str] = frozenset(
    {
        "Module",  # mod: the parsed file itself, never inside a function body
        "Interactive",  # mod: the REPL's single-statement input ("single" mode)
        "Expression",  # mod: eval()'s input ("eval" mode)
        "FunctionType",  # mod: a signature type comment ("func_type" mode), never in a module's body
        "TypeIgnore",  # a "# type: ignore" comment: only in Module.type_ignores, with type_comments=True
        # expr_context: every Name, Attribute, Subscript, Starred, List and Tuple carries one, so
        # every row covers Load and the assignment rows Store; the Delete rows cover Del
        "Load",
        "Store",
        "Del",
    }
)

# Modelled rows that no progen feature tag writes yet: the honest gap list, which only shrinks.
NOT_YET_FUZZED: frozenset[str] = frozenset(
    {
        "g_NamedExpr_walrus_unbound_when_its_operand_is_not_evaluated",
        "g_NamedExpr_walrus_in_a_lambda",
        "g_ExceptHandler_except_as_left_by_continue",
        "g_Starred_starred_argument_that_is_not_iterable",
        "g_keyword_double_starred_arguments_merged_with_keywords",
        "g_MatchValue_dotted_name_pattern",
        "g_MatchSingleton_None_and_bool_patterns",
        "g_MatchSequence_sequence_pattern",
        "g_MatchStar_star_in_a_sequence_pattern",
        "g_MatchStar_wildcard_star",
        "g_Starred_starred_item_that_is_not_iterable",
        "g_Dict_double_starred_items_between_key_runs",
        "g_With_with_a_context_manager",
        "g_withitem_two_items",
        "g_withitem_without_as",
        "g_With_exception_suppressed_by_exit",
        "g_With_break_and_continue_through_with",
        "g_With_contextlib_suppress",
        "g_Starred_starred_for_target",
        "g_Starred_starred_comprehension_target",
        "g_Assign_nested_tuple_target",
        "g_Assign_two_name_list_target",
        "g_Assign_subscript_target",
        "g_Assign_dict_subscript_target",
        "g_Assign_chained_assignment",
        "g_Assign_tuple_target_whose_subscript_reads_an_earlier_target",
        "g_Assign_chained_assignment_whose_subscript_reads_the_first_target",
        "g_Assign_same_name_twice_in_a_target",
        "g_Assign_subscript_swap",
        "g_Assign_tuple_target_from_a_str",
        "g_AnnAssign_with_value",
        "g_AnnAssign_without_value",
        "g_AnnAssign_attribute_target",
        "g_AugAssign_attribute_target",
        "g_AugAssign_subscript_target",
        "g_AugAssign_every_other_operator",
        "g_AugAssign_list_extend",
        "g_AugAssign_str_concatenation",
        "g_AugAssign_list_extend_through_an_alias",
        "g_For_nested_tuple_target",
        "g_For_list_target",
        "g_For_attribute_target",
        "g_For_subscript_target",
        "g_For_for_else",
        "g_For_loop_variable_read_after_the_loop",
        "g_For_iterating_a_list_that_grows",
        "g_While_while_else",
        "g_While_while_True_with_break",
        "g_While_while_else_with_continue",
        "g_Break_break_inside_try",
        "g_DictComp_dict_comprehension",
        "g_comprehension_with_two_ifs",
        "g_comprehension_two_for_clauses",
        "g_comprehension_tuple_target",
        "g_comprehension_nested_tuple_target",
        "g_comprehension_variable_shadowing_a_parameter",
        "g_Call_super_in_a_method",
        "g_Call_two_argument_super",
        "g_arguments_default_values",
        "g_arguments_nested_def_with_default_values",
        "g_Lambda_lambda_bound_to_a_name",
        "g_Lambda_lambda_as_a_sort_key",
        "g_FunctionDef_recursive_nested_def",
        "g_FunctionDef_function_returning_None",
        "g_FunctionDef_closure_reading_a_later_assigned_local",
        "g_Return_return_without_value",
        "g_Yield_nested_generator_def_consumed_by_list",
        "g_Yield_yield_as_an_expression",
        "g_Pass_pass",
        "g_Expr_docstring",
        "g_Raise_raise_a_class",
        "g_Raise_raise_from",
        "g_Raise_raise_from_None",
        "g_Raise_bare_re_raise",
        "g_Try_nested_try_re_raising_to_the_outer_handler",
        "g_ExceptHandler_bare_except",
        "g_ExceptHandler_handler_reading_the_message",
        "g_ExceptHandler_handler_name_unbound_after_the_handler",
        "g_ExceptHandler_base_class_catches_a_subclass",
        "g_ExceptHandler_user_exception_class",
        "g_Delete_name",
        "g_Delete_dict_key",
        "g_Delete_several_targets",
        "g_Delete_name_read_after_del",
        "g_Add_str_concatenation",
        "g_Add_list_concatenation",
        "g_Add_bool_addition",
        "g_Mult_str_repetition",
        "g_Mod_str_formatting",
        "g_Pow_symbolic_exponent",
        "g_LShift_left_shift",
        "g_RShift_right_shift_by_a_symbolic_count",
        "g_BitOr_int_bitwise_or",
        "g_BitXor_int_bitwise_xor",
        "g_BitAnd_int_bitwise_and",
        "g_UAdd_unary_plus",
        "g_Invert_bitwise_not",
        "g_And_and_returning_an_operand",
        "g_And_short_circuit_guarding_a_division",
        "g_Or_or_returning_an_operand",
        "g_Compare_chained_comparison_with_a_call_evaluated_once",
        "g_Eq_int_compared_with_a_str",
        "g_Eq_bool_compared_with_an_int",
        "g_Lt_str_ordering",
        "g_In_in_a_range",
        "g_JoinedStr_f_string",
        "g_FormattedValue_format_spec",
        "g_FormattedValue_repr_conversion",
        "g_FormattedValue_conversion_with_a_format_spec",
        "g_FormattedValue_self_documenting_expression",
        "g_FormattedValue_nested_format_spec",
        "g_Constant_float_literal",
        "g_Constant_str_literal_with_escapes_and_non_ASCII",
        "g_Constant_big_int_literal",
        "g_Name_local_shadowing_a_global_read_before_assignment",
        "g_Name_module_global_read",
        "g_Attribute_bound_method_as_a_value",
        "g_Subscript_tuple_index",
        "g_Subscript_nested_subscript",
        "g_Slice_symbolic_step",
        "g_Tuple_tuple_comparison",
        "g_List_empty_list",
        "g_Dict_dict_display",
        "g_Dict_duplicate_keys_in_a_display",
    }
)
