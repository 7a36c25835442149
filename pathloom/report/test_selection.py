"""Which explored paths get a test: a minimal suite by default, every path on request.

A minimal suite keeps, first, the simplest input (``results.input_size``) of each distinct
outcome: a returned value of each kind (``None``, ``True``, ``False``, or the value's type) and
each exception type at each line; then, greedily, the input that covers the most arcs not yet
covered, until every arc that any candidate's CPython run covered is covered (the arcs are
coverage.py's ``(line, next line)`` pairs in the target's file, recorded by
``replay.observe_for_tests``; covering every arc covers every line and every branch direction).
A candidate whose run recorded no arcs (CPython's run timed out or failed, or nothing was
replayed) is always kept: nothing shows that another test covers what it does.

Invariant: the union of the chosen candidates' outcomes and arcs equals that of all candidates,
and the chosen indices are returned in the order of the paths.

Greedy set cover is within a factor ln(n) of the smallest cover; the exact minimum is NP-hard
and no user needs it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pathloom.results import input_size

JSON = Any


@dataclass(frozen=True)
class Candidate:
    """A path that would get a test: its index in the exploration's paths, its outcome (as
    the test states it), the arcs its input ran in CPython (None: not recorded), its inputs."""

    index: int
    outcome: tuple[object, ...]
    arcs: frozenset[tuple[int, int]] | None
    inputs: dict[str, JSON]

    @property
    def size(self) -> float:
        return sum(input_size(v) for v in self.inputs.values())


def value_kind(value: JSON) -> object:
    """The kind of a returned value (JSON value encoding) that sets one test apart from another."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, dict):
        for tag in ("$object", "$exception", "$opaque", "$class", "$enum"):
            if tag in value:
                return f"{tag}:{value[tag]}"
        return next((k for k in value if k.startswith("$")), "dict")
    return type(value).__name__


def outcome_key(outcome: str, returned: JSON, exception: str | None, line: int | None) -> tuple[object, ...]:
    if outcome == "return":
        return ("return", value_kind(returned))
    return ("raise", exception, line)


def minimal(candidates: Sequence[Candidate]) -> list[int]:
    """The indices of a minimal suite of ``candidates`` (see the module docstring)."""
    simplest_first = sorted(candidates, key=lambda c: (c.size, c.index))
    chosen: set[int] = set()
    outcomes: set[tuple[object, ...]] = set()
    for c in simplest_first:
        if c.arcs is None or c.outcome not in outcomes:
            chosen.add(c.index)
            outcomes.add(c.outcome)
    remaining: set[tuple[int, int]] = set()
    for c in candidates:
        remaining |= c.arcs or frozenset()
    for c in candidates:
        if c.index in chosen:
            remaining -= c.arcs or frozenset()
    while remaining:
        best = max(simplest_first, key=lambda c: len((c.arcs or frozenset()) & remaining))  # the first, the simplest, on a tie
        chosen.add(best.index)
        remaining -= best.arcs or frozenset()
    return sorted(chosen)
