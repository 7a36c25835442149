"""Differential fuzzer: random programs through pathloom's engines and CPython.

    python -m tests.differential.fuzz --seconds 600 --programs 2000 --seed 1
    make fuzz FUZZ_ARGS="--seconds 600 --engines dse"
    python -m tests.differential.fuzz --objects --heaps pose,lazier,lazy --seconds 600

``--objects``: only programs with input objects (``progen_heap``: class-typed parameters
that may alias and form cycles); such a program is explored by every engine under every
heap model of ``--heaps`` (``harness.configurations``: ``dse/pose``, ``dse/lazier``...),
and the summary counts programs, checks and failures per configuration.

Programs come from ``progen.programs()`` driven by ``hypothesis.given`` in batches (one
Hypothesis run of ``--batch`` examples per seed, generate phase only, no database), each
checked by ``harness.check_program``. The first ``--shrink-per-signature`` failures of
each signature (engine:check:kind) are shrunk by Hypothesis itself: the run's body then
raises, Hypothesis shrinks the choice sequence (program *and* sampled inputs) while the
same signature keeps failing, and the minimal program is saved as a regression file in
``tests/differential/regressions/`` (see ``harness.save_regression``); the batch then
ends and the next seed starts. Later failures with a known signature are only counted.

Stops at ``--seconds`` or ``--programs``, whichever comes first; prints progress every
10 s and a summary: programs (and distinct sources), programs/s, checks, unsupported,
incomplete explorations, failures grouped by signature, the files saved. ``--log FILE``
appends every failure (unshrunk and shrunk) as JSON lines. Exit status 1 if anything
failed.
"""

from __future__ import annotations

import argparse
import dataclasses
import faulthandler
import hashlib
import json
import random
import re
import sys
import time
import warnings
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# progen's span helper triggers a HypothesisDeprecationWarning when its strategies are
# built (at import); it is harmless here
warnings.filterwarnings("ignore", message="There is no reason to use @st.composite")

from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings
from hypothesis import strategies as st

from pathloom.options import Options

from .harness import (
    AGREE_SECONDS,
    ENGINES,
    HEAPS,
    REGRESSIONS,
    CheckReport,
    Failure,
    base_options,
    check_program,
    configurations,
    cut_category,
    load_regression,
    reduce_program,
    sample_strategy,
    save_regression,
)
from .progen import BREADTH_FEATURES, EDGE_FEATURES, FEATURES, GeneratedProgram, programs


class _Stop(BaseException):
    """Out of time or programs: leaves the Hypothesis run at once (not a test failure)."""


class _ShrinkDone(BaseException):
    """Shrinking budget used up: keep the best program so far."""


class _Found(Exception):
    """Raised from the test body to make Hypothesis shrink towards a failure."""


def source_digest(source: str) -> str:
    return hashlib.sha1(source.encode()).hexdigest()[:16]


def shrink_key(failure: Failure) -> str:
    """Failures shrunk (and saved) once per key: the engine is left out (both engines share
    the semantics, so the same bug usually shows in both) and a wrong prediction for a
    reported path's own inputs ("replay") or for sampled inputs ("prediction") is one kind."""
    check = "predict" if failure.check in ("replay", "prediction") else failure.check
    return f"{check}:{failure.kind}"


def _is_found(exc: BaseException) -> bool:
    if isinstance(exc, _Found):
        return True
    inner = getattr(exc, "exceptions", None)  # an ExceptionGroup (e.g. Flaky) of _Found
    return bool(inner) and all(_is_found(e) for e in inner)


