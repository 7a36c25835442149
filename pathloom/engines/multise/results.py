"""The results phase: one path per distinct outcome (a returned value, or an exception at a
line), split until every feasible branch direction has an input; cube guards solved in batches
(``limits.CUBE_BATCH``); concrete inputs and outcomes encoded for the reporters; the engine's
stats. Invariant: a result whose query is unknown, or whose guard is too large to state, is
reported as an ``unknown`` path with its reason, never dropped and never given a guessed input."""

from __future__ import annotations


import time
from collections.abc import Iterator
from typing import Any

from pathloom.cuts import CutCause
from pathloom.engine_stats import MultiSEStats
from pathloom.engines.cube_batch import solve_cubes
from pathloom.heap.input_objects import complete_model
from pathloom.engines.multise.heap import (
    CAP,
    ENTRIES,
    KIND,
    LEN,
    NAMES,
    CellKey,
)
from pathloom.frontend.cfg import branch_edges
from pathloom.guards.bdd import Guard
from pathloom.guards.summary import ValueSummary, value_key
from pathloom.encoding.values import encode_symbolic
from pathloom.results import PathOutcome, PathResult
from pathloom.semantics import control
from pathloom.domain.values import UNBOUND
from pathloom.domain.values import ExcVal, ListRec, ObjRec, Record, Ref
from pathloom.solver.base import SAT, UNSAT, Query
from pathloom.solver.independence import components as _components
from pathloom.terms import expr as T
from pathloom.terms.evaluate import evaluate
from pathloom.terms.expr import Term
from pathloom.engines.multise import limits
from pathloom.engines.multise.state import (
    _AskedModel,
    _symbol_names,
)
from pathloom.engines.multise.stepping import Stepping


class _EnvHeap:
    """The heap for concrete input values ``env``: in each cell, the value whose guard holds there."""

    def __init__(self, engine: Stepping, env: dict[str, Any]) -> None:
        self.engine = engine
        self.env = env

    def _value(self, key: CellKey) -> Any:
        for guard, value in self.engine.cells[key]:
            if self.engine.holds(guard, self.env):
                return value
        raise KeyError(key)

    def record(self, ref: Ref) -> Record:
        kind = self._value((ref.id, KIND))
        if kind in ("dict", "set"):
            return self._value((ref.id, ENTRIES))  # type: ignore[no-any-return]
        if kind == "list":
            cap = self._value((ref.id, CAP))
            return ListRec(self._value((ref.id, LEN)), tuple(self._value((ref.id, i)) for i in range(cap)))
        names = self._value((ref.id, NAMES))
        return ObjRec(kind, tuple((name, self._value((ref.id, ("f", name)))) for name in names))


