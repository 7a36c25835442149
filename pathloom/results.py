"""What engines hand to reporters: frozen path results and the exploration summary.

Outcomes are a closed set: ``return``, ``raise``, ``cut`` (a bound stopped the path) and
``unknown`` (the solver could not decide a branch). ``inputs`` and ``returned`` are JSON
values (see ``pathloom.report.values``); ``condition`` is the path condition as a term over the
input symbols, so callers can test which path a concrete input takes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from pathloom.terms.expr import Arg

JSON = Any


@dataclass(frozen=True)
class PathResult:
    outcome: str  # return | raise | cut | unknown
    inputs: dict[str, JSON] | None
    returned: JSON = None
    exception: str | None = None
    message: str | None = None
    line: int | None = None
    kind: str | None = None  # for raise: explicit | assert | implicit
    reason: str | None = None  # for cut and unknown
    condition: Arg = True
    symbol_values: dict[str, Any] = field(default_factory=dict)
    # the returned value as a function of the input symbols' values (any input on this path)
    predict: Callable[[dict[str, Any]], JSON] | None = field(default=None, compare=False, repr=False)

    @property
    def is_bug(self) -> bool:
        return self.outcome == "raise" and self.kind in ("implicit", "assert")


@dataclass
class Exploration:
    target: str
    engine: str
    paths: list[PathResult] = field(default_factory=list)
    complete: bool = True
    stats: dict[str, Any] = field(default_factory=dict)
    params: tuple[tuple[str, str], ...] = ()  # (name, annotation) of the reported inputs
    environment: Any = None  # inputs -> values of the input symbols (for ``holds``)
    bug_count: int = 0  # counted as results stream, also when ``paths`` is not kept
    # why the exploration stopped before its end, other than a bound: "interrupted", an
    # unsupported construct met on a path, or an internal error (one line); None otherwise
    error: str | None = None

    def holds(self, path: PathResult, inputs: dict[str, JSON]) -> bool:
        """Whether concrete ``inputs`` satisfy the path condition of ``path``."""
        from pathloom.terms.evaluate import evaluate

        return evaluate(path.condition, self.environment(inputs)) is True

    def predicted_return(self, path: PathResult, inputs: dict[str, JSON]) -> JSON:
        """What ``path`` predicts the function returns for ``inputs`` (which take that path)."""
        assert path.predict is not None
        return path.predict(self.environment(inputs))

    @property
    def bugs(self) -> list[PathResult]:
        return [p for p in self.paths if p.is_bug]
