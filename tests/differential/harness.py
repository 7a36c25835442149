"""Differential soundness harness: pathloom's engines against CPython on generated programs.

``check_program(program)`` explores ``program.entry`` with every engine and checks:

1. *replay* -- every reported ``return``/``raise`` path: its ``inputs``, run in CPython
   (``oracle.run_in_cpython``), end the way the path predicts (the return value by
   ``json_equal``, or the exception type *and* line). Also *witness*: the path's own inputs
   are well-typed, within the bounds, and satisfy the path's own condition (``holds``).
2. *partition* / *prediction* -- for sampled concrete inputs (``inputs_for`` with the
   options' bounds, plus up to WITNESS_SAMPLES witnesses per engine): when the exploration is complete
   exactly one path condition holds, otherwise at most one; the holding path's prediction
   (``predicted_return`` for returns, exception type and line for raises) matches CPython.
3. *agree* -- when every engine is complete, ``compare.agree(dse, multise) == []`` (same
   outcome kinds, same branch coverage).

Programs with input objects (a parameter typed ``Node``, ``Optional[Node]``,
``list[Node]``... of a class the program defines, ``progen_heap``) are explored by each
engine under each heap model of ``heaps`` (default all three: ``pose``, ``lazier``,
``lazy``): each pair is a *configuration* labelled ``engine/heap`` (``dse/lazy``), checked
like an engine (replay, witness, partition, prediction) and compared with the first by
*agree*: the heap models compute the same values, so their outcomes agree. Their inputs
are JSON object graphs, validated (``progen_heap.graph_problem``) and rebuilt in CPython
by ``encoding.values.decode_inputs``; an AttributeError on None is a bug such a program may
have, not a sign of an ill-formed one, and a replayed one must have CPython's message.

Each program is written to a file of its own (a unique name in a per-process temporary
directory) and its real module imported, as ``pathloom`` does for a file on the command
line (``frontend.realmodule``), so module-level names take their real values and what the
model does not cover runs in CPython (concretization). The import runs in this process
directly (``realmodule.import_real``) instead of ``load_module``'s child-process check
first: generated modules only define constants, classes and functions, and the check
would cost about 0.12 s a program. The module leaves ``sys.modules`` and the file is
deleted after the check. A further check, *module*: the module-level lists, dicts and sets
are the same after every exploration as before (pathloom runs code in CPython on the
shared real module and must leave it unchanged).

Incomplete explorations are expected with concretization (a ``concretized: ...`` cut when
an operand has more values than ``--max-concretizations``): ``CheckReport.cuts`` counts
the cut paths of each engine by reason (``cut_category``), so the fuzzer reports why.

``pathloom.errors.Unsupported`` is recorded in ``CheckReport.unsupported`` (not a failure);
any other exception raised by pathloom is a *crash* failure. Each failure carries a
``signature`` (engine:check:kind) used by the fuzzer to group and de-duplicate failures.

Shared by ``test_random_programs.py``, ``test_regressions.py`` and ``fuzz.py``; the
regression-file format (``save_regression`` / ``load_regression``) lives here too.
"""

from __future__ import annotations

import _thread
import ast
import atexit
import copy
import hashlib
import importlib.util
import itertools
import json
import re
import shutil
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType
from typing import Any, Self

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from pathloom.api import explore
from pathloom.compare import ComparisonCut, agree
from pathloom.engines.registry import engine_names
from pathloom.errors import Unsupported
from pathloom.frontend.module import Module, parse_module
from pathloom.frontend.realmodule import import_plan, import_real
from pathloom.encoding.values import json_safe
from pathloom.options import Options
from pathloom.replay import json_equal
from pathloom.results import Exploration, PathResult

from .oracle import Observed, run_in_cpython
from .progen import GeneratedProgram, inputs_for
from .progen_heap import graph_problem, object_param, object_schema

__all__ = [
    "ALPHABET",
    "ENGINES",
    "HEAPS",
    "OPEN_BUG_FEATURES",
    "REGRESSIONS",
    "CheckReport",
    "Failure",
    "ProgramFile",
    "base_options",
    "check_program",
    "configurations",
    "cut_category",
    "load_regression",
    "save_regression",
]

# every registered engine, the forking engine (the reference of the agreement checks) first
ENGINES = ("dse",) + tuple(e for e in engine_names() if e != "dse")
HEAPS = ("pose", "lazier", "lazy")
ALPHABET = "ab"
REGRESSIONS = Path(__file__).resolve().parent / "regressions"
ORACLE_TIMEOUT_S = 2.0
#: Seconds the cross-engine comparison (check 3) of one program may take: it evaluates every
#: path condition of one engine on every input of the other, quadratic in the paths.
AGREE_SECONDS = 60.0
# failures of one (engine, check, kind) kept per program; the rest are only counted
MAX_FAILURES_PER_KIND = 3
# Feature tags (progen.FEATURES) whose constructs meet an engine bug that is still open,
# with the regression file that keeps it (a strict xfail): the derandomized tests leave
# them out (progen's ``without``) until the bug is fixed; then delete the entry here.
OPEN_BUG_FEATURES: dict[str, str] = {}
# exceptions CPython can only raise for an ill-formed program: a generator bug, say so
ILL_FORMED = {"NameError", "UnboundLocalError", "TypeError", "RecursionError", "AttributeError"}
# witnesses per configuration (on average) among the partition check's inputs: each input is
# checked against every path of every configuration, so all of them (thousands under lazy
# initialization) would make the check quadratic: one program took over ten minutes
WITNESS_SAMPLES = 40
NONE_ATTRIBUTE = "'NoneType' object has no attribute "  # a real bug of a program with input objects


