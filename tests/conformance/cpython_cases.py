"""The CPython conformance matrix: operations x value kinds, each case a tiny function, the
expected behaviour taken from CPython itself.

A *kind* is a kind of value the semantics can meet (int, bool, float, str, None, list,
tuple, dict, set, range, a user object without dunders, one with the relevant dunders, a function, a
class, an exception, an Enum member, a dataclass instance), given by one to three
representatives written as Python source. An *operation* is a statement template over the
operands ``a`` (and ``b``) ending in a ``return``. A *case* is one operation on one choice of
representatives; it is *concrete* (the operands are built in the function's body) or
*symbolic* (an operand of a kind with an input type, int, bool, str or list[int], is the
function's parameter).

Every case is a function of a generated module (one module per operation, imported once;
see ``OperationModule``). ``judge`` explores a case with one engine and compares what
pathloom reports with what CPython does:

* a concrete case must give one path whose outcome is CPython's: the same returned value
  (the replay's JSON encoding, ``encoding.values.encode_python``, compared type-exactly by
  ``replay.json_equal``) or the same exception type at the same line with the same message
  when CPython's message is deterministic;
* a symbolic case: every finished path's inputs, run in CPython, give the path's outcome
  (and message); for each representative of the symbolic kind, at most one path condition
  holds (exactly one when the exploration is complete) and its prediction is CPython's
  answer, unless that path is a cut; an incomplete exploration says why (cut paths with a
  concretization or bound reason, or an ``unsupported`` error);
* ``unsupported`` (``pathloom.errors.Unsupported``, one line, or a path cut with kind
  ``unsupported`` and the construct in its reason, the run-time form) is always an acceptable
  answer; any other exception raised by pathloom (a crash, an ``EngineBug``) is not.

Object addresses (``0x7f...``) are replaced by ``0x?`` in strings on both sides: the
analysis and the real call build different objects.
"""

from __future__ import annotations

import contextlib
import copy
import io
import re
import sys
import traceback
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from pathloom.api import Run
from pathloom.errors import PathloomError, Unsupported
from pathloom.frontend.module import Module, parse_module
from pathloom.frontend.realmodule import import_plan, import_real
from pathloom.options import Options
from pathloom.replay import json_equal
from pathloom.encoding.values import decode_inputs, encode_python
from pathloom.results import Exploration, PathResult
from pathloom.engines.registry import engine_names

ENGINES = tuple(engine_names())

# ----------------------------------------------------------------------------- value kinds


@dataclass(frozen=True)
class Kind:
    name: str
    reps: tuple[str, ...]  # representatives, as Python source
    input_type: str | None = None  # the annotation that makes it a symbolic input


KINDS: tuple[Kind, ...] = (
    Kind("int", ("0", "-3", "7"), "int"),
    Kind("bool", ("True", "False"), "bool"),
    Kind("float", ("1.5", "0.0")),
    Kind("str", ("''", "'ab'"), "str"),
    Kind("None", ("None",)),
    Kind("list", ("[]", "[1, 2]"), "list[int]"),
    Kind("tuple", ("()", "(1, 'a')")),
    Kind("dict", ("{}", "{1: 'a', 'ab': 2, (1, 'a'): None}")),
    Kind("set", ("set()", "{3, True, (1, 2)}", "{'ab', -2}")),
    Kind("range", ("range(3)",)),
    Kind("object", ("Plain()",)),
    Kind("dunder", ("Rich(2)", "Seq()")),
    Kind("function", ("helper",)),
    Kind("class", ("Plain",)),
    Kind("exception", ("Oops('x')", "ValueError('x')")),
    Kind("enum", ("Color.RED",)),
    Kind("dataclass", ("Point(1, 2)",)),
    Kind("module-level", ("TABLE", "ITEMS")),
)
KIND = {k.name: k for k in KINDS}
SYMBOLIC_KINDS = tuple(k for k in KINDS if k.input_type is not None)
NUMBERS = ("int", "bool", "float")
SEQUENCES = ("str", "list", "tuple", "range")

