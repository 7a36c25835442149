"""The abstract meaning of IR instructions for the chain analysis (phase 2): what an
instruction does to a state of linear values (``linear``).

This is an abstraction of ``pathloom.semantics``, not a second semantics: on ints, ``+``, ``-``,
``*`` by a constant, unary ``-`` and the six comparisons mean what they mean in Python (ints
are unbounded, as Z3's), a ``for`` over ``range(start, stop[, step])`` with a constant step
walks an int position, and every other instruction makes its destinations ``STAR``. Heap
contents (list items) are always ``STAR``, so no instruction needs to track them; the length
of an input list or str the function never changes (``stable_inputs``) is a symbol. An item
of such a str, ``list[int]`` or ``list[str]`` at a linear index is ``ItemOf``, and its
comparison with a str or int constant an ``ItemTest``: never a constraint, only the evidence
that prunes a chain whose tests contradict (``contradictory``).
Invariant: if a concrete execution of a path of blocks starts in a state the abstract state
describes, it ends in one the result describes (``STAR`` describes any value).
"""

from __future__ import annotations

from dataclasses import dataclass

from pathloom.frontend import ir
from pathloom.frontend.module import Module
from pathloom.navigation.linear import STAR, TRUE, Cond, Linear, Value
from pathloom.semantics.step import destinations, operands


@dataclass(frozen=True)
class RangeVal:
    start: Linear
    stop: Linear
    step: int


@dataclass(frozen=True)
class IterVal:
    """An iterator over a ``range`` or an input list: its position and stop are the
    pseudo-variables ``<it>.pos`` and ``<it>.stop`` of the state (so that they are recurrent
    variables like any other); the items are the positions for a ``range``, unknown for a list
    (the loop over a list is a loop over its index)."""

    step: int
    positions: bool = True


@dataclass(frozen=True)
class ListInput:
    """A ``list[...]`` parameter the function never rebinds, mutates nor lets escape
    (``stable_inputs``): its length is the engines' input symbol ``<name>.len`` throughout; or
    a ``str`` parameter the function never rebinds, whose length gets the symbol ``<name>.len``
    (not an engine symbol: a str's length is ``len`` of its symbol there, so the systems know
    of it only that it is not negative)."""

    name: str
    exact_items: bool = False  # a str, list[int] or list[str]: its items are exactly strs or ints

    @property
    def length(self) -> Linear:
        return Linear.symbol(f"{self.name}.len")


@dataclass(frozen=True)
class ItemOf:
    """``seq[index]`` of a ``ListInput`` with exact items: equal index forms denote one item."""

    seq: str
    index: Linear


@dataclass(frozen=True)
class ItemTest:
    """``item == value`` (``equal``) or ``item != value``, ``value`` a str or int constant. Not
    a linear constraint; two tests of one chain on the same item may contradict each other
    (``contradictory``), which rules the chain out (the paper's pruning of infeasible chains)."""

    item: ItemOf
    value: int | str
    equal: bool

    def negate(self) -> ItemTest:
        return ItemTest(self.item, self.value, not self.equal)


def contradictory(facts: list[ItemTest]) -> bool:
    """No value of the items satisfies every test: an item equal to two different constants,
    or equal and unequal to one. Sound for items that are exactly strs and ints (bools
    included): such an item equals at most one of two different str or int constants."""
    equal: dict[ItemOf, int | str] = {}
    unequal: dict[ItemOf, set[tuple[type, int | str]]] = {}
    for fact in facts:
        key = (type(fact.value), fact.value)
        if fact.equal:
            known = equal.setdefault(fact.item, fact.value)
            if (type(known), known) != key or key in unequal.get(fact.item, set()):
                return True
        else:
            found = equal.get(fact.item)
            if found is not None and (type(found), found) == key:
                return True
            unequal.setdefault(fact.item, set()).add(key)
    return False