class Results(Stepping):
    def _outcome_model(self, outcome: tuple[Any, ...], model: dict[str, Any]) -> dict[str, Any]:
        """``model`` with values for the access paths the outcome's report reads and the model
        leaves out, taken from the input heap it decodes to: a merged guard's satisfied disjunct
        may have read ``pr.right.val`` where the outcome shows ``b.val`` and ``b is pr.right``
        (``input_objects.complete_model``). A pass may reach further objects; an object graph
        is finite, so the passes end."""
        assert self.entry.fields_of is not None
        while True:
            absent = self._outcome_names(outcome, model) - model.keys()
            completed = complete_model(model, absent, self.entry.object_nullable, self.entry.fields_of)
            if completed.keys() == model.keys():
                return model
            model = completed

    def _outcome_names(self, outcome: tuple[Any, ...], model: dict[str, Any]) -> set[str]:
        """The symbols the report of ``outcome`` evaluates under ``model``."""
        asked = _AskedModel(model)
        if outcome[0] == "return":
            encode_symbolic(outcome[1], _EnvHeap(self, asked), asked)
        elif outcome[0] == "raise":
            control.exception_message(outcome[1], asked)
        return asked.asked

    def _outcome_key(self, outcome: tuple[Any, ...]) -> tuple[Any, ...]:
        if outcome[0] == "return":
            return ("return", value_key(outcome[1]))
        if outcome[0] == "raise":
            exc: ExcVal = outcome[1]
            # exceptions with other arguments (messages) are other results, even at one line
            return ("raise", exc.cls, outcome[2], outcome[3], exc.text, value_key(exc.args))
        return outcome

    def _results(self) -> Iterator[PathResult]:
        mgr = self.mgr
        self.in_results = True
        # inputs for what was found are solved even after a timeout, within a grace period
        if self.deadline is not None:
            self.results_deadline = max(time.monotonic(), self.deadline) + limits.RESULTS_GRACE * (self.options.timeout or 0)
        self.z3_core.deadline = self.results_deadline
        grouped: dict[tuple[Any, ...], tuple[Guard, tuple[Any, ...]]] = {}
        known: dict[tuple[Any, ...], dict[str, Any]] = {}
        hints: dict[tuple[Any, ...], dict[str, Any]] = {}  # the model of the pc entry a final came from
        order: list[tuple[Any, ...]] = []
        for i, (g, outcome) in enumerate(self.finals):
            key = self._outcome_key(outcome) if self.join else (len(order),)
            if key in grouped:
                grouped[key] = (mgr.or_(grouped[key][0], g), grouped[key][1])
            else:
                grouped[key] = (g, outcome)
                order.append(key)
            model = self.final_models.get((id(g), i))
            if model is not None and key not in known:
                known[key] = model
            hint = self.final_hints.get(i)
            if hint is not None:
                hints.setdefault(key, hint)
        batch = self._solve_cubes({k: grouped[k][0] for k in order if k not in known})
        parts: list[tuple[Guard, tuple[Any, ...], dict[str, Any]]] = []
        for key in order:
            g, outcome = grouped[key]
            if key in known:
                parts.append((g, outcome, known[key]))
                continue
            if key in batch and batch[key][0] == SAT:
                parts.append((g, outcome, batch[key][1]))
                continue
            if key in batch and batch[key][0] == UNSAT:
                continue
            if self.results_deadline is not None and time.monotonic() > self.results_deadline:
                self.complete = False
                self.unknown_results.append(
                    PathResult(
                        PathOutcome.UNKNOWN, None, reason="timeout: the inputs of a result were not solved within the results phase's share of --timeout"
                    )
                )
                continue
            if self.mgr.size(g) > limits.RESULT_GUARD_LIMIT:  # not stated whole, nor solved whole
                status, model = self._solve_one_path(g, hints.get(key))
                if status == SAT:
                    parts.append((g, outcome, model))  # reported as that path and an unknown (below)
                else:
                    self.complete = False
                    self.unknown_results.append(
                        PathResult(PathOutcome.UNKNOWN, None, reason=f"path condition too large to state or solve (a BDD of {self.mgr.size(g)} nodes)")
                    )
                continue
            near = self._solve_near_any(g, hints.get(key), reuse=False)  # results' guards are disjoint
            if near is not None:
                parts.append((g, outcome, near))
                continue
            status, model = self._solve(g)
            if status == SAT:
                parts.append((g, outcome, model))
            elif status != UNSAT:
                self.complete = False
                self.unknown_results.append(PathResult(PathOutcome.UNKNOWN, None, reason="solver returned unknown (timeout)", condition=self.guard_term(g)))
        parts = self._cover_directions(parts)
        for result in self.unknown_results:
            self.paths += 1
            yield result
        for g, outcome, model in parts:
            if self.mgr.size(g) > limits.RESULT_GUARD_LIMIT:
                unknown, path, model = self._one_path_of(g, model)
                self.paths += 1
                yield unknown
                if path is None:
                    continue
                g = path
            self.paths += 1
            yield self._path_result(g, outcome, model)

    def _solve_cubes(self, guards: dict[tuple[Any, ...], Guard]) -> dict[tuple[Any, ...], tuple[str, dict[str, Any]]]:
        """Models of many result guards that are plain conjunctions of literals, from one
        incremental solver (``cube_batch``). Left to the chain: fewer than ``limits.CUBE_BATCH`` such
        guards, and guards built from few distinct literals (fewer than half as many as the
        guards), whose independent parts the chain's query cache answers part by part. Every
        model is checked against its guard."""
        cubes: dict[Any, tuple[Term, ...]] = {}
        for key, g in guards.items():
            literals, rest = self._split_cube(g)
            if self.mgr.is_true(rest):
                cubes[key] = tuple(self._literal(atom, positive) for atom, positive in literals)
        if len(cubes) < limits.CUBE_BATCH:
            return {}
        distinct = {literal for cube in cubes.values() for literal in cube}
        if 2 * len(distinct) < len(cubes):
            return self._solve_cubes_by_part(guards, cubes, distinct)
        self.solver_stats.queries += len(cubes)
        found = solve_cubes(sorted(self.base, key=lambda t: t.serial), cubes, self.solver_stats, self.options.solver_timeout_ms, self.results_deadline)
        for solved, (status, model) in found.items():
            if status == SAT and not self.holds(guards[solved], model):  # type: ignore[index]
                raise AssertionError("a model from the batch solver violates its result guard")
        return found  # type: ignore[return-value]

    def _solve_cubes_by_part(
        self, guards: dict[tuple[Any, ...], Guard], cubes: dict[Any, tuple[Term, ...]], literals: set[Term]
    ) -> dict[tuple[Any, ...], tuple[str, dict[str, Any]]]:
        """Few literals recurring across many result cubes: group each cube's literals (and
        the input constraints) by independent part, the parts found once for all literals
        (coarser than per cube, still independent), and ask the chain part by part, where
        its query cache answers every part after its first time."""
        parts = _components(self.base | frozenset(literals))
        part_of = {c: i for i, part in enumerate(parts) for c in part}
        base_of: dict[int, list[Term]] = {}
        for c in self.base:
            base_of.setdefault(part_of[c], []).append(c)
        found: dict[tuple[Any, ...], tuple[str, dict[str, Any]]] = {}
        answered: dict[frozenset[Term], tuple[str, dict[str, Any]]] = {}  # the same part recurs in most cubes
        for key, cube in cubes.items():
            if self.results_deadline is not None and time.monotonic() > self.results_deadline:
                break  # the cubes left are unknown results (``_results``)
            groups: dict[int, list[Term]] = {i: list(cs) for i, cs in base_of.items()}
            for literal in cube:
                groups.setdefault(part_of[literal], []).append(literal)
            model: dict[str, Any] = {}
            status = SAT
            for group in groups.values():
                asked = frozenset(group)
                answer = answered.get(asked)
                if answer is None:
                    answer = answered[asked] = self._solve_part(asked)
                if answer[0] != SAT:
                    status = answer[0]
                    break
                model.update(answer[1])
            found[key] = (status, model if status == SAT else {})
        return found

    def _solve_part(self, part: frozenset[Term]) -> tuple[str, dict[str, Any]]:
        """A model of one independent part of result cubes, restricted to the part's own
        symbols and checked against each of its constraints: models of symbol-disjoint
        parts then join into a model of any cube made of them (a cube is its guard), so the
        joined models need no check of their own."""
        self.solver_stats.queries += 1
        answer = self.solver.check(Query(part, None, reuse_models=False))  # no focus: a part may
        # fall apart within one cube, and the chain then solves each piece
        if answer.status != SAT:
            return answer.status, {}
        names = _symbol_names(part)
        model = {k: v for k, v in answer.model.items() if k in names}
        if not all(evaluate(c, model) is True for c in part):
            raise AssertionError("a model of an independent part of result cubes violates the part")
        return SAT, model

    def _covers(self, direction: Guard, model: dict[str, Any]) -> bool:
        return self.holds(direction, model)

    def _cover_directions(self, parts: list[tuple[Guard, tuple[Any, ...], dict[str, Any]]]) -> list[tuple[Guard, tuple[Any, ...], dict[str, Any]]]:
        """Split result guards until every feasible branch direction has an input (within
        the time limit: the results stand without it, with fewer inputs)."""
        mgr = self.mgr
        large = [mgr.size(g) > limits.RESULT_GUARD_LIMIT for g, _, _ in parts]  # sizes walk the BDD: once per part
        for direction in self.directions.values():
            if self.deadline is not None and time.monotonic() > self.deadline:
                break  # more inputs for coverage only: past the time limit each query was a
                # solver timeout (a fuzzed program spent minutes here, 0.25 s a query)
            if any(self._covers(direction, model) for _, _, model in parts):
                continue
            for i, (g, outcome, model) in enumerate(parts):
                if large[i]:
                    continue  # not solved whole (``_results``): its one reported path stands for it
                inside = mgr.and_(g, direction)
                if mgr.is_false(inside):
                    continue
                status, inside_model = self._solve(inside)
                if status != SAT:
                    continue
                outside = mgr.and_(g, mgr.not_(direction))
                replacement = [(inside, outcome, inside_model)]
                if self._covers(outside, model) if not mgr.is_false(outside) else False:
                    replacement.append((outside, outcome, model))
                elif not mgr.is_false(outside):
                    out_status, out_model = self._solve(outside)
                    if out_status == SAT:
                        replacement.append((outside, outcome, out_model))
                parts[i : i + 1] = replacement
                large[i : i + 1] = [mgr.size(part) > limits.RESULT_GUARD_LIMIT for part, _, _ in replacement]
                break
        return parts

    def _solve_one_path(self, g: Guard, hint: dict[str, Any] | None) -> tuple[str, dict[str, Any]]:
        """The solver's answer for the BDD path of ``g`` nearest ``hint`` (or a recent model):
        a model of ``g`` when SAT; UNSAT says nothing of the rest of ``g``."""
        model = hint if hint is not None else next((w.model for w in self.recent), {})
        return self._solve(self._path_near(g, model))

    def _path_near(self, g: Guard, model: dict[str, Any]) -> Guard:
        """A BDD path of ``g`` (a conjunction of its atoms' literals) near ``model``: the one
        that takes ``model``'s branch outcomes wherever ``g`` allows (``cube_near``)."""
        truth = self._witness(model).truth
        with self.mgr.timed():
            literals = self.mgr.cube_near(g, truth)
        return self.guard(T.conj([self._literal(atom, positive) for atom, positive in literals]))

    def _one_path_of(self, g: Guard, model: dict[str, Any]) -> tuple[PathResult, Guard | None, dict[str, Any]]:
        """For a result guard too large to state: an ``unknown`` result for it (the run is
        incomplete: those inputs reach the outcome, their conditions are not stated) and the
        BDD path of ``g`` nearest ``model``, with a model of it, to report in its place (None
        when that path has no model)."""
        self.complete = False
        size = self.mgr.size(g)
        path = self._path_near(g, model)
        unknown = PathResult(PathOutcome.UNKNOWN, None, reason=f"path condition too large to state (a BDD of {size} nodes): one path of it is reported")
        if self.holds(path, model):
            return unknown, path, model
        status, found = self._solve(path)
        return (unknown, path, found) if status == SAT else (unknown, None, model)

    def _path_result(self, g: Guard, outcome: tuple[Any, ...], model: dict[str, Any]) -> PathResult:
        condition = self.guard_term(g)
        if self.entry.heap_axioms is not None:
            heap_model = self._input_heap_model(g, condition, model)
            if heap_model is None:  # the solver gave up: an unknown result, never a guess
                self.complete = False
                return PathResult(PathOutcome.UNKNOWN, None, reason="solver returned unknown (timeout) on a model that is one input heap", condition=condition)
            model = self._outcome_model(outcome, heap_model)
        inputs = self.entry.decode(model)
        if outcome[0] == "return":
            value = outcome[1]
            returned = encode_symbolic(value, _EnvHeap(self, model), model)
            return PathResult(
                PathOutcome.RETURN,
                inputs,
                returned=returned,
                condition=condition,
                symbol_values=model,
                predict=lambda env: encode_symbolic(value, _EnvHeap(self, env), env),
            )
        if outcome[0] == "raise":
            exc: ExcVal = outcome[1]
            message = control.exception_message(exc, model)
            return PathResult(
                PathOutcome.RAISE,
                inputs,
                exception=exc.cls,
                message=message,
                line=outcome[2],
                kind=outcome[3],
                condition=condition,
                symbol_values=model,
                predict_message=lambda env: control.exception_message(exc, env),
            )
        cause: CutCause = outcome[1]
        return PathResult(PathOutcome.CUT, inputs, line=outcome[2], reason=cause.text, cut=cause.kind, condition=condition, symbol_values=model)

    def _sharing_factor(self, summaries: list[ValueSummary[Any]]) -> float | None:
        """The paper's sharing factor: paths per distinct value, averaged over the variables
        and heap cells of the final state. The paths of an entry are counted as the paths of
        its guard's BDD (disjoint cubes of branch outcomes); UNBOUND entries do not count.
        ``None`` (not computed) when the guards have more than :data:`limits.SHARING_WALK_MAX_NODES`
        nodes together: the count walks them in Python (a fuzzed program cut by its timeout
        left guards whose walk took longer than the rest of its results)."""
        counted = [[g for g, v in summary if v is not UNBOUND] for summary in summaries]
        if sum(self.mgr.size(g) for guards in counted for g in guards) > limits.SHARING_WALK_MAX_NODES:
            return None
        ratios = []
        table: dict[Any, tuple[int, int]] = {}
        for guards in counted:
            if guards:
                ratios.append(sum(self.mgr.path_count(g, table) for g in guards) / len(guards))
        return round(sum(ratios) / len(ratios), 3) if ratios else 0.0

    def stats(self, final: bool = True) -> MultiSEStats:
        """The Table-1 statistics (``final=False``: for progress reports, without the
        sharing factor, whose BDD walk is the one costly part)."""
        total = set(branch_edges(self.entry.function))
        for qualname in self.entered:
            total.update(branch_edges(self.module.function(qualname)))
        covered = {k for k, g in self.directions.items() if not self.mgr.is_false(g)}
        s = self.solver_stats
        elapsed = time.monotonic() - self.start
        summaries = [v for v in list(self.vars.values()) + list(self.cells.values()) if len(v)]
        sizes = [len(v) for v in summaries]
        distinct = sum(sizes)
        finals = len(self.finals)
        return MultiSEStats(
            paths=self.paths if final else len(self.finals),  # during exploration: outcomes found
            solver_calls=s.z3_calls,
            solver_time_s=round(s.z3_time_s, 6),
            time_s=round(elapsed, 6),
            instructions=self.instructions,
            branches_covered=len(covered & total),
            branches_total=len(total),
            queries=s.queries,
            query_cache_hits=s.cache_hits,
            cex_cache_hits=s.cex_hits,
            solver_unknowns=s.unknowns,
            unexplored_states=0,
            bdd_time_s=round(self.mgr.time_s, 6),
            bdd_ops=self.mgr.ops,
            bdd_time_pct=round(100 * self.mgr.time_s / elapsed, 1) if elapsed else 0.0,
            solver_time_pct=round(100 * s.z3_time_s / elapsed, 1) if elapsed else 0.0,
            avg_summary_size=round(sum(self.summary_sizes) / len(self.summary_sizes), 3) if self.summary_sizes else 0.0,
            final_summary_entries=distinct,
            sharing_factor=self._sharing_factor(summaries) if final else 0.0,
            pc_merges=self.merges,
            variable_merges_saved=self.merges_saved,
            opaque_atoms=self.opaque_atoms,
            state_collections=self.collections,
            interval_solves=self.interval_solves,
            final_outcome_entries=finals,
            concretizations=dict(sorted(self.concretizations.items())),
        )
