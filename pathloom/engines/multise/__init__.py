"""MultiSE: multi-path symbolic execution with value summaries (Sen et al., 2014/2015).

The whole exploration is one state. The program counter is a value summary from guards to
locations (``pending``: location -> guard, guards pairwise disjoint), every local variable
(keyed by frame depth and name) and every heap cell (``multise.heap``: a list's length and
items, an object's fields, slides 62-64) is a ``ValueSummary`` of guarded values. Guards are
BDDs over atomic predicates on input symbols (``GuardManager``); a guard goes to Z3 only when
the satisfiability of a new program-counter entry matters.

One step picks the pc entry (g, loc) whose location comes first in reverse post-order (frame
by frame, inner calls before their caller's next instruction), so paths meet at joins before
going on, also at joins no one declared (after exceptions, early returns, calls). It executes
the instruction at loc for every combination of the operands' guarded values under g, using
the shared semantics (``semantics.step.execute``): concrete values stay concrete, a summary may
hold floats, functions and objects next to terms, and no auxiliary variable is ever made. The
leaves are grouped by where control goes next; each group's guard is checked (BDD test, the
entry's model, a model-guided path of the guard solved by interval arithmetic or independent
components, then the whole guard in Z3), and the feasible groups assign their targets under
their guard (``{(h and not p, old)} + {(h and p, new)}``, then compaction) and become pc
entries, merged with any entry already at the same location. A heap cell read under a guard
where it holds several values splits the combination (``NeedSplit``) and executes again per
value; every combination of one step allocates the same new objects (disjoint guards).

Departures from the paper: locations include the call stack and the iteration counts of the
enclosing loops (so ``--max-iterations`` means what it means for DSE); temporaries that live
inside one basic block travel with their pc entry instead of being merged into shared
summaries (no other path can read them, and they were most of the assignment work), and so
does the object a constructor frame returns (in its ``FrameLoc``); satisfiability of a new pc
entry is first tried on known models, on theory lemmas between atoms over one integer term
(``guards.theory``: a guard that contradicts them is infeasible without Z3), and on one
model-guided path of its guard before Z3 sees the whole guard; an atom the input domain
decides (``8 < toks.len`` when ``toks.len <= 8``) is a constant, not a BDD variable. Every
``limits.COLLECT_EVERY`` steps the state is restricted to the running paths (``Joins._collect``): values
held for paths that have ended are dropped (heap cells keep those that results are encoded
from), which the paper does not do; its summaries keep every path ever taken, and their
guards grow with them. Results: one path per distinct outcome (returned
value, or exception at a line), split further until every feasible branch direction has an
input. With ``compaction=False`` no values are joined and no pc entries are merged, so each
entry is one DSE path.

Layout, one job per module, each layer a subclass of the one below: ``limits`` (bounds),
``state`` (locations, transitions, witnesses), ``heap`` (guarded heap cells), ``core`` (state
and guards), ``feasibility`` (witnesses and solving), ``joins`` (scheduling, committing,
temporaries), ``stepping`` (one step), ``results`` (paths, inputs, stats), ``engine`` (the loop).
"""

from __future__ import annotations

from pathloom.engines.multise.engine import MultiSEEngine

__all__ = ["MultiSEEngine"]