def ill_formed(obs: Observed) -> bool:
    """A CPython run only an ill-formed program has (a dereferenced None is a real bug)."""
    if obs.exception == "AttributeError" and (obs.detail or "").startswith(NONE_ATTRIBUTE):
        return False
    return obs.exception in ILL_FORMED


def has_object_inputs(program: GeneratedProgram) -> bool:
    if "class " not in program.source:
        return False
    schema = object_schema(program.source)
    return any(object_param(ann, schema) is not None for _, ann in program.params)


def configurations(program: GeneratedProgram, engines: Sequence[str], heaps: Sequence[str] | None = None) -> tuple[str, ...]:
    """What explores ``program``: the engines, each under every heap model of ``heaps``
    (default ``HEAPS``) when the program has input objects (``dse/pose``...). A label that
    names its heap already (``dse/lazy``, from a regression file) is kept as it is."""
    if any("/" in e for e in engines) or not has_object_inputs(program):
        return tuple(engines)
    return tuple(f"{e}/{h}" for e in engines for h in (heaps or HEAPS))


def _split_config(config: str) -> tuple[str, str | None]:
    engine, _, heap = config.partition("/")
    return engine, heap or None


Draw = Callable[[st.SearchStrategy[Any]], Any]


def base_options(**overrides: Any) -> Options:
    """The options every differential check uses (engine set per run)."""
    values: dict[str, Any] = {
        "timeout": 20,
        "max_list_len": 3,
        "max_str_len": 3,
        "max_iterations": 10,
        "max_depth": 32,
    }
    values.update(overrides)
    return Options(**values)


# --------------------------------------------------------------------------------------
# results


@dataclass
class Failure:
    engine: str  # "dse" | "multise" | "dse+multise" (agree)
    check: str  # crash | hang | witness | replay | partition | prediction | agree
    kind: str  # finer classification, e.g. "return->raise:ZeroDivisionError"
    message: str
    inputs: dict[str, Any] | None = None

    @property
    def signature(self) -> str:
        return f"{self.engine}:{self.check}:{self.kind}"

    def __str__(self) -> str:
        return f"[{self.signature}] {self.message}"


@dataclass
class CheckReport:
    program: GeneratedProgram
    engines: tuple[str, ...]
    checks: Counter = field(default_factory=Counter)  # check name -> number made
    # (configuration, check name) -> number made (configurations: see ``configurations``)
    checks_by: Counter = field(default_factory=Counter)
    failures: list[Failure] = field(default_factory=list)
    suppressed: int = 0  # failures beyond MAX_FAILURES_PER_KIND (counted, not kept)
    unsupported: dict[str, str] = field(default_factory=dict)  # engine -> message
    complete: dict[str, bool] = field(default_factory=dict)
    paths: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)  # exploration wall time
    oracle_timeouts: int = 0  # CPython runs over ORACLE_TIMEOUT_S (a generator problem)
    agree_cut: int = 0  # cross-engine comparisons past AGREE_SECONDS (no verdict, not counted as checks)
    ill_formed: int = 0  # CPython runs raising NameError, TypeError, ... (a generator problem)
    explorations: dict[str, Exploration] = field(default_factory=dict, repr=False)
    # engine -> cut (and unknown) paths by reason, numbers in the reason replaced by N
    cuts: dict[str, Counter] = field(default_factory=dict)
    # unsupported for one engine only, the others incomplete (not a failure, see _check)
    one_sided_unsupported: bool = False

    @property
    def ok(self) -> bool:
        return not self.failures

    @property
    def signatures(self) -> list[str]:
        return sorted({f.signature for f in self.failures})

    def describe(self, max_failures: int = 12) -> str:
        p = self.program
        params = ", ".join(f"{n}: {a}" for n, a in p.params)
        lines = [f"program (entry {p.entry}({params})):", p.numbered(), ""]
        for e in self.engines:
            if e in self.unsupported:
                lines.append(f"  {e}: unsupported: {self.unsupported[e]}")
            elif e in self.complete:
                lines.append(f"  {e}: {self.paths[e]} paths, complete={self.complete[e]}, {self.seconds[e]:.2f}s")
        lines.append(f"{len(self.failures)} failure(s):")
        lines += [f"  {f}" for f in self.failures[:max_failures]]
        if len(self.failures) > max_failures:
            lines.append(f"  ... and {len(self.failures) - max_failures} more")
        if self.suppressed:
            lines.append(f"  ({self.suppressed} more of the same kinds not kept)")
        return "\n".join(lines)


# --------------------------------------------------------------------------------------
# the program as a file, with its real module


_WORKDIR: Path | None = None
_SERIAL = itertools.count()


def _workdir() -> Path:
    global _WORKDIR
    if _WORKDIR is None:
        _WORKDIR = Path(tempfile.mkdtemp(prefix="pathloom-diff-"))
        atexit.register(shutil.rmtree, _WORKDIR, True)
    return _WORKDIR


