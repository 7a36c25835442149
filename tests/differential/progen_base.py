"""The small types progen's builders share: value kinds, variables, expressions, contexts.

``progen._Builder`` (the classic subset) and ``progen_edges.EdgeBuilder`` (the real-module
features, mixed into it) write expressions as ``_E`` (text, and whether it is safe as an
operand without parentheses) over the variables of a ``_Ctx`` (``_Var``: its text, kind,
whether it may be assigned, the class it is an instance of).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence, TypeVar

T = TypeVar("T")

# value kinds used inside the generator
INT, BOOL, STR, CHAR, LIST, OBJ = "int", "bool", "str", "char", "list", "obj"
GEN = "gen"  # a helper that is a generator of ints (``Iterator[int]``)
# kinds of the real-module features: an instance of the dunder class N0, a member of the
# Enum Color, an instance of the dataclass D0, the module-level dict TABLE
DOBJ, ENUM, DC, DICT = "dobj", "enum", "dc", "dict"
SET = "set"  # the set local ``s0`` (a set of ints)
ANNOTATION = {INT: "int", BOOL: "bool", STR: "str", LIST: "list[int]"}

ENTRY_NAME = "f"
MAX_NONLINEAR = 2  # non-linear ops (e*e, e**2, e**3) per program


@dataclass(frozen=True)
class _Var:
    text: str  # expression text: "x", "self.v", "o0.w"
    ty: str
    writable: bool
    cls: "_Class | _Dunder | _EnumCls | _DataCls | None" = None
    mutable: bool = True  # False: a list never appended to or popped (a module constant)


@dataclass(frozen=True)
class _Sig:
    name: str
    params: tuple[str, ...]
    ret: str
    rec: tuple[str, int] | None = None  # ("min" | "guard", K) for the recursive helper


@dataclass(frozen=True)
class _Class:
    name: str
    fields: tuple[str, ...]
    methods: tuple[_Sig, ...]


@dataclass(frozen=True)
class _Dunder:
    """The class N0: ``__init__(v)``, some of the dunders, a property ``big``, a static
    method ``clamp`` and a class method ``make`` (``extras``)."""

    name: str
    dunders: frozenset[str]
    extras: frozenset[str]


@dataclass(frozen=True)
class _EnumCls:
    name: str
    members: tuple[str, ...]  # values 1..len(values); an alias repeats value 1
    n_values: int


@dataclass(frozen=True)
class _DataCls:
    name: str
    fields: tuple[tuple[str, str], ...]  # (name, kind); "a" has no default
    order: bool
    method: bool


@dataclass(frozen=True)
class _E:
    text: str
    atom: bool  # safe to use as an operand without parentheses


def _par(e: _E) -> str:
    return e.text if e.atom else f"({e.text})"


def _indent(lines: Sequence[str]) -> list[str]:
    return ["    " + line for line in lines]


@dataclass
class _Fn:
    kind: str  # "entry" | "helper" | "method"
    ret: str
    callables: tuple[_Sig, ...]
    budget: int
    max_loop_depth: int
    counters: dict[str, int] = field(default_factory=dict)
    self_sig: _Sig | None = None

    def fresh(self, prefix: str) -> str:
        n = self.counters.get(prefix, 0)
        self.counters[prefix] = n + 1
        return f"{prefix}{n}"


@dataclass(frozen=True)
class _Ctx:
    fn: _Fn
    scope: tuple[_Var, ...]
    depth: int = 0  # number of enclosing compound statements
    if_depth: int = 0
    loop_depth: int = 0
    in_branch: bool = False  # innermost block is an if/else/try/except body
    can_continue: bool = False
    frozen: frozenset[str] = frozenset()  # lists that must not be mutated here

    @property
    def linear(self) -> bool:
        return self.fn.kind != "entry" or self.loop_depth > 0

    def vars(self, *tys: str) -> list[_Var]:
        return [v for v in self.scope if v.ty in tys]

    def writable(self, *tys: str) -> list[_Var]:
        return [v for v in self.scope if v.ty in tys and v.writable]

    def mutable_lists(self) -> list[_Var]:
        return [v for v in self.scope if v.ty == LIST and v.mutable and v.text not in self.frozen]

    def branch(self, *, is_if: bool = False) -> "_Ctx":
        return _Ctx(
            self.fn,
            self.scope,
            self.depth + 1,
            self.if_depth + (1 if is_if else 0),
            self.loop_depth,
            True,
            self.can_continue,
            self.frozen,
        )

    def loop(self, extra: _Var, *, can_continue: bool, freeze: str | None = None) -> "_Ctx":
        frozen = self.frozen | {freeze} if freeze else self.frozen
        return _Ctx(
            self.fn,
            self.scope + (extra,),
            self.depth + 1,
            self.if_depth,
            self.loop_depth + 1,
            False,
            can_continue,
            frozen,
        )


STR_LITERALS = ["a", "", "b", "ab", "ba", "A"]
MESSAGES = ["bad", "neg", "oops", "unreachable", "too big"]
CMP_OPS = ["<", "<=", "==", "!=", ">", ">="]
