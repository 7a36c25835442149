"""The values of the chain analysis (phase 2): linear integer forms over symbols, conditions
over them, and the "do not know" value ``STAR`` (the paper's ⋆).

A symbol is a string: an input (``n``), a chain's entry value (``α:<loop>:<var>``) or a counter
(``κ<id>``). Invariant: a form denotes exactly the value Python computes on ints (Python ints
are unbounded, as Z3's), and anything outside linear arithmetic is ``STAR``; a condition
with ``STAR`` in it is never a constraint (dropping it over-approximates, which is sound).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import z3


class _Star:
    _instance: _Star | None = None

    def __new__(cls) -> _Star:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "⋆"


STAR = _Star()


@dataclass(frozen=True)
class Linear:
    const: int
    coeffs: tuple[tuple[str, int], ...] = ()  # sorted by symbol, no zero coefficient

    @staticmethod
    def of(const: int = 0, coeffs: Mapping[str, int] | None = None) -> Linear:
        items = tuple(sorted((s, c) for s, c in (coeffs or {}).items() if c != 0))
        return Linear(const, items)

    @staticmethod
    def symbol(name: str) -> Linear:
        return Linear(0, ((name, 1),))

    def as_dict(self) -> dict[str, int]:
        return dict(self.coeffs)

    def symbols(self) -> frozenset[str]:
        return frozenset(s for s, _ in self.coeffs)

    def add(self, other: Linear, factor: int = 1) -> Linear:
        merged = self.as_dict()
        for s, c in other.coeffs:
            merged[s] = merged.get(s, 0) + factor * c
        return Linear.of(self.const + factor * other.const, merged)

    def scale(self, factor: int) -> Linear:
        return Linear.of(self.const * factor, {s: c * factor for s, c in self.coeffs})

    def substitute(self, values: Mapping[str, Value]) -> Value:
        """Each symbol in ``values`` replaced by its value (``STAR`` if any used one is)."""
        result = Linear(self.const)
        for s, c in self.coeffs:
            v = values.get(s, Linear.symbol(s))
            if not isinstance(v, Linear):
                return STAR
            result = result.add(v, c)
        return result

    def to_z3(self, symbol: z3.ArithRef | None = None) -> z3.ArithRef:
        from pathloom.terms.expr import INT
        from pathloom.terms.z3_encode import z3_symbol

        expr: z3.ArithRef = z3.IntVal(self.const)
        for s, c in self.coeffs:
            expr = expr + c * z3_symbol(s, INT)
        return expr


_NEGATED = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}


@dataclass(frozen=True)
class Cond:
    """``left op 0``."""

    left: Linear
    op: str  # == != < <= > >=

    @staticmethod
    def compare(a: Linear, op: str, b: Linear) -> Cond:
        return Cond(a.add(b, -1), op)

    def negate(self) -> Cond:
        return Cond(self.left, _NEGATED[self.op])

    def substitute(self, values: Mapping[str, Value]) -> Cond | _Star:
        left = self.left.substitute(values)
        return Cond(left, self.op) if isinstance(left, Linear) else STAR

    def symbols(self) -> frozenset[str]:
        return self.left.symbols()

    def to_z3(self) -> z3.BoolRef:
        x = self.left.to_z3()
        return {"==": x == 0, "!=": x != 0, "<": x < 0, "<=": x <= 0, ">": x > 0, ">=": x >= 0}[self.op]


TRUE = Cond(Linear(0), "==")

Value = Linear | Cond | _Star