class ProgramFile:
    """``program.source`` written to a file of its own and imported as pathloom would
    (``realmodule.import_plan``: a unique module name per path), in this process.

    ``module()`` is a freshly parsed :class:`Module` of the file (one per engine: lowering
    caches are not shared) whose ``runtime`` is the one real module. ``close()`` removes
    the module from ``sys.modules`` and deletes the file and its bytecode.
    """

    def __init__(self, program: GeneratedProgram) -> None:
        digest = hashlib.sha1(program.source.encode()).hexdigest()[:10]
        self.source = program.source
        self.path = _workdir() / f"g{next(_SERIAL)}_{digest}.py"
        self.path.write_text(program.source)
        self.name = import_plan(str(self.path))[1]
        self.runtime: ModuleType | None = None
        self.import_error: BaseException | None = None
        try:
            self.runtime = import_real(str(self.path))
        except Exception as exc:  # noqa: BLE001 - a generator bug, reported by the caller
            self.import_error = exc
        self.snapshot = self._data()

    def module(self) -> Module:
        return parse_module(self.source, str(self.path), self.runtime)

    def _data(self) -> dict[str, Any]:
        """Deep copies of the module-level lists, dicts and sets."""
        if self.runtime is None:
            return {}
        return {name: copy.deepcopy(value) for name, value in vars(self.runtime).items() if type(value) in (list, dict, set) and not name.startswith("__")}

    def changed(self) -> list[str]:
        """Module-level data that differs from what the import made (``name: before -> now``)."""
        now = self._data()
        return [
            f"{name}: {before!r} -> {now.get(name, '<deleted>')!r}"
            for name, before in self.snapshot.items()
            if name not in now or type(now[name]) is not type(before) or now[name] != before
        ]

    def restore(self) -> None:
        """Put back module data an engine changed, so the next engine starts from the import."""
        if self.runtime is not None:
            for name, before in self.snapshot.items():
                setattr(self.runtime, name, copy.deepcopy(before))

    def close(self) -> None:
        sys.modules.pop(self.name, None)
        self.path.unlink(missing_ok=True)
        Path(importlib.util.cache_from_source(str(self.path))).unlink(missing_ok=True)


_DIGITS = re.compile(r"(?<![\w.])-?\d+")  # numbers, not the digits of a name (D0, h1)


def _cut_reason(path: PathResult) -> str:
    if path.outcome == "unknown":
        return "unknown: " + (path.reason or "")
    return _DIGITS.sub("N", path.reason or "?")


def cut_category(reason: str) -> str:
    """A cut reason (as in ``CheckReport.cuts``) in a few words: ``concretized``,
    ``max-iterations``, ``max-depth``, ``timeout``, ``unknown`` or the reason's head."""
    if reason.startswith("concretized:"):
        return "concretized"
    if reason.startswith("loop iteration bound"):
        return "max-iterations"
    if reason.startswith("call depth bound"):
        return "max-depth"
    if reason.startswith("unknown"):
        return "unknown"
    if "timeout" in reason:
        return "timeout"
    return reason.split(" (")[0]


# --------------------------------------------------------------------------------------
# helpers


def _key(inputs: dict[str, Any]) -> str:
    return json.dumps(json_safe(inputs), sort_keys=True)  # an int past 4,300 digits in hex


def _obs_kind(obs: Observed) -> str:
    if obs.outcome == "raise":
        return f"raise:{obs.exception}"
    return obs.outcome


def _describe_obs(obs: Observed) -> str:
    if obs.outcome == "return":
        return f"returned {obs.returned!r}"
    if obs.outcome == "raise":
        note = " (ill-formed program: generator bug?)" if ill_formed(obs) else ""
        return f"raised {obs.exception} at line {obs.line} ({obs.detail}){note}"
    return f"{obs.outcome} ({obs.detail})"


def _describe_path(index: int, path: PathResult) -> str:
    if path.outcome == "return":
        what = f"return {path.returned!r}"
    elif path.outcome == "raise":
        what = f"raise {path.exception} at line {path.line} ({path.kind})"
    else:
        what = f"{path.outcome} ({path.reason})"
    return f"path #{index} [{what}]"


def _mismatch(outcome: str, exception: str | None, line: int | None, value: Any, obs: Observed) -> str | None:
    """The kind of disagreement between a prediction and CPython, or None."""
    if outcome == "return":
        if obs.outcome != "return":
            return f"return->{_obs_kind(obs)}"
        if not json_equal(value, obs.returned):
            return "return-value"
        return None
    if obs.outcome == "raise" and obs.exception == exception:
        return None if obs.line == line else "raise-line"
    return f"raise:{exception}->{_obs_kind(obs)}"


def _agree_kind(problem: str) -> str:
    """The kind of a ``compare.agree`` problem: outcomes-differ, coverage-differs, no-path,
    predictions-differ, returns-differ or messages-differ."""
    for marker, kind in (
        (": messages differ: ", "messages-differ"),
        (" has no path for the input ", "no-path"),
        (" predicts ", "predictions-differ"),
        (" returns ", "returns-differ"),
    ):
        if marker in problem and not problem.startswith(("outcomes differ", "coverage differs")):
            return kind
    return problem.split(":", 1)[0].replace(" ", "-")  # outcomes-differ | coverage-differs


def _predicted(path: PathResult, value: Any = None) -> str:
    if path.outcome == "return":
        return f"return {value!r}"
    return f"raise {path.exception} at line {path.line}"


def _crash_kind(exc: BaseException) -> str:
    """Exception type plus the innermost pathloom frame: distinct crashes, distinct kinds."""
    where = ""
    for frame in traceback.extract_tb(exc.__traceback__):
        if "/pathloom/" in frame.filename.replace("\\", "/"):
            where = f"@{Path(frame.filename).name}:{frame.name}"
    return f"{type(exc).__name__}{where}"


def _crash_message(what: str, exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)[-4:]
    tb = " <- ".join(f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in reversed(frames))
    return f"{what} raised {type(exc).__name__}: {exc} [{tb}]"