@dataclass
class Stats:
    started: float = field(default_factory=time.monotonic)
    programs: int = 0
    sources: set[int] = field(default_factory=set)
    check_seconds: float = 0.0  # time inside generation-phase bodies (generate + check)
    shrink_seconds: float = 0.0
    shrink_calls: int = 0
    checks: Counter = field(default_factory=Counter)
    unsupported: Counter = field(default_factory=Counter)  # message -> programs
    incomplete: Counter = field(default_factory=Counter)  # engine -> programs
    explored: Counter = field(default_factory=Counter)  # engine (or engine/heap) -> programs explored
    checks_by: Counter = field(default_factory=Counter)  # (engine or engine/heap, check) -> checks
    failing_by: Counter = field(default_factory=Counter)  # engine (or engine/heap) -> failing programs
    # (engine, cut category) -> explorations with a cut of that category (harness.cut_category)
    cut_kinds: Counter = field(default_factory=Counter)
    concretized: Counter = field(default_factory=Counter)  # concretized site -> cut paths
    features: Counter = field(default_factory=Counter)  # feature tag -> programs
    paths: Counter = field(default_factory=Counter)  # engine -> paths
    oracle_timeouts: int = 0
    agree_cut: int = 0
    ill_formed: int = 0
    one_sided_unsupported: int = 0  # unsupported for one engine only, the other incomplete
    duplicates: int = 0  # generated again (same source): skipped, not counted
    reduce_seconds: float = 0.0
    failing_programs: int = 0
    by_signature: Counter = field(default_factory=Counter)  # signature -> programs
    example: dict[str, str] = field(default_factory=dict)  # signature -> first message
    saved: dict[str, list[str]] = field(default_factory=dict)  # signature -> files
    slowest: list[tuple[float, str, str]] = field(default_factory=list)  # (s, engine, source)
    batches: int = 0

    def add(self, report: CheckReport) -> None:
        self.programs += 1
        self.features.update(report.program.features)
        if report.program.features & EDGE_FEATURES:
            self.features["<any real-module feature>"] += 1
        if report.program.features & BREADTH_FEATURES:
            self.features["<any breadth feature>"] += 1
        self.sources.add(source_digest(report.program.source))
        self.checks.update(report.checks)
        self.checks_by.update(report.checks_by)
        self.explored.update(report.explorations.keys())
        self.failing_by.update({f.engine for f in report.failures})
        for msg in report.unsupported.values():
            self.unsupported[_strip_location(msg)] += 1
        for engine, complete in report.complete.items():
            self.paths[engine] += report.paths[engine]
            if not complete:
                self.incomplete[engine] += 1
        for engine, cuts in report.cuts.items():
            for category in {cut_category(reason) for reason in cuts}:
                self.cut_kinds[engine, category] += 1
            for reason, n in cuts.items():
                if cut_category(reason) == "concretized":
                    self.concretized[_concretized_site(reason)] += n
        for engine, s in report.seconds.items():
            if len(self.slowest) < 5 or s > self.slowest[-1][0]:
                self.slowest.append((s, engine, report.program.source))
                self.slowest.sort(key=lambda t: -t[0])
                del self.slowest[5:]
        self.oracle_timeouts += report.oracle_timeouts
        self.agree_cut += report.agree_cut
        self.one_sided_unsupported += report.one_sided_unsupported
        self.ill_formed += report.ill_formed
        if report.failures:
            self.failing_programs += 1
        for sig in report.signatures:
            self.by_signature[sig] += 1
            self.example.setdefault(sig, next(str(f) for f in report.failures if f.signature == sig))


_LOCATION = re.compile(r"^.*?:\d+:\d+: ")


def _concretized_site(reason: str) -> str:
    # "concretized: attribute .big (more values than --max-concretizations)" -> "attribute .big"
    return reason.removeprefix("concretized: ").split(" (more values")[0]


def _strip_location(message: str) -> str:
    # "/tmp/pathloom-diff-x/g7_ab.py:12:4: unsupported: X" -> "unsupported: X"
    return _LOCATION.sub("", message, count=1)


def _log(path: Path | None, record: dict[str, Any]) -> None:
    if path is None:
        return
    with path.open("a") as fh:
        fh.write(json.dumps(record, default=str) + "\n")


def _failure_record(kind: str, program: GeneratedProgram, failure: Failure, **extra: Any) -> dict[str, Any]:
    return {
        "record": kind,
        "signature": failure.signature,
        "message": failure.message,
        "inputs": failure.inputs,
        "entry": program.entry,
        "params": program.params,
        "source": program.source,
        **extra,
    }


