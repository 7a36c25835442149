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
Table 1: ``α_v`` everywhere stays ``α_v``; progressions add up). Anything else is ``STAR`` with
a reason (a geometric progression, a reset inside the loop, an increment that depends on
another variable). Counters of nested chains in a merged value count every run since the
loop node was entered: the paper's counter with its reset chain, which for a value that
survives the merge is always the enclosing loop node (a value reset by an outer chain is
``STAR`` after that chain's merge). Invariant: a merged value is exact for every order of the
chains' runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pathloom.navigation.linear import STAR, Linear
from pathloom.navigation.transfer import AbstractValue


def counter(group: tuple[int, ...]) -> str:
    """The counter of a group of chains with the same effect: runs of any of them."""
    return "%k" + "_".join(str(i) for i in group)


def entry_symbol(header: int, var: str) -> str:
    return f"%a{header}:{var}"


def is_counter(symbol: str) -> bool:
    return symbol.startswith("%k")


@dataclass
class Merge:
    """The merged values of one loop node, as functions of the entry values and counters."""

    values: dict[str, AbstractValue] = field(default_factory=dict)
    unsolved: dict[str, str] = field(default_factory=dict)  # variable -> why it is STAR


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