# The classes and functions the representatives use. ``Rich`` defines every dunder an
# operation of the matrix can call (each returns a value that tells which one ran); ``Seq``
# only the old sequence protocol (``__len__`` and ``__getitem__``); ``Plain`` nothing.
PRELUDE = """\
import dataclasses
import enum


class Plain:
    pass


class Rich:
    def __init__(self, v: int) -> None:
        self.v = v

    def __repr__(self) -> str:
        return 'Rich(' + str(self.v) + ')'

    def __eq__(self, other: object) -> object:
        return 'eq'

    def __lt__(self, other: object) -> object:
        return 'lt'

    def __le__(self, other: object) -> object:
        return 'le'

    def __gt__(self, other: object) -> object:
        return 'gt'

    def __ge__(self, other: object) -> object:
        return 'ge'

    def __add__(self, other: object) -> object:
        return 'add'

    def __radd__(self, other: object) -> object:
        return 'radd'

    def __sub__(self, other: object) -> object:
        return 'sub'

    def __rsub__(self, other: object) -> object:
        return 'rsub'

    def __mul__(self, other: object) -> object:
        return 'mul'

    def __rmul__(self, other: object) -> object:
        return 'rmul'

    def __truediv__(self, other: object) -> object:
        return 'truediv'

    def __rtruediv__(self, other: object) -> object:
        return 'rtruediv'

    def __floordiv__(self, other: object) -> object:
        return 'floordiv'

    def __rfloordiv__(self, other: object) -> object:
        return 'rfloordiv'

    def __mod__(self, other: object) -> object:
        return 'mod'

    def __rmod__(self, other: object) -> object:
        return 'rmod'

    def __pow__(self, other: object) -> object:
        return 'pow'

    def __rpow__(self, other: object) -> object:
        return 'rpow'

    def __and__(self, other: object) -> object:
        return 'and'

    def __rand__(self, other: object) -> object:
        return 'rand'

    def __or__(self, other: object) -> object:
        return 'or'

    def __ror__(self, other: object) -> object:
        return 'ror'

    def __xor__(self, other: object) -> object:
        return 'xor'

    def __rxor__(self, other: object) -> object:
        return 'rxor'

    def __lshift__(self, other: object) -> object:
        return 'lshift'

    def __rlshift__(self, other: object) -> object:
        return 'rlshift'

    def __rshift__(self, other: object) -> object:
        return 'rshift'

    def __rrshift__(self, other: object) -> object:
        return 'rrshift'

    def __invert__(self) -> object:
        return 'invert'

    def __format__(self, spec: str) -> str:
        return 'format:' + spec

    def __divmod__(self, other: object) -> object:
        return 'divmod'

    def __rdivmod__(self, other: object) -> object:
        return 'rdivmod'

    def __neg__(self) -> object:
        return 'neg'

    def __pos__(self) -> object:
        return 'pos'

    def __abs__(self) -> object:
        return 'abs'

    def __round__(self) -> object:
        return 'round'

    def __bool__(self) -> bool:
        return False

    def __len__(self) -> int:
        return 3

    def __index__(self) -> int:
        return 1

    def __contains__(self, item: object) -> object:
        return 1

    def __getitem__(self, key: object) -> object:
        return 'item'

    def __setitem__(self, key: object, value: object) -> None:
        self.v = value

    def __iter__(self) -> object:
        return iter([self.v, 'it'])

    def __call__(self) -> object:
        return 'called'

    def __getattr__(self, name: str) -> object:
        if name.startswith('__'):
            raise AttributeError(name)
        return 'attr'


class Seq:
    def __len__(self) -> int:
        return 2

    def __getitem__(self, i: object) -> object:
        if i == 0:
            return 'p'
        if i == 1:
            return 'q'
        raise IndexError(i)


class Oops(Exception):
    pass


class Color(enum.Enum):
    RED = 1


@dataclasses.dataclass
class Point:
    x: int
    y: int


def helper() -> int:
    return 1


TABLE = {0: 'z', 'ab': 1}
ITEMS = [1, 'ab']
"""
MODULE_LEVEL = ("TABLE", "ITEMS")  # mutable: restored after each call in CPython

# ----------------------------------------------------------------------------- operations


@dataclass(frozen=True)
class Operation:
    name: str
    arity: int
    body: str  # statements over a (and b), ending in a return; lines separated by "\n"
    # for a method: the method name; receivers without it get one argument kind only
    method: str | None = None
    # the full product of the representatives for pairs of these kinds (values matter)
    valued: tuple[str, ...] = ()
    # which operand is the container (0 or 1): every representative of every concrete kind
    # there meets every symbolic kind on the other side (symbolic lookups and membership
    # are modelled, in real module-level objects too)
    container: int | None = None


