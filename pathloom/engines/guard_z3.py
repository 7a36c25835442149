"""Guards straight to Z3, node by node, remembered for the whole exploration.

MultiSE asks Z3 about guards that share most of their BDD nodes with guards asked before.
Rebuilding each one as a term and then as a Z3 formula cost far more than Z3's own check (on
the symbolic arithmetic benchmark, 0.8 s of encoding for 0.06 s of solving). Here the guard
manager's formula builder keeps one memo for the exploration: every BDD node
``ite(a, H, L)`` becomes ``If(a, H, L)`` once, with the atom ``a`` encoded by the shared term
encoder. The Z3 formula of a guard is equivalent to the guard (same function of the atoms),
so a model of it is a model of the guard.
"""

from __future__ import annotations

from typing import Any

import z3

from pathloom.guards.bdd import Guard, GuardManager
from pathloom.terms.expr import Term, symbols
from pathloom.terms.z3_encode import definitions, encode


def _leaf(atom: Any) -> z3.BoolRef:
    assert isinstance(atom, Term)
    return encode(atom)


# Z3's own constructors through its C API: ``z3.If`` and friends check and coerce their
# arguments in Python (about 50 us a node), which dominated the encoding of large guards.
# Every argument here is already a Bool of the main context.
_CTX = z3.main_ctx()


def _ite(c: z3.BoolRef, a: z3.BoolRef, b: z3.BoolRef) -> z3.BoolRef:
    return z3.BoolRef(z3.z3core.Z3_mk_ite(_CTX.ref(), c.as_ast(), a.as_ast(), b.as_ast()), _CTX)


def _and(a: z3.BoolRef, b: z3.BoolRef) -> z3.BoolRef:
    return z3.BoolRef(z3.z3core.Z3_mk_and(_CTX.ref(), 2, (z3.Ast * 2)(a.as_ast(), b.as_ast())), _CTX)


def _or(a: z3.BoolRef, b: z3.BoolRef) -> z3.BoolRef:
    return z3.BoolRef(z3.z3core.Z3_mk_or(_CTX.ref(), 2, (z3.Ast * 2)(a.as_ast(), b.as_ast())), _CTX)


def _not(a: z3.BoolRef) -> z3.BoolRef:
    return z3.BoolRef(z3.z3core.Z3_mk_not(_CTX.ref(), a.as_ast()), _CTX)


class GuardEncoder:
    def __init__(self, mgr: GuardManager) -> None:
        self.mgr = mgr
        self.builder = mgr.formula_builder(
            _and,
            _or,
            _not,
            z3.BoolVal(True, _CTX),
            z3.BoolVal(False, _CTX),
            leaf=_leaf,
            ite=_ite,
        )

    def encode(self, g: Guard) -> tuple[z3.BoolRef, frozenset[Term]]:
        """The Z3 formula of ``g`` (with the definitions its atoms' encodings need) and the
        input symbols it mentions."""
        found: set[Term] = set()
        atoms = self.mgr.support(g)
        for atom in atoms:
            found |= symbols(atom)  # type: ignore[arg-type]
        formula = self.builder.build(g)
        needed = definitions(atoms)  # type: ignore[arg-type]
        return (_and(formula, z3.And(*needed)) if needed else formula), frozenset(found)
