"""Why a path was cut: a closed set of kinds (``CutReason``) and the cause an engine reports
(``CutCause``: the kind and the sentence a user reads).

Kinds: ``loop-bound`` (``--max-iterations``, or the iteration cap of a sequence the loop keeps
growing), ``depth-bound`` (``--max-depth``), ``max-paths`` (``--max-paths``), ``timeout``
(``--timeout``), ``interrupted`` (Ctrl-C), ``pruned`` (``--target-heuristic h2`` left the path
out), ``concretization-limit`` (an operation run in CPython on more values than
``--max-concretizations``) and ``model-limit`` (a value past a size the semantics models: an
int past its bit cap, a list or str past its cap, a code point past the solver's range, a sort
key that changes the list it sorts), ``memory`` (the process's memory bound) and
``unsupported`` (a statement pathloom does not model, ``ir.Unmodelled``).

Invariant: every cut path carries exactly one kind; a path that is not cut carries none
(``results.PathResult`` checks both).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class CutReason(StrEnum):
    LOOP_BOUND = "loop-bound"
    DEPTH_BOUND = "depth-bound"
    MAX_PATHS = "max-paths"
    TIMEOUT = "timeout"
    INTERRUPTED = "interrupted"
    MEMORY = "memory"
    PRUNED = "pruned"
    CONCRETIZATION_LIMIT = "concretization-limit"
    UNSUPPORTED = "unsupported"
    MODEL_LIMIT = "model-limit"


@dataclass(frozen=True)
class CutCause:
    kind: CutReason
    text: str  # what the user reads (the path's ``reason``)

    def __str__(self) -> str:
        return self.text


TIMEOUT = CutCause(CutReason.TIMEOUT, "timeout")
INTERRUPTED = CutCause(CutReason.INTERRUPTED, "interrupted")
MEMORY = CutCause(CutReason.MEMORY, "memory: the process passed its memory bound (PATHLOOM_MAX_RSS_MB)")
