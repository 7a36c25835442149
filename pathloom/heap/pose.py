"""POSE, the path-optimal heap model (pose-path-optimal-heap.txt, section 3), as the policy of
``semantics.input_heap``: aliasing is never decided ahead of a use; a read through an input
reference is an ite over the alias conditions of the compatible locations (that module), and
the analysis forks only where the program does. Invariant: ``resolve`` never splits.
"""

from __future__ import annotations

from pathloom.semantics.input_heap import InputsTx
from pathloom.domain.outcome import Outcome
from pathloom.domain.values import SymRef
from pathloom.terms import expr as T
from pathloom.terms.expr import Arg, Term


class Pose:
    forks_on_read = False

    def resolve(self, tx: InputsTx, refs: list[SymRef], use: str) -> Outcome | None:
        return None

    def alias(self, tx: InputsTx, a: Arg, b: Term) -> Arg:
        return T.eq(a, b)


POSE = Pose()
