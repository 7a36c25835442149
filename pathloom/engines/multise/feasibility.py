"""Feasibility of a new pc entry and the witnesses that prove it: the BDD test, the entry's
model, theory lemmas over one integer term (``guards.theory``), a model-guided path of the
guard solved by interval arithmetic or by independent components, and only then the whole
guard in Z3 (``_solve``). Also the models concretization asks for. Invariant: an entry is
reported infeasible only on a BDD ``false``, a lemma contradiction or Z3's ``unsat``; a solver
``unknown`` is returned as unknown (``Joins._commit`` reports it as an unknown path)."""

from __future__ import annotations


import itertools
from collections.abc import Iterable
from typing import Any

from pathloom.guards.bdd import Guard
from pathloom.guards.theory import solve_intervals
from pathloom.semantics import control
from pathloom.semantics.concretize import enumerate_models
from pathloom.solver.base import SAT, UNSAT, Query
from pathloom.terms.evaluate import evaluate
from pathloom.terms.expr import Arg, Term
from pathloom.engines.multise import limits
from pathloom.engines.multise.state import (
    _Witness,
    _symbol_names,
    _touching_components,
)
from pathloom.engines.multise.core import MultiSECore


class Feasibility(MultiSECore):
    def _witness(self, model: dict[str, Any], near: dict[str, Any] | None = None) -> _Witness:
        """The witness of ``model``; a new one reuses the atom values known under ``near``
        for the atoms over symbols on which the two models agree."""
        found = self.witness_of.get(id(model))
        if found is None or found.model is not model:
            if len(self.witness_of) > 4096:
                self.witness_of.clear()
            if near is None:
                found = _Witness(model)
            else:
                changed = frozenset(k for k, v in model.items() if k not in near or near[k] != v)
                found = _Witness(model, self._witness(near).truth, changed)
            self.witness_of[id(model)] = found  # the witness keeps the model, so the id stays its own
        return found

    def holds(self, guard: Guard, model: dict[str, Any]) -> bool:
        """Whether input values ``model`` satisfy ``guard`` (atoms evaluated on demand, once per
        model)."""
        return self.mgr.evaluate(guard, self._witness(model).truth)

    def _model_truth(self, cond: object, model: dict[str, Any]) -> bool:
        """The truth of a branch condition's value under ``model``."""
        if not isinstance(cond, Term):
            return bool(cond)
        return bool(self._witness(model).truth[cond])

    def _feasible(self, guard: Guard, parent: Guard, model: dict[str, Any], model_holds: bool | None = None) -> tuple[str, dict[str, Any]]:
        """Whether a new pc guard is satisfiable, with a model: the BDD test, the entry's own
        model, the path of the guard nearest to that model (:meth:`_solve_near`), the theory
        lemmas, paths near recent models, then Z3 on the whole guard. (Trying the recent
        models on the guard first, as DSE's counterexample cache does, cost more BDD walks
        than it saved once most near paths were solved by interval arithmetic: the 17
        benchmark programs took 20.1 s with 4 such tries, 19.2 s without.)"""
        if self.mgr.is_false(guard):
            return UNSAT, model
        if guard == parent or (self.holds(guard, model) if model_holds is None else model_holds):
            return SAT, model
        found = self._solve_near(guard, model)
        if found is None:
            # The path nearest to the model is infeasible: maybe the whole guard is, which
            # the lemmas may show without Z3 (an implication test, costly on large guards,
            # hence not before the near path).
            with self.mgr.timed():
                contradicts = self.mgr.implies(guard, self.mgr.not_(self.lemmas.guard))
            if contradicts:
                self.lemma_unsats += 1
                return UNSAT, model
            with self.mgr.timed():
                narrowed = self.mgr.and_(guard, self.lemmas.guard)  # paths consistent with the lemmas
            found = self._solve_near_any(narrowed, model)
        if found is not None:
            self.recent.appendleft(self._witness(found))
            return SAT, found
        status, found = self._solve(guard)
        if status == SAT:
            found = {**model, **found}
            self.recent.appendleft(self._witness(found))
            return SAT, found
        return status, model

    def _solve_near_any(self, guard: Guard, model: dict[str, Any] | None, reuse: bool = True) -> dict[str, Any] | None:
        """:meth:`_solve_near` from ``model``, then from a few recent models."""
        hints = ([model] if model is not None else []) + [w.model for w in itertools.islice(self.recent, limits.RECENT_HINTS)]
        for hint in hints:
            found = self._solve_near(guard, hint, reuse)
            if found is not None:
                return found
        return None

    def _solve_near(self, guard: Guard, model: dict[str, Any], reuse: bool = True) -> dict[str, Any] | None:
        """A model of ``guard`` close to ``model``, or ``None`` (then ask the whole guard).

        Like DSE's branch flip: take the BDD path of ``guard`` that agrees with ``model`` on
        every atom it can, so its literals differ from the model only where the guard forces
        it; split the literals and the input constraints into independent components, keep the
        model's values for the components it satisfies, and solve only the others (small,
        recurring queries: the query cache answers most). ``None`` when a component is unsat
        or unknown: this one path may be infeasible while another is not."""
        truth = self._witness(model).truth
        with self.mgr.timed():
            literals = self.mgr.cube_near(guard, truth)
        cube = {self._literal(atom, positive) for atom, positive in literals}
        constraints = self.base | {c for c in cube if isinstance(c, Term)}
        found = dict(model)
        seeds = sorted((c for c in constraints if not truth[c]), key=lambda t: t.serial)  # a fixed order of queries
        direct = solve_intervals(seeds, constraints, model)  # most branch flips: no solver at all
        if direct is False:
            return None
        if direct is not None:
            self.interval_solves += 1
            found.update(direct)  # type: ignore[arg-type]
            self._witness(found, near=model)
            return found
        for component in _touching_components(seeds, constraints):
            self.solver_stats.queries += 1
            answer = self.solver.check(Query(frozenset(component), component[0], reuse_models=reuse, sliced=True))
            if answer.status != SAT:
                return None
            names = _symbol_names(component)
            found.update((k, v) for k, v in answer.model.items() if k in names)
            if not names <= answer.model.keys() and not all(evaluate(c, found) is True for c in component):
                return None  # a symbol the solver left free kept a value that does not fit
        # The other literals of the cube hold under ``model`` and mention no symbol that
        # changed, so ``found`` satisfies the whole cube, one path of ``guard``.
        self._witness(found, near=model)
        return found

    def _solve(self, guard: Guard, extra: Iterable[Arg] = ()) -> tuple[str, dict[str, Any]]:
        """A model of the input constraints, ``extra`` and ``guard``: a cube goes through the
        chain as its literals (independent parts solved apart, recurring ones answered by its
        caches); any other guard goes to Z3 as its forced literals plus the rest encoded node
        by node."""
        cube, rest = self._split(guard)
        if self.mgr.is_false(rest):
            return UNSAT, {}
        constraints = self.base | cube | {c for c in extra if isinstance(c, Term)}
        self.solver_stats.queries += 1
        if self.mgr.is_true(rest):
            if not constraints:
                return SAT, {}
            answer = self.solver.check(Query(constraints))
            return answer.status, answer.model
        formula, syms = self.encoder.encode(rest)
        answer = self.z3_core.check(Query(constraints, None, (formula,), syms))
        if answer.status == SAT and not self.holds(guard, answer.model):
            raise AssertionError("a Z3 model of a guard's encoding violates the guard")
        return answer.status, answer.model

    def _input_heap_model(self, guard: Guard, condition: Arg, model: dict[str, Any]) -> dict[str, Any] | None:
        """``model``, or when it does not give the access paths it names the values of one input
        heap, a model of ``guard`` that does: the guard mentions access paths its satisfied
        disjunct never read (left free by the assumptions ``semantics.input_heap`` made on the others),
        so solve it again with the heap axioms over all of them (``input_objects.heap_axioms``).
        None when the solver answers unknown."""
        assert self.entry.heap_axioms is not None
        names = _symbol_names([condition] if isinstance(condition, Term) else []) | set(model)
        axioms = self.entry.heap_axioms(names)
        if all(evaluate(a, model) is True for a in axioms):
            return model
        status, found = self._solve(guard, axioms)
        if status == UNSAT:
            raise AssertionError("a result guard has no model that is an input heap")
        return {**model, **found} if status == SAT else None

    def concretization_models(self, guard: Guard, terms: list[Term], site: str, where: Arg = True) -> tuple[list[dict[str, Any]], bool]:
        """Models of ``guard`` and ``where`` giving ``terms`` pairwise different values (concretization)."""

        def solve(excluded: list[Arg]) -> tuple[str, dict[str, Any]]:
            return self._solve(guard, excluded)

        own = [f for f in self.current_loc if f.label >= 0 and self._function(f.qualname).foreign_file is None]  # the user's code
        literals = self.module.literals_near(self._frame_line(own[-1]) if own else None)
        models, exhausted = enumerate_models(None, terms, self.options.max_concretizations, solve, where, literals)
        if models or not exhausted:
            frame = [f for f in self.current_loc if f.label >= 0][-1]
            key = control.concretization_site(self._function(frame.qualname), self._frame_line(frame), site)
            self.concretizations[key] = self.concretizations.get(key, 0) + 1
        return models, exhausted