AbstractValue = Value | RangeVal | IterVal | ListInput | ItemOf | ItemTest
State = dict[str, AbstractValue]

_ARITH = {"+": 1, "+=": 1, "-": -1, "-=": -1}
_COMPARE = ("==", "!=", "<", "<=", ">", ">=")


def operand(module: Module, state: State, op: ir.Operand) -> AbstractValue:
    if isinstance(op, ir.Var):
        return state.get(op.name, STAR)
    if isinstance(op, ir.Const):
        if isinstance(op.value, bool):
            return TRUE if op.value else TRUE.negate()
        if isinstance(op.value, int):
            return Linear(op.value)
    return STAR


def _builtin(module: Module, op: ir.Operand, name: str) -> bool:
    """``op`` is the builtin ``name``, not shadowed by the module."""
    return (
        isinstance(op, ir.Global)
        and op.name == name
        and name not in module.function_defs
        and name not in module.constants
        and name not in module.opaque
        and name not in module.classes
    )


def _binop(op: str, a: AbstractValue, b: AbstractValue) -> AbstractValue:
    if not isinstance(a, Linear) or not isinstance(b, Linear):
        return STAR
    if op in _ARITH:
        return a.add(b, _ARITH[op])
    if op in ("*", "*="):
        if not a.coeffs:
            return b.scale(a.const)
        if not b.coeffs:
            return a.scale(b.const)
    return STAR


def _truth(v: AbstractValue) -> AbstractValue:
    if isinstance(v, (Cond, ItemTest)):
        return v
    if isinstance(v, Linear):
        return Cond(v, "!=")
    return STAR


def _range(module: Module, state: State, instr: ir.Call) -> AbstractValue:
    args = [operand(module, state, a) for a in instr.args]
    if instr.kwargs or not 1 <= len(args) <= 3 or not all(isinstance(a, Linear) for a in args):
        return STAR
    if len(args) == 1:
        return RangeVal(Linear(0), args[0], 1)  # type: ignore[arg-type]
    step = args[2] if len(args) == 3 else Linear(1)
    if not isinstance(step, Linear) or step.coeffs or step.const == 0:
        return STAR
    return RangeVal(args[0], args[1], step.const)  # type: ignore[arg-type]


def stable_inputs(function: ir.Function) -> set[str]:
    """The ``str`` parameters never rebound, and the ``list[...]`` parameters never rebound and
    used only to be indexed, sliced, iterated, measured with ``len``, compared or tested for
    truth: their length never changes during a call."""
    names = {p.name for p in function.params if (p.annotation or "").startswith("list[") or p.annotation == "str"}
    strs = {p.name for p in function.params if p.annotation == "str"}
    for block in function.blocks.values():
        for instr in block.instrs:
            names -= set(destinations(instr))
            for position, op in enumerate(operands(instr)):
                if not (isinstance(op, ir.Var) and op.name in names) or op.name in strs:
                    continue
                harmless = (
                    (isinstance(instr, (ir.GetItem, ir.GetSlice)) and position == 0)
                    or isinstance(instr, (ir.GetIter, ir.Compare, ir.Truth))
                    or (isinstance(instr, ir.Call) and isinstance(instr.func, ir.Global) and instr.func.name == "len" and len(instr.args) == 1)
                )
                if not harmless:
                    names.discard(op.name)
    return names