def _ops() -> tuple[Operation, ...]:
    ops: list[Operation] = []
    for sym in ("+", "-", "*", "//", "%", "**", "/", "&", "|", "^", "<<", ">>"):
        ops.append(Operation(sym, 2, f"return a {sym} b", valued=NUMBERS))
    for sym in ("==", "!=", "<", "<=", ">", ">="):
        ops.append(Operation(sym, 2, f"return a {sym} b", valued=NUMBERS))
    for sym in ("in", "not in"):
        ops.append(Operation(sym, 2, f"return a {sym} b", container=1))
    for sym in ("is", "is not"):
        ops.append(Operation(sym, 2, f"return a {sym} b"))
    ops += [
        Operation("and", 2, "return a and b"),
        Operation("or", 2, "return a or b"),
        Operation("+=", 2, "c = a\na += b\nreturn (a, c)", valued=NUMBERS),
        Operation("&=", 2, "c = a\na &= b\nreturn (a, c)", valued=NUMBERS),
        Operation(">>=", 2, "c = a\na >>= b\nreturn (a, c)", valued=NUMBERS),
        Operation('f"{a}{b}"', 2, 'return f"<{a}|{b}>"'),
        Operation("min(a, b)", 2, "return min(a, b)", valued=NUMBERS),
        Operation("max(a, b)", 2, "return max(a, b)", valued=NUMBERS),
        Operation("min of tuples", 2, "return min([(a, 1), (b, 2)])", valued=NUMBERS),  # items that are no one term: a split (was a crash)
        Operation("max of tuples", 2, "return max((a, 1), (b, 2), (a, 0))", valued=NUMBERS),
        Operation("divmod", 2, "return divmod(a, b)", valued=NUMBERS),
        Operation("isinstance", 2, "return isinstance(a, b)"),
        Operation("a[b]", 2, "return a[b]", valued=("int", "dict") + SEQUENCES, container=0),
        Operation("a[b] = 9", 2, "a[b] = 9\nreturn a", valued=("int", "dict") + SEQUENCES, container=0),
        Operation("del a[b]", 2, "del a[b]\nreturn a", valued=("int", "dict") + SEQUENCES, container=0),
        Operation("a[b:]", 2, "return a[b:]", valued=("int", "bool") + SEQUENCES, container=0),
        Operation("a[:b]", 2, "return a[:b]", valued=("int", "bool") + SEQUENCES, container=0),
        Operation("a[::b]", 2, "return a[::b]", valued=("int", "bool") + SEQUENCES, container=0),
        Operation("a[b::-2]", 2, "return a[b::-2]", valued=("int", "bool") + SEQUENCES, container=0),
        Operation("append", 2, "a.append(b)\nreturn a", method="append"),
        Operation("index", 2, "return a.index(b)", method="index"),
        Operation("count", 2, "return a.count(b)", method="count"),
        Operation("insert", 2, "a.insert(b, 5)\nreturn a", method="insert"),
        Operation("find", 2, "return a.find(b)", method="find"),
        Operation("startswith", 2, "return a.startswith(b)", method="startswith"),
        Operation("endswith", 2, "return a.endswith(b)", method="endswith"),
        Operation("get", 2, "return a.get(b)", method="get", container=0),
        Operation("setdefault", 2, "v = a.setdefault(b, 5)\nreturn (v, a)", method="setdefault", container=0),
        Operation("a.pop(b, 0)", 2, "v = a.pop(b, 0)\nreturn (v, a)", method="pop", container=0),
        Operation("{a: 1, b: 2}", 2, "return {a: 1, b: 2}"),
        Operation("{a, b}", 2, "return {a, b}"),
        Operation("add", 2, "a.add(b)\nreturn a", method="add", container=0),
        Operation("discard", 2, "a.discard(b)\nreturn a", method="discard", container=0),
        Operation("remove", 2, "a.remove(b)\nreturn a", method="remove", container=0),
        Operation("union", 2, "return a.union(b)", method="union"),
        Operation("issubset", 2, "return a.issubset(b)", method="issubset"),
        Operation("a ^= b", 2, "c = a\na ^= b\nreturn (a, c)"),
        Operation("-a", 1, "return -a"),
        Operation("+a", 1, "return +a"),
        Operation("~a", 1, "return ~a"),
        Operation("not", 1, "return not a"),
        Operation("if a", 1, "if a:\n    return 'yes'\nreturn 'no'"),
        Operation("len", 1, "return len(a)"),
        Operation("abs", 1, "return abs(a)"),
        Operation("ord", 1, "return ord(a)"),
        Operation("chr", 1, "return chr(a)"),
        Operation("bool", 1, "return bool(a)"),
        Operation("int", 1, "return int(a)"),
        Operation("str", 1, "return str(a)"),
        Operation("repr", 1, "return repr(a)"),
        Operation('f"{a!r}"', 1, 'return f"{a!r}"'),
        Operation('f"{a:>4}"', 1, 'return f"{a:>4}"'),
        Operation("sorted", 1, "return sorted(a)"),
        Operation("sum", 1, "return sum(a)"),
        Operation("sum(a, 3)", 1, "return sum(a, 3)"),
        Operation("a.sort()", 1, "a.sort()\nreturn a"),
        Operation("sorted(a, reverse=True)", 1, "return sorted(a, reverse=True)"),
        Operation("'-'.join(a)", 1, "return '-'.join(a)"),
        Operation("list(a)", 1, "return list(a)"),
        Operation("a.reverse()", 1, "a.reverse()\nreturn a"),
        Operation("a.copy()", 1, "b = a.copy()\nb.clear()\nreturn (a, b)"),
        Operation("tuple(a)", 1, "return tuple(a)"),
        Operation("isinstance(a, (int, str))", 1, "return isinstance(a, (int, str))"),
        Operation("round", 1, "return round(a)"),
        Operation("min(a)", 1, "return min(a)"),
        Operation("max(a)", 1, "return max(a)"),
        Operation("print", 1, "return print(a)"),
        Operation("for i in range(a)", 1, "t = []\nfor i in range(a):\n    t.append(i)\nreturn t"),
        Operation("for v in a", 1, "t = []\nfor v in a:\n    t.append(v)\nreturn t"),
        Operation("for p in zip(a, b)", 2, "t = []\nfor p in zip(a, b):\n    t.append(p)\nreturn t"),
        Operation("for v in reversed(a)", 1, "t = []\nfor v in reversed(a):\n    t.append(v)\nreturn t"),
        Operation("for i, v in enumerate(a, 1)", 1, "t = []\nfor i, v in enumerate(a, 1):\n    t.append((i, v))\nreturn t"),
        Operation("p, q = a", 1, "p, q = a\nreturn (p, q)"),
        Operation("a[::-1]", 1, "return a[::-1]"),
        Operation("a[1:-1]", 1, "return a[1:-1]"),
        Operation("a.missing", 1, "return a.missing"),
        Operation("a.extra = 1", 1, "a.extra = 1\nreturn a.extra"),
        Operation("a()", 1, "return a()"),
        Operation("pop", 1, "v = a.pop()\nreturn (v, a)"),
        Operation("items", 1, "t = []\nfor k, v in a.items():\n    t.append((k, v))\nreturn (t, list(a.values()))"),
        Operation("{v: 0 for v in a}", 1, "return {v: 0 for v in a}"),
        Operation("{v for v in a}", 1, "return {v for v in a}"),
        Operation("set(a)", 1, "return set(a)"),
        Operation("upper", 1, "return a.upper()"),
        Operation("split", 1, "return a.split()"),
    ]
    return tuple(ops)


