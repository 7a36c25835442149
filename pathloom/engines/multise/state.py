"""The values MultiSE's state is made of, apart from the engine: pc locations (a tuple of
``FrameLoc``, one per frame), transitions of one step, witnesses (a model and the truth of the
atoms evaluated on it), and the term helpers the results phase uses to split a guard into
independent parts. Invariant: nothing here holds a BDD manager or a solver; every class is a
plain value or a memo over one model."""

from __future__ import annotations


from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from pathloom.engines.multise.heap import (
    CellWrite,
)
from pathloom.frontend import ir
from pathloom.guards.bdd import Guard
from pathloom.semantics.step import (
    operands,
)
from pathloom.domain.values import ExcVal
from pathloom.terms import expr as T
from pathloom.terms.evaluate import evaluate
from pathloom.terms.expr import Arg, Term

EXC_INFO = "%exc_info"
ENTRY_ARGS = "%entry_args"  # the arguments a frame of a self-recursive function was entered with
VarKey = tuple[int, str]
Temps = dict[VarKey, tuple[tuple[Guard, Any], ...]]  # block-local temporaries: guarded values


def _node_operands(node: object) -> tuple[Any, ...]:
    """What an instruction or a terminator reads."""
    if isinstance(node, ir.Branch):
        return (node.cond,)
    if isinstance(node, (ir.Return, ir.Raise)):
        return (node.value,) if node.value is not None else ()
    if isinstance(node, ir.ForIter):
        return (ir.Var(node.it),)
    if isinstance(node, ir.Goto):
        return ()
    return operands(node)  # type: ignore[arg-type]


def _terminator_targets(node: object) -> tuple[str, ...]:
    """Variables a terminator assigns (the loop variable and iterator of ``ForIter``)."""
    if isinstance(node, ir.ForIter):
        return (node.it, node.dst)
    return ()


class FrameLoc(NamedTuple):
    """One frame of a pc location. A named tuple, not a dataclass: locations are hashed and
    built at every step, and a tuple's hash and constructor run in C."""

    qualname: str
    label: int
    offset: int  # of the instruction in its block (len(instrs): the terminator)
    ret_dst: str | None
    loops: tuple[tuple[int, int], ...] = ()
    override: object = None  # what a return from this frame evaluates to instead (``__init__``: the new object)


Loc = tuple[FrameLoc, ...]


@dataclass
class Transition:
    """Where part ``guard`` of a pc entry goes, and what it assigns on the way."""

    guard: Guard
    loc: Loc | None  # None: the path set ends here (``final`` says how)
    assigns: list[tuple[VarKey, list[tuple[Guard, object]]]] = field(default_factory=list)
    writes: list[tuple[Guard, list[CellWrite]]] = field(default_factory=list)
    final: list[tuple[Guard, tuple[Any, ...]]] = field(default_factory=list)
    model_holds: bool | None = None  # whether the stepped entry's model satisfies ``guard``, if known


class _StepTimeout(Exception):
    """The time limit passed inside one step (its heap-cell splits can take minutes), or its
    guard algebra passed the BDD's memory bound (``memory``): the step's entry becomes a cut
    path; nothing of the step was committed."""

    def __init__(self, memory: bool = False) -> None:
        super().__init__()
        self.memory = memory


class _AskedModel(dict):  # type: ignore[type-arg]
    """A model that records the names a term's evaluation reads from it (``get``: present or
    not); the object-graph decoder's own membership probes are not recorded."""

    def __init__(self, model: dict[str, Any]) -> None:
        super().__init__(model)
        self.asked: set[str] = set()

    def get(self, name: str, default: Any = None) -> Any:
        self.asked.add(name)
        return super().get(name, default)


class _Truth(dict):  # type: ignore[type-arg]
    """Truth values of atoms under one model, evaluated on first use; an atom over none of
    the ``changed`` symbols takes the value ``parent`` (the truth under a model that differs
    from this one only on ``changed``) already knows."""

    def __init__(self, model: dict[str, Any], parent: _Truth | None = None, changed: frozenset[str] = frozenset()) -> None:
        super().__init__()
        self.model = model
        self.memo: dict[Term, Any] = {}
        self.parent = parent
        self.changed = changed

    def __missing__(self, atom: Term) -> bool:
        parent = self.parent
        if parent is not None:
            known = dict.get(parent, atom)
            if known is not None and not any(s.args[0] in self.changed for s in T.symbols(atom)):
                self[atom] = known
                return known  # type: ignore[no-any-return]
        value = evaluate(atom, self.model, self.memo) is True
        self[atom] = value
        return value


class _Witness:
    """A model of the inputs and the truth of the atoms evaluated on it."""

    __slots__ = ("model", "truth")

    def __init__(self, model: dict[str, Any], parent: _Truth | None = None, changed: frozenset[str] = frozenset()) -> None:
        self.model = model
        self.truth = _Truth(model, parent, changed)


def _reads_heap(value: object) -> bool:
    """Whether encoding ``value`` (an outcome, a returned value, an exception) may read heap
    cells: it holds a reference, or something this test does not know (then: yes)."""
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes, Term)):
        return False
    if isinstance(value, tuple):
        return any(_reads_heap(v) for v in value)
    if isinstance(value, ExcVal):
        return any(_reads_heap(v) for v in value.args)
    return True


def _is_connective(t: Term) -> bool:
    """Whether ``guard`` makes ``t`` a BDD operation over its arguments' BDDs."""
    return t.op in ("not", "and", "or") or (t.op == "ite" and t.sort == T.BOOL)


def _symbol_names(constraints: Iterable[Term]) -> set[str]:
    """The names of the input symbols the constraints mention (a solver model of them may
    name others, from a cached query it answered before)."""
    return {str(sym.args[0]) for c in constraints for sym in T.symbols(c)}


def _touching_components(seeds: list[Term], constraints: frozenset[Term]) -> list[list[Term]]:
    """The independent components of ``constraints`` (connected through shared symbols) that
    contain a seed, each once, in the order of their first seed."""
    by_symbol: dict[Term, list[Term]] = {}
    for c in constraints:
        for sym in T.symbols(c):
            by_symbol.setdefault(sym, []).append(c)
    placed: set[Term] = set()
    seen: set[Term] = set()
    found: list[list[Term]] = []
    for seed in seeds:
        if seed in placed:
            continue
        placed.add(seed)
        component = [seed]
        todo = [seed]
        while todo:
            for sym in T.symbols(todo.pop()):
                if sym not in seen:
                    seen.add(sym)
                    for c in by_symbol.get(sym, ()):
                        if c not in placed:
                            placed.add(c)
                            component.append(c)
                            todo.append(c)
        found.append(component)
    return found


def _conjuncts(formula: Term) -> frozenset[Term]:
    """The top-level conjuncts of a Bool term, looking through negations (a BDD cube comes
    back from its complement edges as ``not (a or b or ...)``)."""
    found: set[Term] = set()
    stack: list[Arg] = [formula]
    while stack:
        term = stack.pop()
        if not isinstance(term, Term):
            assert term is True, "a false conjunct folds the whole formula to False"
            continue
        inner = term.args[0] if term.op == "not" else None
        if term.op == "and":
            stack.extend(term.args)
        elif isinstance(inner, Term) and inner.op == "or":
            stack.extend(T.not_(a) for a in inner.args)
        elif isinstance(inner, Term) and inner.op == "not":
            stack.append(inner.args[0])
        else:
            found.add(term)
    return frozenset(found)
