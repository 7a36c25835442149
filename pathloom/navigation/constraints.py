"""Constraint systems (the paper's section 3.2, Algorithm 1): the root chains walked with the
abstract transfer functions, loop nodes replaced by merged values (``recurrence``), and every
condition a root chain assumes turned into a constraint over inputs and counters.

For a loop node the system gets, besides the conditions after it (the exit of the loop among
them), the *previous-iteration* constraint: either no chain of the loop ran, or some chain
``c`` ran last, so its conditions held on the values before that run (the merged values with
``κc - 1``). Conditions that mention counters of nested loops, or values that are ``STAR``,
are left out. Departure from the paper: every known condition of the root chain is kept, also
those without counters, and the system of a target is the disjunction over its root chains.
Chains are pruned first, as the paper prunes infeasible chains: one whose tests of an input
item contradict each other (``transfer.contradictory``) gets no counter (a subchain) or no
disjunct (a root chain). Subchains are walked as a prefix tree (``_walk_chains``).
Invariant (soundness): every execution that reaches the target satisfies the system with each
counter set to the number of runs of its chain; so an unsatisfiable system proves the target
unreachable for every input.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import z3

from pathloom.frontend import ir
from pathloom.frontend.module import Module
from pathloom.navigation import transfer
from pathloom.navigation.chains import Chain, ChainForm
from pathloom.navigation.linear import STAR, Cond, Linear
from pathloom.navigation.recurrence import (
    Scaled,
    counter,
    entry_symbol,
    is_counter,
    merge,
    power_constraint,
)
from pathloom.navigation.transfer import AbstractValue, IterVal, ItemTest, ListInput, State, contradictory, stable_inputs

EXACT_ITEMS = ("str", "list[int]", "list[str]")  # parameters whose items are exactly ints or strs
MAX_ALTERNATIVES = 64  # chains of one group whose conditions the previous-iteration constraint lists


@dataclass
class System:
    formula: z3.BoolRef
    counters: dict[tuple[int, ...], z3.ArithRef]  # group of chain ids with one effect -> its counter
    with_counters: int = 0  # constraints that mention a counter
    inputs: set[str] = field(default_factory=set)  # the input symbols the constraints mention
    powers: dict[str, tuple[str, int]] = field(default_factory=dict)  # power symbol -> (counter, ratio)
    unsolved: dict[str, str] = field(default_factory=dict)  # "var (loop at line L)" -> why STAR


class _Walker:
    def __init__(self, module: Module, form: ChainForm, system: System) -> None:
        self.module = module
        self.form = form
        self.system = system

    def _line(self, header: int) -> int:
        term = self.form.function.blocks[header].terminator
        return term.loc.line if term is not None else self.form.function.line

    def walk(
        self,
        path: tuple[int, ...],
        state: State,
        own_header: int | None,
        stop: tuple[int, int] | None,
        assumes: list[Cond],
        constraints: list[z3.BoolRef] | None,
        facts: list[ItemTest],
    ) -> State:
        """Run the blocks of ``path`` on ``state``; collect assumed conditions in ``assumes``,
        tests of input items in ``facts`` and, at the root (``constraints`` not None),
        previous-iteration constraints."""
        blocks = self.form.function.blocks
        for position, label in enumerate(path):
            if label != own_header and self.form.is_header(label):
                state, prev = self.loop_node(label, state)
                if constraints is not None and prev is not None:
                    constraints.append(prev)
            block = blocks[label]
            instrs = block.instrs[: stop[1]] if stop is not None and position == len(path) - 1 and label == stop[0] else block.instrs
            for instr in instrs:
                transfer.execute(self.module, state, instr)
            if position + 1 < len(path):
                assert block.terminator is not None
                self._take_edge(state, block.terminator, path[position + 1], assumes, facts)
        return state

    def _take_edge(self, state: State, terminator: ir.Terminator, to: int, assumes: list[Cond], facts: list[ItemTest]) -> None:
        """File the condition of the edge from ``terminator`` to block ``to``: a test of an
        input item goes to ``facts``, any other condition to ``assumes``."""
        cond = transfer.branch(self.module, state, terminator, to)
        if isinstance(cond, ItemTest):
            facts.append(cond)
        elif cond is not None:
            assumes.append(cond)

    def _walk_chains(self, header: int, entry: State) -> list[tuple[State, list[Cond], list[ItemTest]]]:
        """``walk`` of each subchain of the loop at ``header`` from ``entry``: (state after,
        assumed conditions, item tests). Subchains share prefixes (HWM's 2,352 run through the
        same first blocks), so the state after each prefix is kept and a chain starts from its
        longest walked prefix: the work is the prefix tree's, not the sum of the chains'."""
        blocks = self.form.function.blocks
        walked: dict[tuple[int, ...], tuple[State, list[Cond], list[ItemTest]]] = {}  # after a prefix's blocks, before its last edge
        results = []
        for chain in self.form.loops[header]:
            path = chain.blocks
            known = len(path)
            while known and path[:known] not in walked:
                known -= 1
            state, assumes, facts = (dict(entry), [], []) if not known else _copied(walked[path[:known]])
            for position in range(known, len(path)):
                label = path[position]
                if position:
                    previous = blocks[path[position - 1]].terminator
                    assert previous is not None
                    self._take_edge(state, previous, label, assumes, facts)
                if label != header and self.form.is_header(label):
                    state, _ = self.loop_node(label, state)
                for instr in blocks[label].instrs:
                    transfer.execute(self.module, state, instr)
                walked[path[: position + 1]] = _copied((state, assumes, facts))
            results.append((state, assumes, facts))
        return results

    def loop_node(self, header: int, state: State) -> tuple[State, z3.BoolRef | None]:
        entry: State = {name: Linear.symbol(entry_symbol(header, name)) if isinstance(v, Linear) else v for name, v in state.items()}
        effects: dict[tuple[tuple[str, AbstractValue], ...], list[tuple[Chain, list[Cond]]]] = {}
        chains = self.form.loops[header]
        for chain, (walked, assumes, facts) in zip(chains, self._walk_chains(header, entry)):
            out = _live(walked)
            if contradictory(facts):
                continue  # no run of the loop takes this chain: its counter is 0 (no group has it)
            effects.setdefault(tuple(sorted(out.items(), key=lambda item: item[0])), []).append((chain, assumes))
        groups: dict[str, list[tuple[Chain, list[Cond]]]] = {}
        outs: dict[str, State] = {}
        for effect, members in effects.items():
            group = tuple(sorted(chain.id for chain, _ in members))
            self.system.counters.setdefault(group, z3.Int(counter(group)))
            groups[counter(group)] = members
            outs[counter(group)] = dict(effect)
        merged = merge(header, entry, outs)
        for name, why in merged.unsolved.items():
            if not name.startswith("%"):  # not a temporary nor a for loop's hidden iterator
                self.system.unsolved[f"{name} (loop at line {self._line(header)})"] = why
        actual = {entry_symbol(header, name): v for name, v in state.items() if isinstance(v, Linear)}
        after: State = {}
        for name, value in merged.values.items():
            if isinstance(value, Scaled):
                start = actual.get(value.entry)
                known = start is not None and not start.coeffs
                after[name] = Linear.symbol(value.power).scale(start.const) if known else STAR  # type: ignore[union-attr]
                if known:
                    self.system.powers.update(merged.powers)
                else:
                    self.system.unsolved[f"{name} (loop at line {self._line(header)})"] = "a geometric progression from a non-constant start"
            else:
                after[name] = value.substitute(actual) if isinstance(value, Linear) else value
        plain: State = {name: STAR if isinstance(v, Scaled) else v for name, v in merged.values.items()}
        return after, self._previous_iteration(header, groups, plain, actual)

    def _previous_iteration(
        self, header: int, groups: dict[str, list[tuple[Chain, list[Cond]]]], values: State, actual: dict[str, Linear]
    ) -> z3.BoolRef | None:
        """Either no chain ran, or the last run was of a chain whose conditions held on the
        values one run before (its group's counter minus one)."""
        cases = [z3.Sum([z3.Int(k) for k in groups]) == 0] if groups else []
        for k, members in groups.items():
            before: dict[str, object] = {}
            for name, value in values.items():
                if isinstance(value, Linear) and not any((is_counter(s) and s not in groups) or s.startswith("%p") for s in value.symbols()):
                    one_less = value.substitute({k: Linear.symbol(k).add(Linear(-1))})
                    before[entry_symbol(header, name)] = one_less.substitute(actual) if isinstance(one_less, Linear) else STAR
                else:
                    before[entry_symbol(header, name)] = STAR
            alternatives = [self._held(assumes, before, self.system.inputs) for _, assumes in members] if len(members) <= MAX_ALTERNATIVES else []
            cases.append(z3.And(z3.Int(k) >= 1, z3.Or(alternatives)) if alternatives else z3.Int(k) >= 1)
        if not cases:
            return None
        self.system.with_counters += 1
        return z3.Or(cases)

    @staticmethod
    def _held(assumes: list[Cond], before: dict[str, object], inputs: set[str]) -> z3.BoolRef:
        held = []
        for cond in assumes:
            if any(is_counter(s) for s in cond.symbols()):
                continue
            known = cond.substitute(before)  # type: ignore[arg-type]
            if isinstance(known, Cond) and not any(s.startswith("%a") for s in known.symbols()):
                held.append(known.to_z3())
                inputs |= {s for s in known.symbols() if not s.startswith("%")}
        return z3.And(held) if held else z3.BoolVal(True)


def _copied(walk: tuple[State, list[Cond], list[ItemTest]]) -> tuple[State, list[Cond], list[ItemTest]]:
    state, assumes, facts = walk
    return dict(state), list(assumes), list(facts)


def _live(state: State) -> State:
    """``state`` without the expression temporaries, which no statement reads across a back
    edge (a ``for`` iterator and its position do live on; a dropped name reads as ``STAR``)."""
    return {name: v for name, v in state.items() if not name.startswith("%") or "." in name or isinstance(v, IterVal)}


def build_system(module: Module, form: ChainForm, roots: list[tuple[int, ...]], site_index: dict[int, int]) -> System:
    """The constraint system of reaching a site at the end of one of ``roots``."""
    system = System(z3.BoolVal(False), {})
    walker = _Walker(module, form, system)
    lists = stable_inputs(form.function)  # their length is a symbol
    disjuncts = []
    for path in roots:
        state: State = {}
        for p in form.function.params:
            state[p.name] = Linear.symbol(p.name) if p.annotation == "int" else ListInput(p.name, p.annotation in EXACT_ITEMS) if p.name in lists else STAR
        assumes: list[Cond] = []
        constraints: list[z3.BoolRef] = []
        facts: list[ItemTest] = []
        walker.walk(path, state, None, (path[-1], site_index[path[-1]]), assumes, constraints, facts)
        if contradictory(facts):
            continue  # no execution follows this root chain
        for cond in assumes:
            if any(s.startswith("%a") for s in cond.symbols()):
                continue
            if any(is_counter(s) for s in cond.symbols()):
                system.with_counters += 1
            constraints.append(cond.to_z3())
            system.inputs |= {s for s in cond.symbols() if not s.startswith("%")}
        disjuncts.append(z3.And(constraints) if constraints else z3.BoolVal(True))
    nonnegative = [k >= 0 for k in system.counters.values()] + [ListInput(name).length.to_z3() >= 0 for name in sorted(lists)]
    powers = [power_constraint(counter_symbol, ratio) for counter_symbol, ratio in system.powers.values()]
    system.formula = z3.And(z3.Or(disjuncts) if disjuncts else z3.BoolVal(False), *nonnegative, *powers)
    return system
