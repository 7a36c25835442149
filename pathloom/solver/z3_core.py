"""The bottom of the chain: Z3 itself, one reused solver with push/pop and a per-query timeout;
when Z3 answers unknown, a search for a model among small values (``small_models``) before the
answer stays unknown."""

from __future__ import annotations

import threading
import time

import z3

from pathloom.solver import small_models
from pathloom.solver.char_lemmas import char_lemmas
from pathloom.solver.base import SAT, UNKNOWN, UNSAT, Query, Result, SolverStats
from pathloom.terms.expr import Concrete, Term, symbols
from pathloom.terms.z3_encode import assertion, decode, z3_symbol


class Z3Solver:
    def __init__(self, stats: SolverStats, timeout_ms: int) -> None:
        z3.set_param("ctrl_c", False)  # let Ctrl-C reach Python (Z3 would turn it into `unknown`)
        self.stats = stats
        self.timeout_ms = timeout_ms
        self.solver = z3.Solver()
        self.deadline: float | None = None

    def check(self, query: Query) -> Result:
        self.stats.z3_calls += 1
        timeout = self.timeout_ms
        if self.deadline is not None:
            remaining = int((self.deadline - time.monotonic()) * 1000)
            timeout = max(1, min(timeout, remaining))
        start = time.perf_counter()
        shape = small_models.traits(query.constraints)
        search = small_models.Search(query.constraints, query.extra_symbols) if not query.extras else None
        if search is not None and search.searchable and self.deadline is not None:
            # Z3 gets at most half of what is left of the run: the search after an unknown needs
            # the rest (str(n)[::-1] of n >= 0, pinned for int(): Z3 spent the run's last 9.2 s
            # on a query the search answers with n=1 at once, and had left it no time)
            timeout = max(1, min(timeout, int((self.deadline - time.monotonic()) * 500)))
        if search is not None and search.searchable and shape.non_linear:
            uninterruptible = shape.huge_constant
            first = self._search_seconds(timeout) if uninterruptible else min(small_models.FIRST_TRY_S, self._search_seconds(timeout))
            found = self._small_model(search, first)
            if found is not None or uninterruptible:  # Z3 would not stop at its timeout there
                self.stats.z3_time_s += time.perf_counter() - start
                if found is None:
                    self.stats.unknowns += 1
                return found or Result(UNKNOWN)
        elif search is not None and search.searchable and shape.str_tests:
            found = self._small_model(search, min(small_models.FIRST_TRY_STR_S, self._search_seconds(timeout)))
            if found is not None:
                self.stats.z3_time_s += time.perf_counter() - start
                return found
        # A query over a regular-expression membership gets a fresh solver: on the one reused
        # with push/pop, version_key's planted bug ('0.0') was missed at --timeout 10 (found with
        # a fresh one in 7 s). So does a query over ``str(n)`` or ``int(s)``'s digits: one over
        # ``str(n)[::-1]`` was unknown after 20 s after a push, unsat in 0.4 s without (Z3
        # answers a query without a push by its tactics, after one by its incremental core). The others keep the shared solver:
        # what it retains from earlier queries helps there (str(x) == str(-x) was refuted in
        # 0.05 s, a fresh solver gave unknown after 10 s; that query is now rewritten to x == -x).
        fresh = shape.regex or shape.str_int
        solver = z3.Solver() if fresh else self.solver
        # Z3 does not always honour its own timeout (e.g. in non-linear arithmetic): a watchdog
        # interrupts the context shortly after the deadline, which also yields `unknown`.
        # An interrupt cancels the whole context (every solver) until the next check: one that lands outside
        # ``check`` (a late timer under load) left every later ``push`` raising "push canceled"
        # (a fuzzing run: every program after the first). So once the watchdog has fired, its
        # solver is dropped unpopped and a check on a fresh solver clears the cancellation.
        fired = threading.Event()

        def interrupt() -> None:
            fired.set()
            solver.ctx.interrupt()

        watchdog = threading.Timer(timeout / 1000 + 0.25, interrupt)
        watchdog.daemon = True
        watchdog.start()
        pushed = False
        try:
            if not fresh:
                solver.push()
                pushed = True
            solver.set("timeout", timeout)
            for constraint in sorted(query.constraints, key=lambda t: t.serial):  # deterministic
                solver.add(assertion(constraint))
            for lemma in char_lemmas(query.constraints) if shape.char_classes else ():  # valid: the same answer, sooner
                solver.add(assertion(lemma))
            for extra in query.extras:
                solver.add(extra)
            answer = solver.check()
            if answer == z3.sat:
                return Result(SAT, self._model(solver.model(), query.constraints, query.extra_symbols))
            if answer == z3.unsat:
                return Result(UNSAT)
            if search is not None:
                found = self._small_model(search, self._search_seconds(timeout))
                if found is not None:
                    return found
            self.stats.unknowns += 1
            return Result(UNKNOWN)
        except z3.Z3Exception as exc:
            # interrupted while building the query or its model, or Z3 gave up unfolding the
            # recursive functions of the str encodings ("reached max unfolding"): unknown
            if not fired.is_set() and not _gave_up(exc):
                raise
            self.stats.unknowns += 1
            return Result(UNKNOWN)
        finally:
            watchdog.cancel()
            watchdog.join()  # a callback under way has finished: ``fired`` is final
            if fired.is_set():
                self._renew()
            elif pushed:
                solver.pop()
            self.stats.z3_time_s += time.perf_counter() - start

    def _small_model(self, search: small_models.Search, seconds: float) -> Result | None:
        found = search.run(seconds)
        if found is None:
            return None
        self.stats.small_model_hits += 1
        return Result(SAT, found)

    def _search_seconds(self, timeout_ms: int) -> float:
        """The small-model search gets half of the query's timeout, within the deadline."""
        seconds = timeout_ms / 2000
        if self.deadline is not None:
            seconds = min(seconds, self.deadline - time.monotonic())
        return max(0.0, seconds)

    def _renew(self) -> None:
        """A new solver, and the context's cancellation cleared (a check resets it)."""
        self.solver = z3.Solver()
        self.solver.check()

    @staticmethod
    def _model(model: z3.ModelRef, constraints: frozenset[Term], extra_symbols: frozenset[Term] = frozenset()) -> dict[str, Concrete]:
        names: set[Term] = set(extra_symbols)
        for c in constraints:
            names |= symbols(c)
        result: dict[str, Concrete] = {}
        for s in sorted(names, key=lambda t: str(t.args[0])):
            name = str(s.args[0])
            value = model.eval(z3_symbol(name, s.sort), model_completion=True)
            result[name] = decode(value, s.sort)
        return result


def _gave_up(exc: z3.Z3Exception) -> bool:
    """Whether Z3 raised instead of answering unknown: its bound on unfolding recursive
    function definitions was reached (the query is undecided, not wrong)."""
    return "max unfolding" in str(exc.value if isinstance(exc.value, str) else exc.value.decode(errors="replace"))
