"""What engines hand to reporters: frozen path results and the exploration summary.

Outcomes are a closed set, ``PathOutcome``: ``return``, ``raise``, ``cut`` (a bound stopped the
path; its kind, one of ``cuts.CutReason``, is in ``cut``) and ``unknown`` (the solver could not
decide a branch); a raise is ``explicit``, ``assert``
``implicit``, ``precondition`` or ``reach`` (``RaiseKind``). Both are ``StrEnum``s, equal to and written as their text, and
a ``PathResult`` refuses any other value. ``inputs`` and ``returned`` are JSON
values (see ``pathloom.encoding.values``); ``condition`` is the path condition as a term over the
input symbols, so callers can test which path a concrete input takes. A ``Bug`` is one
distinct bug, the bug paths that share kind, exception and line (``check`` reports each once).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Callable

from pathloom.cuts import CutReason
from pathloom.engine_stats import EngineStats
from pathloom.terms.expr import Arg

JSON = Any


class PathOutcome(StrEnum):
    RETURN = "return"
    RAISE = "raise"
    CUT = "cut"  # a bound (or the time limit) stopped the path
    UNKNOWN = "unknown"  # the solver could not decide


class RaiseKind(StrEnum):
    EXPLICIT = "explicit"  # a raise statement
    ASSERT = "assert"  # a failed assert
    IMPLICIT = "implicit"  # raised by an operation (a bug unless the code raises it on purpose)
    PRECONDITION = "precondition"  # a failed assert that opens the target: not a bug of it
    REACH = "reach"  # the marker ``reach`` raises where a copy of the target reaches its line


@dataclass(frozen=True)
class PathResult:
    outcome: PathOutcome
    inputs: dict[str, JSON] | None
    returned: JSON = None
    exception: str | None = None
    message: str | None = None
    line: int | None = None
    kind: RaiseKind | None = None  # for raise
    reason: str | None = None  # for cut and unknown
    cut: CutReason | None = None  # for cut: the kind of bound that stopped the path
    condition: Arg = True
    symbol_values: dict[str, Any] = field(default_factory=dict)
    # the returned value as a function of the input symbols' values (any input on this path)
    predict: Callable[[dict[str, Any]], JSON] | None = field(default=None, compare=False, repr=False)
    # the exception's message as a function of the input symbols' values (it may show them)
    predict_message: Callable[[dict[str, Any]], str | None] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "outcome", PathOutcome(self.outcome))  # ValueError on any other
        if self.kind is not None:
            object.__setattr__(self, "kind", RaiseKind(self.kind))
        if self.cut is not None:
            object.__setattr__(self, "cut", CutReason(self.cut))
        if (self.cut is not None) != (self.outcome == PathOutcome.CUT):
            raise ValueError(f"a {self.outcome} path with cut kind {self.cut}: only a cut path has one, and it always does")

    @property
    def is_bug(self) -> bool:
        return self.outcome == PathOutcome.RAISE and self.kind in (RaiseKind.IMPLICIT, RaiseKind.ASSERT)


def input_size(value: JSON) -> float:
    """How simple an input is (smaller is simpler): the sum of the absolute values of its
    numbers and the lengths of its strs and lists, over all its parts (a bool counts 0 or 1)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return float(abs(value)) if value.bit_length() <= 1000 else math.inf  # beyond a float's range
    if isinstance(value, float):
        return abs(value)
    if isinstance(value, str):
        return len(value)
    if isinstance(value, list):
        return len(value) + sum(input_size(v) for v in value)
    if isinstance(value, dict):
        if "$tuple" in value:
            return input_size(value["$tuple"])
        if "$new" in value:
            return input_size(value["args"])
        return sum(input_size(v) for k, v in value.items() if not k.startswith("$"))
    return 0


@dataclass
class Bug:
    """One distinct bug: the bug paths with the same kind, exception and line. ``inputs`` (and
    ``message``) are those of the simplest of them by :func:`input_size`, the first found on a
    tie; ``paths`` counts them all."""

    kind: str
    exception: str | None
    line: int | None
    message: str | None
    inputs: dict[str, JSON] | None
    paths: int = 1
    trace: tuple[int, ...] | None = None  # the lines CPython ran on ``inputs`` in the target's file (``replay.trace_bugs``)
    # raised outside the target's file: (file, line, function) from the target's call down to
    # where CPython raised it (``replay.confirm_bugs``, ``replay.trace_bugs``)
    chain: tuple[tuple[str, int, str], ...] | None = None

    def add(self, result: PathResult) -> None:
        self.paths += 1
        if input_size(result.inputs) < input_size(self.inputs):
            self.inputs, self.message = result.inputs, result.message