def execute(module: Module, state: State, instr: ir.Instruction) -> None:
    """Apply ``instr`` to ``state`` in place."""
    value: AbstractValue = STAR
    if isinstance(instr, ir.Assign):
        value = operand(module, state, instr.src)
    elif isinstance(instr, ir.BinOp):
        value = _binop(instr.op, operand(module, state, instr.left), operand(module, state, instr.right))
    elif isinstance(instr, ir.UnaryOp):
        x = operand(module, state, instr.operand)
        if instr.op == "-" and isinstance(x, Linear):
            value = x.scale(-1)
        elif instr.op == "+" and isinstance(x, Linear):
            value = x
        elif instr.op == "not":
            t = _truth(x)
            value = t.negate() if isinstance(t, (Cond, ItemTest)) else STAR
    elif isinstance(instr, ir.Compare):
        a, b = operand(module, state, instr.left), operand(module, state, instr.right)
        if instr.op in _COMPARE and isinstance(a, Linear) and isinstance(b, Linear):
            value = Cond.compare(a, instr.op, b)
        elif instr.op in ("==", "!="):
            value = _item_test(instr, a, b)
    elif isinstance(instr, ir.GetItem):
        seq, index = operand(module, state, instr.obj), operand(module, state, instr.index)
        if isinstance(seq, ListInput) and seq.exact_items and isinstance(index, Linear):
            value = ItemOf(seq.name, index)
    elif isinstance(instr, ir.Truth):
        value = _truth(operand(module, state, instr.operand))
    elif isinstance(instr, ir.Call) and _builtin(module, instr.func, "range"):
        value = _range(module, state, instr)
    elif isinstance(instr, ir.Call) and _builtin(module, instr.func, "len") and len(instr.args) == 1 and not instr.kwargs:
        measured = operand(module, state, instr.args[0])
        value = measured.length if isinstance(measured, ListInput) else STAR
    elif isinstance(instr, ir.GetIter):
        source = operand(module, state, instr.iterable)
        if instr.how:  # reversed or zipped: not tracked
            state[f"{instr.dst}.pos"] = STAR
            state[f"{instr.dst}.stop"] = STAR
        elif isinstance(source, RangeVal):
            state[f"{instr.dst}.pos"] = source.start
            state[f"{instr.dst}.stop"] = source.stop
            value = IterVal(source.step)
        elif isinstance(source, ListInput):
            state[f"{instr.dst}.pos"] = Linear(0)
            state[f"{instr.dst}.stop"] = source.length
            value = IterVal(1, positions=False)
        else:
            state[f"{instr.dst}.pos"] = STAR
            state[f"{instr.dst}.stop"] = STAR
    for name in destinations(instr):
        state[name] = value  # STAR for every item of an Unpack, which no branch above computes


def _item_test(instr: ir.Compare, a: AbstractValue, b: AbstractValue) -> AbstractValue:
    """``item == constant`` or ``!=`` (either side), else ``STAR``."""
    for item, other in ((a, instr.right), (b, instr.left)):
        if isinstance(item, ItemOf) and isinstance(other, ir.Const) and isinstance(other.value, (int, str)) and not isinstance(other.value, bool):
            return ItemTest(item, other.value, instr.op == "==")
    return STAR


def branch(module: Module, state: State, term: ir.Terminator, taken: int) -> Cond | ItemTest | None:
    """Take the edge of ``term`` to block ``taken``: update ``state`` (a ``for`` step) and
    return the condition the edge assumes (None: none known)."""
    if isinstance(term, ir.Branch):
        if term.then == term.orelse:
            return None
        cond = _truth(operand(module, state, term.cond))
        if not isinstance(cond, (Cond, ItemTest)):
            return None
        return cond if taken == term.then else cond.negate()
    if isinstance(term, ir.ForIter):
        it = state.get(term.it, STAR)
        pos, stop = state.get(f"{term.it}.pos", STAR), state.get(f"{term.it}.stop", STAR)
        known = isinstance(it, IterVal) and isinstance(pos, Linear) and isinstance(stop, Linear)
        more = Cond.compare(pos, "<" if it.step > 0 else ">", stop) if known else None  # type: ignore[arg-type, union-attr]
        if taken == term.body:
            state[term.dst] = pos if known and it.positions else STAR  # type: ignore[union-attr]
            state[f"{term.it}.pos"] = pos.add(Linear(it.step)) if known else STAR  # type: ignore[union-attr]
            return more
        return more.negate() if more is not None else None
    return None