def _int_table(v: Any) -> bool:
    """A ``Callable[[int], int]`` input as pathloom reports it: ``{"$table": [[k, v], ...],
    "default": d}`` of ints, keys pairwise different."""
    if not (isinstance(v, dict) and set(v) == {"$table", "default"} and type(v["default"]) is int):
        return False
    entries = v["$table"]
    return (
        isinstance(entries, list)
        and all(isinstance(e, list) and len(e) == 2 and type(e[0]) is int and type(e[1]) is int for e in entries)
        and len({e[0] for e in entries}) == len(entries)
    )


_TYPE_OK: dict[str, Callable[[Any], bool]] = {
    "int": lambda v: type(v) is int,
    "bool": lambda v: type(v) is bool,
    "str": lambda v: type(v) is str,
    "list[int]": lambda v: type(v) is list and all(type(x) is int for x in v),
    # progen_breadth's parameters
    "int | None": lambda v: v is None or type(v) is int,
    "int | str": lambda v: type(v) in (int, str),
    "Callable[[int], int]": _int_table,
    # progen_syntax's parameters: an Enum member, a frozen dataclass built by its constructor
    "Hue": lambda v: isinstance(v, dict) and set(v) == {"$enum", "member"} and v["$enum"] == "Hue" and v["member"] in ("R", "G", "B"),
    "Fz": lambda v: isinstance(v, dict) and v.get("$new") == "Fz" and set(v.get("args", {})) == {"a", "b"} and all(type(x) is int for x in v["args"].values()),
}


def _input_problem(program: GeneratedProgram, inputs: Any, options: Options) -> str | None:
    """Why ``inputs`` are not a valid argument dict within the options' bounds (or None)."""
    if not isinstance(inputs, dict):
        return f"inputs are {inputs!r}, not a dict"
    names = [n for n, _ in program.params]
    if sorted(inputs) != sorted(names):
        return f"input names {sorted(inputs)} != parameters {names}"
    schema = object_schema(program.source) if "class " in program.source else {}
    for index, (name, ann) in enumerate(program.params):
        v = inputs[name]
        if ann == "list[int]" and isinstance(v, dict) and set(v) == {"$same"}:
            earlier = [n for n, a in program.params[:index] if a == ann]
            if v["$same"] not in earlier:
                return f"{name}={v!r} names no earlier list parameter"
            continue
        if object_param(ann, schema) is not None:
            if isinstance(v, list) and len(v) > options.max_list_len:
                return f"{name} has {len(v)} items, more than max_list_len={options.max_list_len}"
            continue  # the object graph as a whole, below
        if not _TYPE_OK[ann](v):
            return f"{name}={v!r} is not a {ann}"
        if ann in ("str", "int | str") and isinstance(v, str) and len(v) > options.max_str_len:
            return f"{name}={v!r} is longer than max_str_len={options.max_str_len}"
        if ann == "Callable[[int], int]" and len(v["$table"]) > options.max_dict_len:
            return f"{name}={v!r} has more entries than max_dict_len={options.max_dict_len}"
        if ann == "list[int]" and len(v) > options.max_list_len:
            return f"{name}={v!r} is longer than max_list_len={options.max_list_len}"
    if schema:
        return graph_problem(program.params, schema, inputs)
    return None


def sample_strategy(program: GeneratedProgram, options: Options, n: int) -> st.SearchStrategy[list[dict[str, Any]]]:
    """``n`` input dicts from ``inputs_for`` with the options' bounds (strings cut to
    ``max_str_len``, a no-op for the default bound 3)."""
    limit = options.max_str_len

    def cut(inputs: dict[str, Any]) -> dict[str, Any]:
        return {k: (v[:limit] if isinstance(v, str) else v) for k, v in inputs.items()}

    one = inputs_for(program, max_list_len=options.max_list_len, alphabet=ALPHABET).map(cut)
    return st.lists(one, min_size=n, max_size=n)