@dataclass
class Exploration:
    target: str
    engine: str
    paths: list[PathResult] = field(default_factory=list)
    complete: bool = True
    stats: EngineStats | None = None  # None: stopped before the exploration started
    params: tuple[tuple[str, str], ...] = ()  # (name, annotation) of the reported inputs
    # the target's positional-only parameters but its receiver, in order: a call passes these
    # by position (the replay; one that is no input, its default), the others by keyword
    positional_only: tuple[str, ...] = ()
    environment: Any = None  # inputs -> values of the input symbols (for ``holds``)
    bug_count: int = 0  # bug paths, counted as results stream, also when ``paths`` is not kept
    distinct_bugs: list[Bug] = field(default_factory=list)  # in the order first found
    _bugs_by_key: dict[tuple[object, ...], Bug] = field(default_factory=dict, repr=False)
    # why the exploration stopped before its end, other than a bound: "interrupted", an
    # unsupported construct met on a path, or an internal error (one line); None otherwise
    error: str | None = None
    # what set ``error``: "interrupted", "unsupported" or "internal error" (``status``)
    stopped_by: str | None = None
    # "attribute": the target is a property, read rather than called; "list": a generator
    # function, whose outcome is that of list(f(...))
    accessor: str = "call"
    # what the parameters' annotations allow that the inputs never take (a union's member
    # pathloom does not model, the other members of a union inside a container): the
    # exploration is then incomplete
    untried: tuple[str, ...] = ()
    # the module-level names the code may rebind with ``global``, at the values every path
    # starts from (JSON value encoding): the replay and the generated tests set them first
    module_globals: dict[str, JSON] = field(default_factory=dict)
    # what CPython did on the input of a cut path (by its index in ``paths``): "outcome"
    # (return or raise), "exception", "line", "returned" (the value encoding); filled by
    # ``replay.observe_for_tests`` when tests are written, so a cut path still gets a test
    observed: dict[int, dict[str, JSON]] = field(default_factory=dict)
    # the arcs ``(line, next line)`` CPython ran in the target's file on a path's input (by
    # its index in ``paths``; coverage.py's arcs): filled by ``replay.observe_for_tests``
    arcs: dict[int, frozenset[tuple[int, int]]] = field(default_factory=dict)
    # inputs the coverage-guided search found in CPython where the paths left a gap
    # (``search.driver``): each ``inputs``, ``outcome``, ``returned``, ``exception``, ``line``,
    # ``arcs``; what two CPython runs agreed on, no prediction of pathloom's
    searched: list[dict[str, JSON]] = field(default_factory=list)
    # how many observed or searched inputs were left out of the tests because CPython's answer
    # on them changed with the str hash salt (``replay.drop_hash_dependent``)
    hash_dependent: int = 0

    def stop(self, stopped_by: str, error: str) -> None:
        """Record why the exploration stopped before its end (``error``, ``stopped_by``)."""
        self.stopped_by, self.error, self.complete = stopped_by, error, False

    @property
    def status(self) -> str:
        """``complete``; ``incomplete`` (a bound, a timeout or a solver unknown cut a path);
        ``unsupported`` (skipped, or stopped on a path, by a construct pathloom does not
        model); ``interrupted``; ``internal error``."""
        if self.stopped_by is not None:
            return self.stopped_by
        return "complete" if self.complete else "incomplete"

    def count(self, result: PathResult) -> None:
        """Count ``result`` in ``bug_count`` and ``distinct_bugs`` if it is a bug."""
        if not result.is_bug:
            return
        self.bug_count += 1
        key = (result.kind, result.exception, result.line)
        bug = self._bugs_by_key.get(key)
        if bug is not None:
            bug.add(result)
            return
        bug = Bug(result.kind or "", result.exception, result.line, result.message, result.inputs)
        self._bugs_by_key[key] = bug
        self.distinct_bugs.append(bug)

    def drop_bug(self, bug: Bug) -> None:
        """Take back a distinct bug (its input did not confirm in CPython)."""
        self.distinct_bugs.remove(bug)
        self._bugs_by_key.pop((bug.kind, bug.exception, bug.line), None)
        self.bug_count -= bug.paths

    def holds(self, path: PathResult, inputs: dict[str, JSON]) -> bool:
        """Whether concrete ``inputs`` satisfy the path condition of ``path``."""
        from pathloom.terms.evaluate import evaluate

        return evaluate(path.condition, self._environment(path, inputs)) is True

    def predicted_return(self, path: PathResult, inputs: dict[str, JSON]) -> JSON:
        """What ``path`` predicts the function returns for ``inputs`` (which take that path)."""
        assert path.predict is not None
        return path.predict(self._environment(path, inputs))

    def predicted_message(self, path: PathResult, inputs: dict[str, JSON]) -> str | None:
        """The exception message ``path`` predicts for ``inputs`` (which take that path)."""
        if path.predict_message is None:
            return path.message
        return path.predict_message(self._environment(path, inputs))

    def _environment(self, path: PathResult, inputs: dict[str, JSON]) -> Any:
        """The symbol values of ``inputs``; a symbol the inputs do not determine (an access path
        through None: a location no real object has) takes the path's own witness value."""
        return self.environment(inputs, path.symbol_values or {})

    @property
    def bugs(self) -> list[PathResult]:
        return [p for p in self.paths if p.is_bug]
