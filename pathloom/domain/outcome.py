"""What executing one instruction can lead to: the closed set of outcomes every engine consumes.

A semantics function returns an ``Outcome``: ``Ok`` (a value, plus heap writes), ``Throw`` (an
exception instance), ``Invoke`` (a call of analyzed code the engine must perform), ``Cut`` (a
bound or a theory limit stops this path; it is reported, never dropped) or ``Split``: cases
guarded by conditions (bool or Bool terms) that are pairwise disjoint and together cover the
current path. Engines decide which cases are feasible and how states are represented; they
never reinterpret a case. ``RuntimeUnsupported`` is raised for an operation outside the
subset; the engine turns it into a located ``Unsupported`` error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Union

from pathloom.cuts import CutCause, CutReason
from pathloom.domain.values import ExcVal, Record, Ref
from pathloom.terms.expr import Arg, and_


@dataclass(frozen=True)
class Ok:
    value: object
    writes: tuple[tuple[Ref, Record], ...] = ()


@dataclass(frozen=True)
class Throw:
    """An exception raised by the instruction; ``line``, when given, is where CPython's
    traceback puts it in the analysed file (an operation run in CPython that raised inside
    a function of that file), instead of the instruction's own line."""

    exc: ExcVal
    line: int | None = None


@dataclass(frozen=True)
class Invoke:
    """Call analyzed function ``qualname``; when ``result`` is given it replaces the return value
    (used for ``__init__``, whose call evaluates to the new instance)."""

    qualname: str
    args: tuple[object, ...]
    kwargs: tuple[tuple[str, object], ...]
    result: object = None
    writes: tuple[tuple[Ref, Record], ...] = ()


@dataclass(frozen=True)
class Cut:
    reason: str
    kind: CutReason = CutReason.MODEL_LIMIT

    @property
    def cause(self) -> CutCause:
        return CutCause(self.kind, self.reason)


@dataclass(frozen=True)
class Refine:
    """Replace records by equivalent ones under the case condition (e.g. fix a symbolic list
    length to one of its values), then execute the same instruction again."""

    writes: tuple[tuple[Ref, Record], ...]


@dataclass(frozen=True)
class Split:
    cases: tuple[tuple[Arg, "Outcome"], ...]


Outcome = Union[Ok, Throw, Invoke, Cut, Refine, Split]
Leaf = Union[Ok, Throw, Invoke, Cut, Refine]


class RuntimeUnsupported(Exception):
    """An operation outside the supported subset, met while executing an instruction: the
    path that meets it is cut there (``semantics.step.execute``)."""


class InterpreterStateLost(RuntimeUnsupported):
    """An operation run in CPython changed state every path shares (a module-level object) and
    it could not be put back: no later path could be trusted, so the exploration of the target
    stops here, refused with the construct's line (``control.unsupported_at``)."""


class NotModeled(RuntimeUnsupported):
    """The symbolic model does not cover this combination of operands: the instruction is
    run in CPython instead (``semantics.step``), or, where that is not possible, it is
    unsupported."""


def map_ok(outcome: Outcome, fn: "Callable[[Ok], Outcome]") -> Outcome:
    """``outcome`` with every ``Ok`` leaf replaced by ``fn(leaf)``."""
    if isinstance(outcome, Split):
        return Split(tuple((c, map_ok(o, fn)) for c, o in outcome.cases))
    if isinstance(outcome, Ok):
        return fn(outcome)
    return outcome


def throw(cls: str, message: str | None = None) -> Throw:
    return Throw(ExcVal(cls, (message,) if message is not None else ()))


def split(cases: list[tuple[Arg, Outcome]]) -> Outcome:
    """A ``Split`` without the cases whose condition is concretely false (one case: itself)."""
    live = [(c, o) for c, o in cases if c is not False]
    if len(live) == 1 and live[0][0] is True:
        return live[0][1]
    return Split(tuple(live))


def flatten(outcome: Outcome, guard: Arg = True) -> list[tuple[Arg, Leaf]]:
    """The leaves of nested splits, each with the conjunction of the conditions leading to it."""
    if not isinstance(outcome, Split):
        return [(guard, outcome)]
    result: list[tuple[Arg, Leaf]] = []
    for cond, sub in outcome.cases:
        conj = and_(guard, cond)
        if conj is not False:
            result.extend(flatten(sub, conj))
    return result
