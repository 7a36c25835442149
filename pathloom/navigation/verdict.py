"""What ``reach`` says of one target: a closed set of verdicts with the input, the time and
the reason (which engine answered, or why there is no answer).

Invariants: ``reachable`` carries an input that CPython, replayed, drove to the target;
``unreachable`` is a proof (for every input, or for every input of the bounded domain the
reason names); anything cut by a bound, a timeout or a solver ``unknown`` is ``unknown``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pathloom.navigation.targets import Target

VERDICTS = ("reachable", "unreachable", "unknown")


@dataclass(frozen=True)
class Verdict:
    target: Target
    verdict: str  # reachable | unreachable | unknown
    reason: str  # how it was found or proved (naming the engine), or why it is unknown
    inputs: dict[str, Any] | None = None
    time_s: float = 0.0
    engine: str = ""  # navigation | dse | multise: which one answered

    def __post_init__(self) -> None:
        assert self.verdict in VERDICTS, self.verdict
        assert (self.inputs is not None) == (self.verdict == "reachable"), (self.verdict, self.inputs)

    def to_json(self) -> dict[str, Any]:
        return {"line": self.target.line, "verdict": self.verdict, "inputs": self.inputs, "time_s": round(self.time_s, 6), "reason": self.reason}
