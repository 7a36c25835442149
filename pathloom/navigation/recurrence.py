"""Counters and recurrences (the paper's section 3.2): a variable's value after any number of
runs of a loop's subchains, as a function of the chains' counters.

Each subchain ``c`` has a counter ``κc`` (the symbol ``%k<id>``): how many times ``c`` ran;
chains of one loop with the same effect on every variable share one counter (``%k<id>_<id>...``:
runs of any of them), which is exact since the merge depends only on the effects (this is the
paper's suggested merge of chains "which have the same effect"; it keeps the Hello/HW/HWM
forms, whose chains differ only in which character test failed, small).
After one run of ``c`` from entry values ``α`` (symbols ``%a<header>:<var>``), a variable ``v``
holds ``u_c``. The recurrence is solved when ``u_c = α_v + d_c`` with ``d_c`` an integer constant
plus counter terms of loops nested in ``c`` (an arithmetic progression: after ``κc`` runs,
``α_v + const·κc + inner``); the values are then merged over the loop's chains (the paper's
Table 1: ``α_v`` everywhere stays ``α_v``; progressions add up). A geometric progression
(``u_c = ratio·α_v`` in one group, ``ratio >= 2``, unchanged in the others) is ``α_v·p`` with
a symbol ``p`` that ``power_constraint`` ties to the counter in linear arithmetic (the value
stays linear only where ``α_v`` is a constant; Table 1's product of two geometric
progressions is not done). Anything else is ``STAR`` with
a reason (a geometric progression, a reset inside the loop, an increment that depends on
another variable). Counters of nested chains in a merged value count every run since the
loop node was entered: the paper's counter with its reset chain, which for a value that
survives the merge is always the enclosing loop node (a value reset by an outer chain is
``STAR`` after that chain's merge). Invariant: a merged value is exact for every order of the
chains' runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import z3

from pathloom.navigation.linear import STAR, Linear
from pathloom.navigation.transfer import AbstractValue


def counter(group: tuple[int, ...]) -> str:
    """The counter of a group of chains with the same effect: runs of any of them."""
    return "%k" + "_".join(str(i) for i in group)


def entry_symbol(header: int, var: str) -> str:
    return f"%a{header}:{var}"


def is_counter(symbol: str) -> bool:
    return symbol.startswith("%k")


POWER_CASES = 40  # a power r**κ is exact for κ <= this, bounded below beyond


@dataclass(frozen=True)
class Scaled:
    """``α_v · ratio^κ``, a geometric progression: ``power`` names the symbol standing for
    ``ratio^κ`` (``power_constraint`` ties it to the counter)."""

    entry: str
    power: str


def power_symbol(counter_symbol: str, ratio: int) -> str:
    return f"%p{counter_symbol[2:]}r{ratio}"


def power_constraint(counter_symbol: str, ratio: int) -> z3.BoolRef:
    """``p == ratio^κ`` for ``ratio >= 2``, in linear arithmetic: exact for κ up to
    ``POWER_CASES``, and ``p >= ratio^(POWER_CASES + 1)`` beyond (true, since the power grows)."""
    k, p = z3.Int(counter_symbol), z3.Int(power_symbol(counter_symbol, ratio))
    cases = [z3.And(k == i, p == ratio**i) for i in range(POWER_CASES + 1)]
    return z3.Or(*cases, z3.And(k > POWER_CASES, p >= ratio ** (POWER_CASES + 1)))


@dataclass
class Merge:
    """The merged values of one loop node, as functions of the entry values and counters."""

    values: dict[str, AbstractValue | Scaled] = field(default_factory=dict)
    unsolved: dict[str, str] = field(default_factory=dict)  # variable -> why it is STAR
    powers: dict[str, tuple[str, int]] = field(default_factory=dict)  # power symbol -> (counter, ratio)


def _delta(entry: str, after: Linear) -> tuple[Linear | None, str]:
    """``after - α_v`` when it is an arithmetic step (a constant plus nested counters)."""
    coefficient = after.as_dict().get(entry, 0)
    if coefficient == 0:
        return None, "assigned in the loop (not from its previous value)"
    if coefficient != 1:
        return None, "not an arithmetic progression (a geometric one or other)"
    rest = after.add(Linear.symbol(entry), -1)
    if any(not is_counter(s) for s in rest.symbols()):
        return None, "its step depends on other variables"
    return rest, ""


def _geometric(symbol: str, start: Linear, afters: list[AbstractValue], counters: list[str]) -> tuple[str, int] | None:
    """(counter, ratio) when one group multiplies the variable by a constant ``ratio >= 2``
    and every other group leaves it as it is (the paper's geometric progression)."""
    scaling = [(c, a) for c, a in zip(counters, afters) if a != start]
    if len(scaling) != 1:
        return None
    counter_symbol, after = scaling[0]
    if not isinstance(after, Linear) or after.const != 0 or len(after.coeffs) != 1 or after.coeffs[0][0] != symbol:
        return None
    ratio = after.coeffs[0][1]
    return (counter_symbol, ratio) if ratio >= 2 else None


def merge(header: int, entry: dict[str, AbstractValue], outs: dict[str, dict[str, AbstractValue]]) -> Merge:
    """Merge the per-chain values ``outs`` (counter symbol -> state after one run from the
    ``α`` entry state) of the loop headed by ``header``; ``entry`` is the α entry state."""
    result = Merge()
    names = set(entry)
    for out in outs.values():
        names |= set(out)
    for name in sorted(names):
        start = entry.get(name, STAR)
        afters = [out.get(name, STAR) for out in outs.values()]
        if all(a == start for a in afters):
            result.values[name] = start  # not changed by any chain (also non-int values)
            continue
        symbol = entry_symbol(header, name)
        if start != Linear.symbol(symbol) or not all(isinstance(a, Linear) for a in afters):
            result.values[name] = STAR
            result.unsolved[name] = "not an int the loop updates arithmetically"
            continue
        geometric = _geometric(symbol, start, afters, list(outs))
        if geometric is not None:
            counter_symbol, ratio = geometric
            result.values[name] = Scaled(symbol, power_symbol(counter_symbol, ratio))
            result.powers[power_symbol(counter_symbol, ratio)] = (counter_symbol, ratio)
            continue
        merged = Linear.symbol(symbol)
        inner: dict[str, int] = {}
        why = ""
        for counter_symbol, after in zip(outs, afters):
            step, why = _delta(symbol, after)  # type: ignore[arg-type]
            if step is None:
                break
            merged = merged.add(Linear.symbol(counter_symbol), step.const)
            for s, c in step.coeffs:
                if inner.setdefault(s, c) != c:
                    step, why = None, "nested loops update it differently"
                    break
            if step is None:
                break
        else:
            result.values[name] = merged.add(Linear.of(0, inner))
            continue
        result.values[name] = STAR
        result.unsolved[name] = why
    return result