OPERATIONS = _ops()
OPERATION = {op.name: op for op in OPERATIONS}

# ----------------------------------------------------------------------------- cases


@dataclass(frozen=True)
class Operand:
    kind: str
    rep: str  # the representative's source, or the parameter's name for a symbolic operand
    symbolic: bool = False

    def __str__(self) -> str:
        return f"{self.rep}: {KIND[self.kind].input_type}" if self.symbolic else self.rep


@dataclass(frozen=True)
class Case:
    op: str
    operands: tuple[Operand, ...]
    number: int  # unique within the operation's module

    @property
    def symbolic(self) -> bool:
        return any(o.symbolic for o in self.operands)

    @property
    def function(self) -> str:
        return f"{'s' if self.symbolic else 'c'}{self.number}"

    @property
    def id(self) -> str:
        return f"{self.op} [{', '.join(str(o) for o in self.operands)}]"

    def source(self) -> str:
        params = [f"{o.rep}: {KIND[o.kind].input_type}" for o in self.operands if o.symbolic]
        lines = [f"def {self.function}({', '.join(params)}) -> object:"]
        for name, operand in zip("ab", self.operands):
            lines.append(f"    {name} = {operand.rep}")
        lines += ["    " + line for line in OPERATION[self.op].body.split("\n")]
        return "\n".join(lines) + "\n"

    def program(self) -> str:
        """The case alone, as a minimal program (for failure messages and bug reports)."""
        return self.source()

    def instances(self) -> list[tuple[str, ...]]:
        """The operands' sources, a symbolic operand standing for each of its kind's
        representatives: the values the case is checked on."""
        choices: list[tuple[str, ...]] = [()]
        for o in self.operands:
            reps = KIND[o.kind].reps if o.symbolic else (o.rep,)
            choices = [c + (r,) for c in choices for r in reps]
        return choices