def deterministic_samples(program: GeneratedProgram, options: Options, n: int) -> list[dict[str, Any]]:
    """Up to ``n`` distinct inputs drawn outside any Hypothesis test (derandomized: the
    same every run; the first is the simplest input, as Hypothesis starts there)."""
    if n <= 0:
        return []
    found: dict[str, dict[str, Any]] = {}

    @settings(
        max_examples=n,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(sample_strategy(program, options, 1))
    def collect(values: list[dict[str, Any]]) -> None:
        found.setdefault(_key(values[0]), values[0])

    collect()
    return list(found.values())[:n]


# --------------------------------------------------------------------------------------
# the check


def hang_limit(options: Options) -> float:
    """How long an exploration may take before it counts as a hang (a missed timeout)."""
    return 3 * (options.timeout or 60) + 30


class _Watchdog:
    """Interrupts the main thread (KeyboardInterrupt) if the block runs too long.

    A Z3 call does not see a KeyboardInterrupt until it returns, so the watchdog also
    interrupts Z3's main context, and first writes ``note`` (the program) to stderr, so a
    hang that cannot be interrupted is still identified.
    """

    def __init__(self, seconds: float, note: str = "") -> None:
        self.seconds = seconds
        self.note = note
        self.fired = False
        self._timer: threading.Timer | None = None

    def _fire(self) -> None:
        self.fired = True
        sys.stderr.write(f"harness: still running after {self.seconds:.0f}s: {self.note}\n")
        sys.stderr.flush()
        try:
            import z3

            z3.main_ctx().interrupt()
        except Exception:  # noqa: BLE001, S110 - best effort: the KeyboardInterrupt follows
            pass
        _thread.interrupt_main()

    def __enter__(self) -> Self:
        if threading.current_thread() is threading.main_thread():
            self._timer = threading.Timer(self.seconds, self._fire)
            self._timer.daemon = True
            self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer.join()  # a firing under way has finished: ``fired`` is final
        if self.fired:
            # The interrupt cancels Z3's whole context until the next check; one that landed
            # outside a check (pathloom then renews nothing) left every later ``push`` of the
            # process raising "push canceled" (fuzz seed 3131: 700 programs crashed after it).
            # A check on a fresh solver clears it.
            import z3

            z3.Solver().check()


class _Collector:
    def __init__(self, report: CheckReport) -> None:
        self.report = report
        self.per_kind: Counter = Counter()

    def add(self, failure: Failure) -> None:
        self.per_kind[failure.signature] += 1
        if self.per_kind[failure.signature] <= MAX_FAILURES_PER_KIND:
            self.report.failures.append(failure)
        else:
            self.report.suppressed += 1


def _spread(items: list[Any], most: int) -> list[Any]:
    """At most ``most`` of ``items``, evenly spaced (all when there are few)."""
    if len(items) <= most:
        return items
    return [items[i * len(items) // most] for i in range(most)]


def check_program(
    program: GeneratedProgram,
    engines: Sequence[str] = ENGINES,
    samples: int = 20,
    *,
    draw: Draw | None = None,
    extra_inputs: Iterable[dict[str, Any]] = (),
    options: Options | None = None,
    heaps: Sequence[str] | None = None,
) -> CheckReport:
    """Run every check on ``program`` with each engine; never raises for engine bugs.

    A program with input objects is explored by each engine under each heap model of
    ``heaps`` (default all: ``configurations``); ``report.engines`` are the labels used.

    ``draw`` (e.g. ``data.draw`` inside a Hypothesis test) draws the ``samples`` random
    inputs, so Hypothesis can shrink them with the program; without it the inputs come
    from a derandomized, standalone Hypothesis run. ``extra_inputs`` (e.g. a regression's
    failing inputs) are checked in addition.
    """
    options = options or base_options()
    engines = configurations(program, engines, heaps)
    report = CheckReport(program, engines)
    out = _Collector(report)
    program_file = ProgramFile(program)
    try:
        if program_file.import_error is not None:
            exc = program_file.import_error
            out.add(Failure("cpython", "import", type(exc).__name__, f"the generated module does not import: {type(exc).__name__}: {exc} (a generator bug)"))
            return report
        _check(program_file, report, out, engines, samples, draw, extra_inputs, options)
    finally:
        program_file.close()
    return report


def _check(
    program_file: ProgramFile,
    report: CheckReport,
    out: _Collector,
    engines: tuple[str, ...],
    samples: int,
    draw: Draw | None,
    extra_inputs: Iterable[dict[str, Any]],
    options: Options,
) -> None:
    program = report.program

    # -- explore --------------------------------------------------------------------
    for engine in engines:
        t0 = time.perf_counter()
        try:
            note = f"{engine} on\n{program.source}"
            with _Watchdog(hang_limit(options), note) as watchdog:
                try:
                    name, heap = _split_config(engine)
                    chosen = replace(options, engine=name, heap=heap or options.heap)
                    exploration = explore(program_file.module(), program.entry, chosen)
                except KeyboardInterrupt:
                    if not watchdog.fired:
                        raise
                    exploration = None
            if watchdog.fired:  # (pathloom may catch the interrupt and return partial results)
                out.add(
                    Failure(
                        engine,
                        "hang",
                        "explore",
                        f"explore still running after {watchdog.seconds:.0f}s "
                        f"(options.timeout={options.timeout}s, solver_timeout_ms="
                        f"{options.solver_timeout_ms}): interrupted",
                    )
                )
            if exploration is None:
                continue
        except Unsupported as exc:
            report.unsupported[engine] = str(exc)
            continue
        except Exception as exc:  # noqa: BLE001 - any other exception is an engine bug
            out.add(Failure(engine, "crash", _crash_kind(exc), _crash_message("explore", exc)))
            continue
        finally:
            report.seconds[engine] = time.perf_counter() - t0
            changed = program_file.changed()
            report.checks["module"] += 1
            if changed:
                out.add(Failure(engine, "module", "changed", f"the exploration left the real module changed: {'; '.join(changed)}"))
                program_file.restore()
        report.explorations[engine] = exploration
        report.complete[engine] = exploration.complete
        report.paths[engine] = len(exploration.paths)
        report.cuts[engine] = Counter(_cut_reason(p) for p in exploration.paths if p.outcome in ("cut", "unknown"))

    explored = [e for e in engines if e in report.explorations]
    if report.unsupported and explored:
        # An engine that stopped at a construct the other did not meet is a failure only if
        # the other explored everything: paths cut as `concretized` run other values than
        # the first engine's pinned ones, and whether an operation run in CPython is
        # unsupported (it changed an opaque object, say) can depend on the values.
        if any(report.complete[e] for e in explored):
            out.add(
                Failure(
                    "+".join(engines),
                    "agree",
                    "unsupported-mismatch",
                    f"unsupported only for {sorted(report.unsupported)}: {'; '.join(report.unsupported.values())}",
                )
            )
        else:
            report.one_sided_unsupported = True

    # -- the oracle, once per distinct input ---------------------------------------
    observed: dict[str, Observed] = {}

    def run(inputs: dict[str, Any]) -> Observed:
        k = _key(inputs)
        if k not in observed:
            observed[k] = run_in_cpython(program, inputs, timeout_s=ORACLE_TIMEOUT_S)
            if observed[k].outcome == "timeout":
                report.oracle_timeouts += 1
            elif ill_formed(observed[k]):
                report.ill_formed += 1
        return observed[k]

    # -- check 1: replay every finished path's own inputs --------------------------
    witnesses: list[dict[str, Any]] = []
    for engine in explored:
        exploration = report.explorations[engine]
        for index, path in enumerate(exploration.paths):
            if path.outcome not in ("return", "raise"):
                continue
            label = _describe_path(index, path)
            report.checks["witness"] += 1
            report.checks_by[engine, "witness"] += 1
            problem = _input_problem(program, path.inputs, options)
            if problem is not None:
                out.add(Failure(engine, "witness", "bad-inputs", f"{label}: {problem}", path.inputs))
                continue
            inputs = path.inputs
            assert inputs is not None
            witnesses.append(inputs)
            try:
                on_path = exploration.holds(path, inputs)
            except Exception as exc:  # noqa: BLE001
                out.add(Failure(engine, "crash", "holds:" + _crash_kind(exc), _crash_message(f"holds({label})", exc), inputs))
                on_path = True
            if not on_path:
                out.add(Failure(engine, "witness", "not-on-own-path", f"{label}: its own inputs {inputs} do not satisfy its path condition", inputs))
            report.checks["replay"] += 1
            report.checks_by[engine, "replay"] += 1
            obs = run(inputs)
            if obs.outcome == "timeout":
                continue
            kind = _mismatch(path.outcome, path.exception, path.line, path.returned, obs)
            if (
                kind is None
                and path.exception == "AttributeError"
                and path.kind == "implicit"
                and (obs.detail or "").startswith(NONE_ATTRIBUTE)
                and path.message != obs.detail
            ):
                kind = "raise-message"  # the None dereference CPython reports, attribute named
            if kind is not None:
                out.add(
                    Failure(
                        engine, "replay", kind, f"{label} inputs {inputs}: predicted {_predicted(path, path.returned)}, CPython {_describe_obs(obs)}", inputs
                    )
                )

    # -- check 2: sampled inputs fall on exactly one path, predicted right ---------
    pool: dict[str, dict[str, Any]] = {}
    drawn: list[dict[str, Any]] = []
    if draw is not None and samples > 0:  # always drawn: same draws for the same program
        drawn = draw(sample_strategy(program, options, samples))
    elif explored and samples > 0:
        drawn = deterministic_samples(program, options, samples)
    for inputs in list(extra_inputs) + drawn + _spread(witnesses, len(explored) * WITNESS_SAMPLES):
        if _input_problem(program, inputs, options) is None:
            pool.setdefault(_key(inputs), inputs)

    for engine in explored:
        exploration = report.explorations[engine]
        for inputs in pool.values():
            report.checks["sample"] += 1
            report.checks_by[engine, "sample"] += 1
            holding: list[tuple[int, PathResult]] = []
            try:
                for index, path in enumerate(exploration.paths):
                    if path.outcome == "unknown" and path.condition is True:
                        continue  # an unknown of unstated condition (too large to state) claims no inputs
                    if exploration.holds(path, inputs):
                        holding.append((index, path))
            except Exception as exc:  # noqa: BLE001
                out.add(Failure(engine, "crash", "holds:" + _crash_kind(exc), _crash_message(f"holds(inputs {inputs})", exc), inputs))
                continue
            if len(holding) > 1 or (exploration.complete and not holding):
                obs = run(inputs)
                which = ", ".join(_describe_path(i, p) for i, p in holding) or "none"
                kind = "several-hold" if holding else "none-holds"
                out.add(
                    Failure(
                        engine,
                        "partition",
                        kind,
                        f"inputs {inputs} (CPython {_describe_obs(obs)}): {len(holding)} path conditions hold (complete={exploration.complete}): {which}",
                        inputs,
                    )
                )
                continue
            if not holding or holding[0][1].outcome not in ("return", "raise"):
                continue
            index, path = holding[0]
            report.checks["prediction"] += 1
            report.checks_by[engine, "prediction"] += 1
            value = None
            if path.outcome == "return":
                try:
                    value = exploration.predicted_return(path, inputs)
                except Exception as exc:  # noqa: BLE001
                    out.add(
                        Failure(
                            engine,
                            "crash",
                            "predict:" + _crash_kind(exc),
                            _crash_message(f"predicted_return({_describe_path(index, path)}, {inputs})", exc),
                            inputs,
                        )
                    )
                    continue
            obs = run(inputs)
            if obs.outcome == "timeout":
                continue
            kind = _mismatch(path.outcome, path.exception, path.line, value, obs)
            if kind is not None:
                out.add(
                    Failure(
                        engine,
                        "prediction",
                        kind,
                        f"inputs {inputs} hold for {_describe_path(index, path)}: predicted {_predicted(path, value)}, CPython {_describe_obs(obs)}",
                        inputs,
                    )
                )

    # -- check 3: the engines agree ------------------------------------------------
    if len(explored) >= 2 and all(report.complete[e] for e in explored):
        base = report.explorations[explored[0]]
        for other in explored[1:]:
            report.checks["agree"] += 1
            report.checks_by[other, "agree"] += 1
            try:
                problems = agree(base, report.explorations[other], time.monotonic() + AGREE_SECONDS)
            except ComparisonCut:  # quadratic in the paths: no verdict past the deadline
                report.checks["agree"] -= 1
                report.checks_by[other, "agree"] -= 1
                report.agree_cut += 1
                continue
            except Exception as exc:  # noqa: BLE001
                out.add(Failure(f"{explored[0]}+{other}", "crash", "agree:" + _crash_kind(exc), _crash_message("agree", exc)))
                continue
            for problem in problems:
                out.add(Failure(f"{explored[0]}+{other}", "agree", _agree_kind(problem), problem))


# --------------------------------------------------------------------------------------
# regression files
#
# A regression file is the generated module preceded by a comment header:
#
#   # pathloom differential regression: <signature>
#   # entry: f
#   # params: x: int, xs: list[int]
#   # engines: dse
#   # inputs: [{"x": 0, "xs": []}]
#   # options: {"max_iterations": 2}   (only when the run overrode base_options())
#   # xfail: <why it fails>        (strict xfail until the engine bug is fixed; delete
#   #                               this line once it is)
#   # found: <how>
#
# The whole file (header included) is the program source, for pathloom and for CPython
# alike, so line numbers in messages are lines of the file.

HEADER_PREFIX = "# pathloom differential regression"
_FIELD = re.compile(r"^#\s*([a-z_]+):\s?(.*)$")


def _one_line(text: str, limit: int = 400) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def regression_text(
    program: GeneratedProgram,
    failure: Failure | None,
    *,
    engines: Sequence[str],
    inputs: Sequence[dict[str, Any]] = (),
    found: str = "",
    xfail: str | None = None,
    overrides: dict[str, Any] | None = None,
) -> str:
    signature = failure.signature if failure else "?"
    header = [
        f"{HEADER_PREFIX}: {signature}",
        f"# entry: {program.entry}",
        f"# params: {', '.join(f'{n}: {a}' for n, a in program.params)}",
        f"# engines: {','.join(engines)}",
        f"# inputs: {json.dumps(list(inputs))}",
    ]
    if overrides:
        header.append(f"# options: {json.dumps(overrides, sort_keys=True)}")
    if xfail is not None:
        header.append(f"# xfail: {_one_line(xfail)}")
    header.append(f"# found: {_one_line(found)}")
    return "\n".join(header) + "\n\n" + program.source


def save_regression(
    program: GeneratedProgram,
    failure: Failure,
    *,
    engines: Sequence[str] = ENGINES,
    found: str = "",
    directory: Path = REGRESSIONS,
    samples: int = 20,
    overrides: dict[str, Any] | None = None,
) -> Path:
    """Write ``program`` as a regression file marked xfail with ``failure``'s message.

    The message is re-computed on the file's own text (the header shifts line numbers),
    with the same checks ``test_regressions.py`` runs; returns the path written.
    """
    directory.mkdir(parents=True, exist_ok=True)
    inputs = [failure.inputs] if failure.inputs is not None else []
    placeholder = regression_text(
        program,
        failure,
        engines=engines,
        inputs=inputs,
        found=found,
        xfail="?",
        overrides=overrides,
    )
    as_saved = replace(program, source=placeholder)
    report = check_program(as_saved, engines, samples, extra_inputs=inputs, options=base_options(**(overrides or {})))
    same = [f for f in report.failures if f.signature == failure.signature]
    chosen = same[0] if same else (report.failures[0] if report.failures else None)
    why = str(chosen) if chosen else f"(did not fail when re-checked as saved) {failure}"
    text = regression_text(
        program,
        chosen or failure,
        engines=engines,
        inputs=inputs,
        found=found,
        xfail=why,
        overrides=overrides,
    )
    digest = hashlib.sha1(program.source.encode()).hexdigest()[:8]
    slug = re.sub(r"[^a-z0-9]+", "_", (failure.signature).lower()).strip("_")[:60]
    path = directory / f"{slug}_{digest}.py"
    path.write_text(text)
    return path


@dataclass
class Regression:
    path: Path
    program: GeneratedProgram
    engines: tuple[str, ...]
    inputs: list[dict[str, Any]]
    xfail: str | None
    signature: str
    overrides: dict[str, Any] = field(default_factory=dict)  # Options fields (``# options:``)

    @property
    def options(self) -> Options:
        return base_options(**self.overrides)


def load_regression(path: Path) -> Regression:
    text = path.read_text()
    fields: dict[str, str] = {}
    signature = "?"
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        if line.startswith(HEADER_PREFIX):
            signature = line[len(HEADER_PREFIX) :].lstrip(": ").strip()
            continue
        m = _FIELD.match(line)
        if m:
            fields[m.group(1)] = m.group(2).strip()
    tree = ast.parse(text)
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    entry = fields.get("entry") or ("f" if "f" in functions else list(functions)[-1])
    if fields.get("params"):
        params = tuple(tuple(part.strip() for part in item.split(":", 1)) for item in fields["params"].split(", "))
    else:  # from the entry function's annotations
        fn = functions[entry]
        params = tuple((a.arg, ast.unparse(a.annotation)) for a in fn.args.args if a.annotation)
    returns = "int"
    if entry in functions and functions[entry].returns is not None:
        returns = ast.unparse(functions[entry].returns)
    program = GeneratedProgram(source=text, entry=entry, params=params, returns=returns)  # type: ignore[arg-type]
    engines = tuple(e for e in fields.get("engines", ",".join(ENGINES)).split(",") if e)
    inputs = json.loads(fields["inputs"]) if fields.get("inputs") else []
    overrides = json.loads(fields["options"]) if fields.get("options") else {}
    return Regression(path, program, engines, inputs, fields.get("xfail"), signature, overrides)


# --------------------------------------------------------------------------------------
# a statement-level reducer (run after Hypothesis' shrinking, which keeps progen's
# structure: locals initialised at the top, if/else shapes, unused parameters)


def _params_of(tree: ast.Module, entry: str) -> tuple[tuple[str, str], ...]:
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == entry:
            return tuple((a.arg, ast.unparse(a.annotation)) for a in node.args.args if a.annotation)
    raise KeyError(entry)


def _statement_lists(tree: ast.AST) -> list[list[ast.stmt]]:
    lists: list[list[ast.stmt]] = []
    for node in ast.walk(tree):
        for name in ("body", "orelse", "finalbody"):
            value = getattr(node, name, None)
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                lists.append(value)
        if isinstance(node, ast.Try):
            for handler in node.handlers:
                lists.append(handler.body)
    return lists


_COUNTER_INCREMENT = re.compile(r"^i\d+ \+= 1$")


def _candidates(source: str, entry: str) -> Iterable[str]:
    """Smaller variants of ``source``, each one statement-level edit away."""
    tree = ast.parse(source)
    n_top = len(tree.body)
    # 1. drop a top-level definition other than the entry
    for i in range(n_top):
        node = tree.body[i]
        if isinstance(node, ast.FunctionDef) and node.name == entry:
            continue
        t = ast.parse(source)
        del t.body[i]
        yield ast.unparse(t)
    # 2. replace a compound statement by one of its bodies; 3. delete a statement
    n_lists = len(_statement_lists(tree))
    final_returns = set()  # (statement index, list index) of each function's final return
    body_lists = _statement_lists(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.body and isinstance(node.body[-1], ast.Return):
            li = next(i for i, lst in enumerate(body_lists) if lst is node.body)
            final_returns.add((len(node.body) - 1, li))
    for li in range(n_lists):
        n = len(_statement_lists(tree)[li])
        for si in reversed(range(n)):
            stmt = _statement_lists(tree)[li][si]
            bodies: list[str] = []
            if isinstance(stmt, ast.If):
                bodies = ["body", "orelse"]
            elif isinstance(stmt, ast.Try):
                bodies = ["body"]
            for attr in bodies:
                t = ast.parse(source)
                target = _statement_lists(t)[li]
                replacement = getattr(target[si], attr)
                if replacement:
                    target[si : si + 1] = replacement
                    yield ast.unparse(t)
            if isinstance(stmt, ast.Try) and len(stmt.handlers) > 1:
                for hi in range(len(stmt.handlers)):
                    t = ast.parse(source)
                    del _statement_lists(t)[li][si].handlers[hi]  # type: ignore[attr-defined]
                    yield ast.unparse(t)
            if isinstance(stmt, ast.If) and stmt.orelse:
                t = ast.parse(source)
                _statement_lists(t)[li][si].orelse = []  # type: ignore[attr-defined]
                yield ast.unparse(t)
            text = ast.unparse(stmt)
            if _COUNTER_INCREMENT.match(text) or isinstance(stmt, ast.FunctionDef):
                continue  # keep while loops terminating; functions are handled above
            if (si, li) in final_returns:
                continue  # a function's last return: without it the function returns None
            t = ast.parse(source)
            target = _statement_lists(t)[li]
            if len(target) == 1:
                if isinstance(stmt, ast.Pass):
                    continue
                target[0] = ast.Pass()
            else:
                del target[si]
            yield ast.unparse(t)
    # 4. drop an entry parameter the body no longer reads
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == entry:
            used = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
            for ai, a in enumerate(node.args.args):
                if a.arg not in used and len(node.args.args) > 1:
                    t = ast.parse(source)
                    fn = next(x for x in t.body if isinstance(x, ast.FunctionDef) and x.name == entry)
                    del fn.args.args[ai]
                    yield ast.unparse(t)


def reduce_program(
    program: GeneratedProgram,
    signature: str,
    *,
    engines: Sequence[str] = ENGINES,
    inputs: Sequence[dict[str, Any]] = (),
    samples: int = 20,
    seconds: float = 120.0,
    options: Options | None = None,
    heaps: Sequence[str] | None = None,
) -> tuple[GeneratedProgram, Failure | None]:
    """Delete statements/definitions while a failure with ``signature`` remains.

    A candidate counts only if CPython never raises an ill-formed-program exception
    (NameError, ...) or times out on the checked inputs and pathloom supports it.
    Returns the smallest program found and its failure (None if ``program`` itself no
    longer fails with ``signature``).
    """
    deadline = time.monotonic() + seconds

    def failing(candidate: GeneratedProgram) -> Failure | None:
        names = {n for n, _ in candidate.params}
        extra = [{k: v for k, v in i.items() if k in names} for i in inputs]
        report = check_program(candidate, engines, samples, extra_inputs=extra, options=options, heaps=heaps)
        if report.unsupported or report.oracle_timeouts or report.ill_formed:
            return None
        match = [f for f in report.failures if f.signature == signature]
        return match[0] if match else None

    best_failure = failing(program)
    if best_failure is None:
        return program, None
    best = program
    progress = True
    while progress and time.monotonic() < deadline:
        progress = False
        for text in _candidates(best.source, best.entry):
            if time.monotonic() >= deadline:
                break
            text += "\n"
            if len(text) >= len(best.source):
                continue
            try:
                params = _params_of(ast.parse(text), best.entry)
            except (SyntaxError, KeyError):
                continue
            candidate = replace(best, source=text, params=params)
            found = failing(candidate)
            if found is not None:
                best, best_failure, progress = candidate, found, True
                break
    return best, best_failure