class Fuzzer:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.engines = tuple(e.strip() for e in args.engines.split(",") if e.strip())
        self.stats = Stats()
        self.deadline = self.stats.started + args.seconds if args.seconds else None
        self.shrunk: Counter = Counter()  # shrink_key -> shrink attempts
        self.preexisting: set[str] = set()  # shrink keys with a regression file already
        self.last_progress = time.monotonic()
        self.log = Path(args.log) if args.log else None
        self.out = Path(args.out)
        self.stopping = False
        self.overrides: dict[str, Any] = dict(args.set)
        self.options = base_options(**self.overrides)
        self.options.validate()
        self.heaps = tuple(h.strip() for h in args.heaps.split(",") if h.strip())
        self.programs = programs(args.max_functions, edges=not args.no_edges, without=args.without, heap=args.objects)
        # --seen FILE: digests of programs checked by earlier runs (skipped, then appended)
        self.seen_file = Path(args.seen) if args.seen else None
        self.seen_before: set[str] = set()
        if self.seen_file is not None and self.seen_file.exists():
            self.seen_before = set(self.seen_file.read_text().split())
        # kinds that already have a saved regression are not shrunk again
        if not args.resave and self.out.is_dir():
            for path in sorted(self.out.glob("*.py")):
                try:
                    signature = load_regression(path).signature
                    engine, check, kind = signature.split(":", 2)
                except (ValueError, SyntaxError, OSError):
                    continue
                key = shrink_key(Failure(engine, check, kind, ""))
                self.shrunk[key] += 1
                self.preexisting.add(key)

    # -- limits ---------------------------------------------------------------------
    def out_of_time(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def done(self) -> bool:
        return self.out_of_time() or (self.args.programs is not None and self.stats.programs >= self.args.programs)

    def progress(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self.last_progress < self.args.progress:
            return
        self.last_progress = now
        s = self.stats
        elapsed = now - s.started
        print(
            f"[{elapsed:7.1f}s] {s.programs} programs ({s.programs / max(elapsed, 1e-9):.1f}/s), "
            f"{sum(s.checks.values())} checks, {sum(s.unsupported.values())} unsupported, "
            f"{s.duplicates} duplicates, "
            f"{s.failing_programs} failing programs ({len(s.by_signature)} signatures), "
            f"{s.shrink_calls} shrink calls",
            flush=True,
        )

    # -- one Hypothesis run ----------------------------------------------------------
    def run_batch(self, batch_seed: int) -> None:
        args = self.args
        state: dict[str, Any] = {"target": None, "best": None, "t0": 0.0}
        phases = [Phase.generate, Phase.shrink] if not args.no_shrink else [Phase.generate]

        @settings(
            max_examples=args.batch,  # the run is left early (_Stop) once done()
            database=None,
            deadline=None,
            phases=phases,
            report_multiple_bugs=False,
            suppress_health_check=list(HealthCheck),
            verbosity=Verbosity.quiet,
            print_blob=False,
        )
        @seed(batch_seed)
        @given(st.data())
        def body(data: st.DataObject) -> None:
            if state["target"] is None:
                found = self.generate_one(data, state)
            else:
                found = self.shrink_step(data, state)
            if found:  # one raise site: Hypothesis keys failures by exception type and line
                raise _Found(state["target"])

        self.stats.batches += 1
        try:
            body()
        except KeyboardInterrupt:
            if state["target"] is None:
                raise
            self.stopping = True  # interrupted while shrinking: keep the best so far
        except (_Stop, _ShrinkDone):
            pass
        except Exception as exc:
            # leaving a run early from the body may surface as a Hypothesis error (e.g.
            # FlakyStrategyDefinition: "stopped drawing earlier"); that is expected
            expected = self.stopping or state.get("shrink_done") or (state["target"] is not None and _is_found(exc))
            if not expected:
                raise
        if state["target"] is not None:
            self.stats.shrink_seconds += time.monotonic() - state["t0"]
            self.save(state, batch_seed)

    def generate_one(self, data: st.DataObject, state: dict[str, Any]) -> bool:
        if self.done():
            self.stopping = True
            # the Hypothesis run is left at once; (Hypothesis may report this as a flaky
            # data generation error since the body stopped drawing: run_batch ignores it)
            raise _Stop()
        t0 = time.monotonic()
        program = data.draw(self.programs, label="program")
        digest = source_digest(program.source)
        if digest in self.stats.sources or digest in self.seen_before:  # Hypothesis often re-generates small programs
            self.stats.duplicates += 1
            data.draw(sample_strategy(program, self.options, self.args.samples))  # as check_program
            self.stats.check_seconds += time.monotonic() - t0
            self.progress()
            return False
        report = check_program(program, self.engines, self.args.samples, draw=data.draw, options=self.options, heaps=self.heaps)
        self.stats.check_seconds += time.monotonic() - t0
        self.stats.add(report)
        for f in report.failures:
            _log(self.log, _failure_record("found", program, f, seed=self.args.seed))
        for engine, seconds in report.seconds.items():
            if seconds > self.args.slow:
                _log(
                    self.log,
                    {
                        "record": "slow",
                        "engine": engine,
                        "seconds": round(seconds, 2),
                        "complete": report.complete.get(engine),
                        "entry": program.entry,
                        "params": program.params,
                        "source": program.source,
                        "seed": self.args.seed,
                    },
                )
        self.progress()
        if self.args.no_shrink:
            for f in report.failures:
                if self.shrunk[shrink_key(f)] < self.args.shrink_per_signature:
                    self.shrunk[shrink_key(f)] += 1
                    if not self.args.no_save:
                        self._save(program, f, f"fuzz --seed {self.args.seed} (not shrunk)")
            return False
        for f in report.failures:
            if self.shrunk[shrink_key(f)] < self.args.shrink_per_signature:
                self.shrunk[shrink_key(f)] += 1
                state.update(target=f.signature, best=(program, f), original=(program, f))
                state["t0"] = time.monotonic()
                print(f"  new failure {f.signature}; shrinking ...", flush=True)
                return True
        return False

    def shrink_step(self, data: st.DataObject, state: dict[str, Any]) -> bool:
        if time.monotonic() - state["t0"] > self.args.shrink_seconds:
            state["shrink_done"] = True
            raise _ShrinkDone()
        if self.out_of_time():
            self.stopping = True
            raise _Stop()
        self.stats.shrink_calls += 1
        program = data.draw(self.programs, label="program")
        report = check_program(program, self.engines, self.args.samples, draw=data.draw, options=self.options, heaps=self.heaps)
        match = [f for f in report.failures if f.signature == state["target"]]
        if match:
            if len(program.source) <= len(state["best"][0].source):
                state["best"] = (program, match[0])
            return True
        return False

    def save(self, state: dict[str, Any], batch_seed: int) -> None:
        program, failure = state["best"]
        original, _ = state["original"]
        n0, n1 = len(original.source.splitlines()), len(program.source.splitlines())
        _log(self.log, _failure_record("shrunk", program, failure, seed=self.args.seed))
        if self.args.reduce_seconds > 0 and not self.out_of_time():
            t0 = time.monotonic()
            inputs = [failure.inputs] if failure.inputs is not None else []
            reduced, why = reduce_program(
                program,
                failure.signature,
                engines=self.engines,
                inputs=inputs,
                samples=self.args.samples,
                seconds=self.args.reduce_seconds,
                options=self.options,
                heaps=self.heaps,
            )
            self.stats.reduce_seconds += time.monotonic() - t0
            if why is not None:
                program, failure = reduced, why
        n2 = len(program.source.splitlines())
        how = f"fuzz --seed {self.args.seed} (batch seed {batch_seed}); {n0} lines, {n1} after Hypothesis shrinking, {n2} after statement reduction"
        print(f"  shrunk {failure.signature}: {n0} -> {n1} -> {n2} lines", flush=True)
        _log(self.log, _failure_record("reduced", program, failure, seed=self.args.seed))
        if not self.args.no_save:
            self._save(program, failure, how)

    def _save(self, program: GeneratedProgram, failure: Failure, how: str) -> None:
        engines = configurations(program, self.engines, self.heaps)
        path = save_regression(program, failure, engines=engines, found=how, directory=self.out, overrides=self.overrides)
        self.stats.saved.setdefault(failure.signature, []).append(str(path))
        print(f"  saved {path}", flush=True)

    # -- the loop --------------------------------------------------------------------
    def run(self) -> int:
        rng = random.Random(self.args.seed)
        print(
            f"fuzzing engines={','.join(self.engines)} seconds={self.args.seconds} "
            f"programs={self.args.programs} seed={self.args.seed} samples={self.args.samples} "
            f"edges={not self.args.no_edges} without={','.join(sorted(self.args.without)) or '-'} "
            f"objects={self.args.objects} heaps={','.join(self.heaps)} "
            f"options={self.options}",
            flush=True,
        )
        try:
            while not self.done() and not self.stopping:
                self.run_batch(rng.getrandbits(64))
        except KeyboardInterrupt:
            print("interrupted", flush=True)
        if self.seen_file is not None:
            new = self.stats.sources - self.seen_before
            with self.seen_file.open("a") as fh:
                fh.write("".join(d + "\n" for d in sorted(new)))
        self.summary()
        return 1 if self.stats.by_signature else 0

    def summary(self) -> None:
        s = self.stats
        elapsed = time.monotonic() - s.started
        print()
        print("=" * 78)
        print(f"engines:          {','.join(self.engines)}   seed: {self.args.seed}")
        print(f"programs:         {s.programs} distinct programs checked in {s.batches} batches ({s.duplicates} re-generated duplicates skipped)")
        print(
            f"wall time:        {elapsed:.1f}s (generating+checking {s.check_seconds:.1f}s, "
            f"shrinking {s.shrink_seconds:.1f}s in {s.shrink_calls} calls, reducing {s.reduce_seconds:.1f}s)"
        )
        print(f"programs/s:       {s.programs / max(elapsed, 1e-9):.1f} overall, {s.programs / max(s.check_seconds, 1e-9):.1f} while generating+checking")
        print(f"checks:           {sum(s.checks.values())} ({', '.join(f'{k} {v}' for k, v in sorted(s.checks.items()))})")
        print(f"paths:            {', '.join(f'{e} {n}' for e, n in sorted(s.paths.items()))}")
        shown = (
            "<any real-module feature>",
            "dunder_class",
            "enum",
            "dataclass",
            "const_computed",
            "const_list",
            "const_dict",
            "list_repeat",
            "list_compare",
            "listcomp",
            "genexp_sum",
            "genexp_minmax",
            "genexp_anyall",
            "slice_list",
            "slice_str",
            "set_display",
            "setcomp",
            "set_op",
            "set_iter",
            "set_local",
            "generator",
            "generator_list",
            "generator_tuple",
            "generator_sorted",
            "yield_from_call",
            "<any breadth feature>",
            "param:int|None",
            "param:int|str",
            "param:Callable",
            "defaultdict_int",
            "defaultdict_list",
            "reduce_sum",
            "reduce_minmax",
            "reduce_fold",
            "nonlocal_counter",
            "global_counter",
            "slice_assign",
            "slice_assign_whole",
            "slice_assign_step",
            "kinds_helper",
            "kinds_varargs",
            "kinds_varkw",
            "kinds_star_call",
            "kinds_call_error",
            "walrus",
            "walrus_comp",
        )
        print("programs with:    " + ", ".join(f"{t.strip('<>')} {s.features[t]}" for t in shown))
        configs = sorted(s.explored, key=lambda c: (c.split("/")[0], HEAPS.index(c.split("/")[1]) if "/" in c else -1))
        print(f"incomplete:       {', '.join(f'{e} {s.incomplete[e]} ({100 * s.incomplete[e] / max(s.explored[e], 1):.1f}%)' for e in configs)}")
        if any("/" in c for c in configs):
            print("per configuration (programs explored, checks made, failing programs):")
            for c in configs:
                made = {check: n for (conf, check), n in s.checks_by.items() if conf == c}
                detail = ", ".join(f"{k} {v}" for k, v in sorted(made.items()))
                print(
                    f"    {c:16s} programs {s.explored[c]:6d}  checks {sum(made.values()):8d} ({detail})  "
                    f"failing {s.failing_by[c]}  incomplete {s.incomplete[c]}"
                )
        for e in configs:
            kinds = sorted(((n, k) for (engine, k), n in s.cut_kinds.items() if engine == e), reverse=True)
            if kinds:
                print(f"    {e} explorations with a cut of each kind: {', '.join(f'{k} {n}' for n, k in kinds)}")
        if s.concretized:
            top = ", ".join(f"{site} {n}" for site, n in s.concretized.most_common(12))
            print(f"    concretized cut paths by site (both engines): {top}")
        print(f"oracle timeouts:  {s.oracle_timeouts}   ill-formed CPython runs: {s.ill_formed}")
        print(f"comparisons cut:  {s.agree_cut} (engines' predictions not all compared within {AGREE_SECONDS:g} s)")
        print(f"unsupported:      {sum(s.unsupported.values())} ({s.one_sided_unsupported} programs for one engine only, the other incomplete)")
        for msg, n in s.unsupported.most_common():
            print(f"    {n:5d}  {msg}")
        if self.preexisting:
            print(f"kinds with a regression file already (not shrunk again): {', '.join(sorted(self.preexisting))}")
        print(f"failing programs: {s.failing_programs}")
        for sig, n in s.by_signature.most_common():
            print(f"    {n:5d}  {sig}")
            print(f"           e.g. {s.example[sig][:300]}")
            for path in s.saved.get(sig, []):
                print(f"           saved {path}")
        if s.slowest:
            print("slowest explorations: " + ", ".join(f"{e} {t:.2f}s" for t, e, _ in s.slowest))
        print("=" * 78, flush=True)


def _override(text: str) -> tuple[str, Any]:
    name, sep, value = text.partition("=")
    fields = {f.name: f for f in dataclasses.fields(Options)}
    if not sep or name not in fields:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE with NAME one of {sorted(fields)}")
    try:
        parsed = json.loads(value)
    except json.JSONDecodeError:
        parsed = value  # a bare string, e.g. strategy=bfs
    if isinstance(parsed, list):
        parsed = tuple(parsed)
    return name, parsed


def _tags(text: str) -> frozenset[str]:
    tags = frozenset(t.strip() for t in text.split(",") if t.strip())
    unknown = tags - FEATURES
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown feature tags {sorted(unknown)}")
    return tags


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.differential.fuzz", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=float, default=None, help="stop after this long (default 60 unless --programs)")
    p.add_argument("--programs", type=int, default=None, help="stop after this many programs")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--engines", default=",".join(ENGINES))
    p.add_argument("--samples", type=int, default=20, help="random inputs per program (default 20)")
    p.add_argument("--batch", type=int, default=2000, help="examples per Hypothesis run (default 2000)")
    p.add_argument("--max-functions", type=int, default=3)
    p.add_argument("--objects", action="store_true", help="only programs with input objects (class-typed parameters: progen_heap)")
    p.add_argument("--heaps", default=",".join(HEAPS), help=f"heap models each engine explores a program with input objects under (default {','.join(HEAPS)})")
    p.add_argument("--no-edges", action="store_true", help="leave out the real-module features (progen.EDGE_FEATURES)")
    p.add_argument(
        "--without",
        default=frozenset(),
        type=_tags,
        metavar="TAG,TAG",
        help="feature tags no program may have (progen.FEATURES), e.g. the construct of a known engine bug",
    )
    p.add_argument("--no-shrink", action="store_true", help="save failures unshrunk")
    p.add_argument("--no-save", action="store_true", help="do not write regression files")
    p.add_argument("--shrink-per-signature", type=int, default=1, help="failures shrunk and saved per kind (check:kind, any engine; default 1)")
    p.add_argument("--shrink-seconds", type=float, default=180.0, help="budget per shrink (default 180)")
    p.add_argument("--reduce-seconds", type=float, default=120.0, help="budget of the statement-level reducer after shrinking (0: off)")
    p.add_argument(
        "--set",
        action="append",
        default=[],
        type=_override,
        metavar="NAME=VALUE",
        help="override an Options field of harness.base_options(), e.g. --set max_iterations=2 (repeatable; saved in regression headers)",
    )
    p.add_argument("--seen", default=None, help="file of program digests checked by earlier runs: skip those, add ours")
    p.add_argument("--resave", action="store_true", help="shrink and save kinds that already have a regression file, too")
    p.add_argument("--out", default=str(REGRESSIONS), help="regression directory")
    p.add_argument("--log", default=None, help="append failures as JSON lines to this file")
    p.add_argument("--slow", type=float, default=5.0, help="log explorations slower than this many seconds (with --log)")
    p.add_argument("--progress", type=float, default=10.0, help="seconds between progress lines")
    args = p.parse_args(argv)
    if hasattr(faulthandler, "register"):  # `kill -USR1 <pid>` prints where the fuzzer is
        import signal

        faulthandler.register(signal.SIGUSR1, all_threads=True)
    if args.seconds is None and args.programs is None:
        args.seconds = 60.0
    unknown = {e.strip() for e in args.engines.split(",")} - set(ENGINES)
    if unknown:
        p.error(f"unknown engines {sorted(unknown)}")
    unknown = {h.strip() for h in args.heaps.split(",")} - set(HEAPS)
    if unknown:
        p.error(f"unknown heap models {sorted(unknown)}")
    return Fuzzer(args).run()


if __name__ == "__main__":
    sys.exit(main())