def _pick(kind: Kind, partner: Kind) -> str:
    """One representative of ``kind`` for a pairing with ``partner``: over the partners of a
    kind, every representative of it is used (deterministic rotation)."""
    return kind.reps[KINDS.index(partner) % len(kind.reps)]


_NAMESPACE: dict[str, Any] = {}


def prelude_eval(source: str) -> object:
    """A representative (any expression over them) evaluated by CPython in the prelude."""
    if not _NAMESPACE:
        exec(PRELUDE, _NAMESPACE)  # noqa: S102 - our own prelude
    return eval(source, _NAMESPACE)


def _hasattr_any(kind: Kind, name: str) -> bool:
    """Whether CPython finds method ``name`` on a representative of ``kind``."""
    return any(hasattr(prelude_eval(rep), name) for rep in kind.reps)


SYMBOLIC_SAMPLE = 8  # one in this many cases with one symbolic and one concrete operand
MULTISE_CONCRETE_SAMPLE = 12  # MultiSE runs one in this many concrete cases (and every symbolic one)


def runs_on(engine: str, case: Case) -> bool:
    """Whether ``engine`` runs ``case``: DSE runs every case; MultiSE every symbolic case and
    a deterministic sample of the concrete ones (each exploration builds a CUDD manager,
    about 13 ms, so the whole concrete matrix would take it two minutes). The concrete
    semantics is the shared one; the sample still has every operation with every kind on
    each side (``_multise_sample``)."""
    return engine == "dse" or case.symbolic or case.id in MULTISE_CONCRETE


def _symbolic_sampled(op: str, left: Kind, right: Kind, side: str) -> bool:
    """The deterministic sample of the cases with one symbolic and one concrete operand
    (one in ``SYMBOLIC_SAMPLE``, by a stable hash), so that the suite stays fast."""
    return zlib.crc32(f"{op}|{left.name}|{right.name}|{side}".encode()) % SYMBOLIC_SAMPLE == 0


def cases_for(op: Operation) -> list[Case]:
    """The cases of one operation: concrete ones for every kind (pair of kinds), with every
    representative of a kind used and the full product where ``op.valued`` says values
    matter; symbolic ones for every kind with an input type (both operands symbolic for a
    pair of such kinds; with one symbolic operand, every pair for a container operation and
    a deterministic sample of the pairs otherwise)."""
    found: list[tuple[Operand, ...]] = []
    if op.arity == 1:
        for kind in KINDS:
            found += [(Operand(kind.name, rep),) for rep in kind.reps]
        found += [(Operand(kind.name, "x", True),) for kind in SYMBOLIC_KINDS]
    else:
        methods = {k.name: op.method is None or _hasattr_any(k, op.method) for k in KINDS}
        for left in KINDS:
            partners = KINDS if methods[left.name] else (KIND["int"],)
            for right in partners:
                if left.name in op.valued and right.name in op.valued:
                    found += [(Operand(left.name, x), Operand(right.name, y)) for x in left.reps for y in right.reps]
                else:
                    found.append((Operand(left.name, _pick(left, right)), Operand(right.name, _pick(right, left))))
                sym_left, sym_right = left.input_type is not None, right.input_type is not None
                if sym_left and sym_right:
                    found.append((Operand(left.name, "x", True), Operand(right.name, "y", True)))
                elif sym_left and op.container == 1:
                    found += [(Operand(left.name, "x", True), Operand(right.name, rep)) for rep in right.reps]
                elif sym_right and op.container == 0:
                    found += [(Operand(left.name, rep), Operand(right.name, "x", True)) for rep in left.reps]
                elif sym_left and _symbolic_sampled(op.name, left, right, "left"):
                    found.append((Operand(left.name, "x", True), Operand(right.name, _pick(right, left))))
                elif sym_right and _symbolic_sampled(op.name, left, right, "right"):
                    found.append((Operand(left.name, _pick(left, right)), Operand(right.name, "x", True)))
    return [Case(op.name, operands, i) for i, operands in enumerate(found, 1)]


ALL_CASES: dict[str, list[Case]] = {op.name: cases_for(op) for op in OPERATIONS}


def _multise_sample() -> frozenset[str]:
    """One in ``MULTISE_CONCRETE_SAMPLE`` concrete cases (by a stable hash of the id), plus,
    for each operation, cases until each kind has been its first operand and its second
    (taken in an order that starts at a different place for each operation)."""
    chosen: set[str] = set()
    for k, op in enumerate(OPERATIONS):
        cases = [c for c in ALL_CASES[op.name] if not c.symbolic]
        start = (k * 37) % len(cases)
        covered: set[tuple[int, str]] = set()
        for case in cases[start:] + cases[:start]:
            sides = {(i, o.kind) for i, o in enumerate(case.operands)}
            if not sides <= covered or zlib.crc32(case.id.encode()) % MULTISE_CONCRETE_SAMPLE == 0:
                chosen.add(case.id)
                covered |= sides
    return frozenset(chosen)


MULTISE_CONCRETE = _multise_sample()


def size(engine: str) -> tuple[int, int]:
    """(concrete cases, symbolic cases) that ``engine`` runs."""
    cases = [c for cases in ALL_CASES.values() for c in cases if runs_on(engine, c)]
    symbolic = sum(1 for c in cases if c.symbolic)
    return len(cases) - symbolic, symbolic


def size_sentence() -> str:
    """The suite's size, as docs/testing.md states it."""
    (dse_c, dse_s), (mse_c, mse_s) = size("dse"), size("multise")
    return (
        f"{len(OPERATIONS)} operations x {len(KINDS)} kinds = {dse_c + dse_s} cases for dse "
        f"({dse_c} concrete, {dse_s} symbolic) and {mse_c + mse_s} for multise (the same "
        f"symbolic ones, {mse_c} of the concrete ones)"
    )


# ----------------------------------------------------------------------------- the module


class OperationModule:
    """The generated module of one operation's cases, written under ``directory`` with a name
    of its own and imported once (``realmodule.import_real``, as ``pathloom`` imports a file,
    without its child-process check: the module only defines classes and functions)."""

    def __init__(self, op: str, directory: Path) -> None:
        self.op = op
        self.cases = ALL_CASES[op]
        slug = "".join(c if c.isalnum() else "_" for c in op)
        self.path = directory / f"conf_{OPERATIONS.index(OPERATION[op]):02d}_{slug}.py"
        self.source = PRELUDE + "".join("\n\n" + case.source() for case in self.cases)
        self.path.write_text(self.source, encoding="utf-8")
        self.runtime: ModuleType = import_real(str(self.path))
        self.pristine = {name: copy.deepcopy(getattr(self.runtime, name)) for name in MODULE_LEVEL}

    def changed(self) -> list[str]:
        """The module-level objects that are no longer as imported (each is then restored)."""
        found = []
        for name, before in self.pristine.items():
            if getattr(self.runtime, name) != before:
                found.append(f"{name} = {getattr(self.runtime, name)!r}")
                setattr(self.runtime, name, copy.deepcopy(before))
        return found

    def module(self) -> Module:
        """A freshly parsed ``Module`` (one per engine: lowering caches are not shared)."""
        return parse_module(self.source, str(self.path), self.runtime)

    def unload(self) -> None:
        sys.modules.pop(import_plan(str(self.path))[1], None)


# ----------------------------------------------------------------------------- CPython's answer

_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def _normalized(value: Any) -> Any:
    if isinstance(value, str):
        return _ADDRESS.sub("0x?", value)
    if isinstance(value, list):
        return [_normalized(v) for v in value]
    if isinstance(value, dict):
        return {k: _normalized(v) for k, v in value.items()}
    return value


def _message(exc: BaseException) -> str | None:
    """What pathloom reports as an exception's message: ``str(exc)``, as a traceback shows it."""
    try:
        return str(exc)
    except Exception:  # noqa: BLE001 - a broken __str__: no message to compare
        return None


@dataclass(frozen=True)
class Observed:
    outcome: str  # return | raise
    returned: Any = None
    exception: str | None = None
    line: int | None = None
    message: str | None = None

    def __str__(self) -> str:
        if self.outcome == "return":
            return f"returns {self.returned!r}"
        return f"raises {self.exception} at line {self.line} ({self.message!r})"


def run_in_cpython(opmodule: OperationModule, function: str, inputs: dict[str, Any]) -> Observed:
    """What CPython does when the case's function is called with ``inputs`` (the
    module-level objects it may change are restored afterwards)."""
    runtime, path = opmodule.runtime, opmodule.path
    fn = getattr(runtime, function)
    args = decode_inputs(inputs, vars(runtime))
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            value = fn(**args)
            returned = _normalized(encode_python(value))
    except Exception as exc:  # noqa: BLE001 - whatever CPython raises is the expected answer
        line = None
        for frame in traceback.extract_tb(exc.__traceback__):
            if Path(frame.filename).resolve() == path.resolve():
                line = frame.lineno
        return Observed("raise", exception=type(exc).__name__, line=line, message=_message(exc))
    finally:
        opmodule.changed()
    return Observed("return", returned=returned)


# ----------------------------------------------------------------------------- the judge

# how a cut path says why it stopped: a concretization, a bound (semantics.control's texts)
BOUND_REASONS = ("concretized: ", "loop iteration bound ", "call depth bound ", "list repetition ", "chr() ", "timeout", "shift ")


@dataclass
class Verdict:
    case: Case
    engine: str
    problems: list[str] = field(default_factory=list)
    unsupported: str | None = None
    paths: list[PathResult] = field(default_factory=list)
    complete: bool = True

    @property
    def ok(self) -> bool:
        return not self.problems

    def describe(self) -> str:
        shown = [f"{self.engine}: {self.case.id}", "    " + self.case.program().replace("\n", "\n    ").rstrip()]
        shown += [f"  - {p}" for p in self.problems]
        return "\n".join(shown)


def _describe_path(path: PathResult) -> str:
    if path.outcome == "return":
        return f"returns {path.returned!r}"
    if path.outcome == "raise":
        return f"raises {path.exception} at line {path.line} ({path.message!r})"
    return f"{path.outcome} at line {path.line} ({path.reason})"


def _agrees(path: PathResult, observed: Observed, returned: Any, with_message: bool) -> bool:
    if path.outcome != observed.outcome:
        return False
    if path.outcome == "return":
        return json_equal(_normalized(returned), observed.returned)
    if path.exception != observed.exception or path.line != observed.line:
        return False
    if with_message and observed.message is not None and "0x" not in observed.message:
        return _normalized(path.message) == _normalized(observed.message)
    return True


def options(engine: str) -> Options:
    """Small input bounds (the representatives need two items) keep the symbolic cases fast."""
    return Options(engine=engine, timeout=30, max_list_len=2, max_str_len=2, max_concretizations=3)


def explore_case(module: Module, case: Case, engine: str) -> tuple[Exploration | None, list[PathResult], str | None, str | None]:
    """(exploration, paths found, unsupported message, crash) of one case."""
    paths: list[PathResult] = []
    try:
        run = Run(module, case.function, options(engine))
    except Unsupported as exc:
        return None, paths, exc.one_line(), None
    except Exception as exc:  # noqa: BLE001 - a crash of pathloom is a finding
        return None, paths, None, _crash(exc)
    try:
        for path in run.results():
            paths.append(path)  # noqa: PERF402 - what was found before an exception is kept
    except Unsupported as exc:
        run.exploration.complete = False
        return run.exploration, paths, exc.one_line(), None
    except Exception as exc:  # noqa: BLE001
        return run.exploration, paths, None, _crash(exc)
    return run.exploration, paths, None, None


def _crash(exc: BaseException) -> str:
    kind = "internal inconsistency (exit 3)" if isinstance(exc, PathloomError) and exc.exit_code == 3 else "crash"
    where = traceback.extract_tb(exc.__traceback__)[-1]
    return f"{kind}: {type(exc).__name__}: {exc} (at {Path(where.filename).name}:{where.lineno})"


def judge(opmodule: OperationModule, module: Module, case: Case, engine: str) -> Verdict:
    verdict = Verdict(case, engine)
    exploration, paths, unsupported, crash = explore_case(module, case, engine)
    verdict.paths = paths
    if crash is not None:
        verdict.problems.append(crash)
        return verdict
    if unsupported is not None:
        verdict.unsupported = unsupported
        if "\n" in unsupported or "unsupported: " not in unsupported:
            verdict.problems.append(f"an unsupported construct is not reported on one line: {unsupported!r}")
    assert exploration is not None or not paths
    if exploration is None:
        return verdict
    verdict.complete = exploration.complete and unsupported is None

    def expected(inputs: dict[str, Any]) -> Observed:
        return run_in_cpython(opmodule, case.function, inputs)

    changed = opmodule.changed()
    if changed:
        verdict.problems.append(f"the exploration changed module-level objects: {', '.join(changed)}")
    for path in paths:
        if path.outcome in ("return", "raise"):
            observed = expected(path.inputs or {})
            if not _agrees(path, observed, path.returned, with_message=True):
                verdict.problems.append(f"inputs {path.inputs}: pathloom {_describe_path(path)}, CPython {observed}")
        elif path.outcome == "cut" and path.cut == "unsupported":
            # the run-time form of a refusal: the path that meets what the semantics does not
            # model is cut there, with the construct in its reason (one line)
            if "\n" in (path.reason or "") or not (path.reason or "").startswith("unsupported: "):
                verdict.problems.append(f"an unsupported cut does not say what on one line: {_describe_path(path)}")
            verdict.unsupported = verdict.unsupported or path.reason
        elif path.outcome == "cut":
            if not case.symbolic:
                verdict.problems.append(f"a concrete case has a cut path: {_describe_path(path)}")
            elif not (path.reason or "").startswith(BOUND_REASONS):
                verdict.problems.append(f"a cut path without a reason: {_describe_path(path)}")
    if not exploration.complete and unsupported is None and not any(p.outcome in ("cut", "unknown") for p in paths):
        verdict.problems.append("incomplete exploration with no cut path and no error saying why")
    if not case.symbolic:
        if verdict.unsupported is None and (len(paths) != 1 or paths[0].outcome not in ("return", "raise")):
            verdict.problems.append(f"a concrete case gives {len(paths)} path(s): {[_describe_path(p) for p in paths]}")
        return verdict
    _check_representatives(verdict, exploration, paths, expected)
    return verdict


def _representative_inputs(case: Case) -> list[dict[str, Any]]:
    """Inputs made of the representatives of the symbolic operands' kinds."""
    choices: list[dict[str, Any]] = [{}]
    for operand in case.operands:
        if operand.symbolic:
            values = [eval(rep) for rep in KIND[operand.kind].reps]
            choices = [{**c, operand.rep: v} for c in choices for v in values]
    return choices


def _check_representatives(verdict: Verdict, exploration: Exploration, paths: list[PathResult], expected: Callable[[dict[str, Any]], Observed]) -> None:
    for inputs in _representative_inputs(verdict.case):
        holding = [p for p in paths if exploration.holds(p, inputs)]
        if len(holding) > 1:
            verdict.problems.append(f"inputs {inputs}: {len(holding)} path conditions hold")
            continue
        if not holding:
            if verdict.complete:
                verdict.problems.append(f"inputs {inputs}: no path condition holds, yet the exploration is complete")
            continue
        path = holding[0]
        if path.outcome not in ("return", "raise"):
            continue
        observed = expected(inputs)
        returned = exploration.predicted_return(path, inputs) if path.outcome == "return" else None
        if not _agrees(path, observed, returned, with_message=False):
            shown = f"returns {returned!r}" if path.outcome == "return" else _describe_path(path)
            verdict.problems.append(f"representative inputs {inputs}: pathloom predicts {shown}, CPython {observed}")
