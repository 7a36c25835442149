"""The ``explore``, ``check`` and ``compare`` commands: arguments to a frozen ``Options``, the
library called on each target, every result handed to the reporters.

Invariant: every reporter sees ``start`` and ``finish`` of each target it was shown, and
``close`` once, whatever stops the run (Ctrl-C, an unsupported construct, an internal error),
so the JSON written always parses. A reported bug gives exit code 1 even when an unsupported
construct stopped a target later. ``pathloom.cli`` imports this module only once its Ctrl-C
handler is installed; the engines and Z3 are imported later still, when a target runs.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from pathloom.engine_stats import EngineStats
from pathloom import interrupt
from pathloom.engines.registry import engine_names
from pathloom.errors import EXIT_INTERRUPTED, Unsupported, UsageError, internal_error, worst_exit_code
from pathloom.options import DEFAULT_TIMEOUT_S, Options, chosen_timeout
from pathloom.report.registry import ReporterContext
from pathloom.report.registry import formats as output_formats
from pathloom.version import installed_version

DEFAULT_SEARCH_S = 5.0  # seconds of coverage-guided search per target with a gap (--search-timeout)
CUT_REPLAY_FLOOR_S = 2.0  # --tests: the cut paths' inputs are run in what is left of --timeout, at least this long
EXPLORE_SHARE = 0.7  # of a target's share of --file-timeout, to explore when tests are written (the rest: search)
MIN_SHARE_S = 0.5  # less time than this left: a target is not started, a search not run
DEFAULT_MAX_MEMORY_MB = 4096.0  # --jobs: a worker's resident memory past this is stopped

if TYPE_CHECKING:
    from pathloom.frontend.module import Module
    from pathloom.targets import Target
    from pathloom.report.base import Reporter
    from pathloom.results import Exploration


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"usage error: {message} (see 'pathloom --help')")


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive finite number, got {text!r}")
    return value


def _jobs(text: str) -> int:
    from pathloom.jobs import workers

    return workers(text)


def _count(minimum: int):  # type: ignore[no-untyped-def]
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value

    return parse


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="pathloom", description="Symbolic execution for type-annotated Python functions.")
    parser.add_argument("--version", action="version", version=f"pathloom {installed_version()}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name, help_text in (
        ("explore", "print every feasible path with its outcome and an input that drives it"),
        ("check", "report failed asserts and implicitly raised exceptions, with counterexamples"),
        ("compare", "run several engines on the same target side by side and check they agree"),
    ):
        p = sub.add_parser(name, help=help_text)
        if name == "compare":
            p.add_argument("target", help="FILE.py, FILE.py::function or FILE.py::Class.method")
        else:
            p.add_argument(
                "target",
                nargs="+",
                help="FILE.py, FILE.py::function, FILE.py::Class.method, a directory (its .py files, recursively), pkg.mod or pkg.mod::function",
            )
            p.add_argument(
                "--exclude", action="append", default=[], metavar="GLOB", help="leave out the files under a directory target that match (repeatable)"
            )
            p.add_argument("--jobs", type=_jobs, default=1, metavar="N", help="analyse the files of the run in N processes at once ('auto': one per core)")
            p.add_argument(
                "--no-cache", action="store_true", help="a run over several files: analyse every file again, not from .pathloom/cache.sqlite (nor store)"
            )
            p.add_argument(
                "--max-memory",
                type=_positive_float,
                default=DEFAULT_MAX_MEMORY_MB,
                metavar="MiB",
                help=f"--jobs: a process over this resident memory is stopped and reported (default {DEFAULT_MAX_MEMORY_MB:g})",
            )
        p.add_argument("--engine", default="dse", help=f"exploration engine ({', '.join(engine_names())})")
        if name == "compare":
            p.add_argument("--engines", default=None, help="comma-separated engines to compare (default dse,multise)")
            p.add_argument("--heaps", default=None, help="comma-separated heap models to compare (lazy,lazier,pose) on --engine")
        if name == "check":
            p.add_argument(
                "--target-heuristic",
                choices=["h1", "h2"],
                default=None,
                help="compose: error paths of callees' trees first (h1), or only them (h2: the rest pruned)",
            )
        p.add_argument(
            "--strategy",
            default=None,
            choices=["dfs", "bfs", "random", "coverage", "topo"],
            help="search order (dse default dfs; multise default topo: reverse post-order)",
        )
        p.add_argument("--no-compaction", action="store_true", help="multise: never join values or merge states")
        p.add_argument("--seed", type=int, default=0, help="seed of --strategy random and of the search in CPython")
        p.add_argument("--timeout", type=_positive_float, default=None, help=f"seconds for each target (default {DEFAULT_TIMEOUT_S:g})")
        p.add_argument("--no-timeout", action="store_true", help="no time limit (an infinite loop runs forever)")
        p.add_argument("--solver-timeout", type=_positive_float, default=10.0, help="seconds per solver query")
        p.add_argument("--max-iterations", type=_count(1), default=10, help="loop iterations per loop per path")
        p.add_argument("--max-depth", type=_count(1), default=32, help="call depth (recursion bound)")
        p.add_argument("--max-list-len", type=_count(0), default=4, help="length bound of list inputs")
        p.add_argument("--max-str-len", type=_count(0), default=6, help="length bound of str inputs")
        p.add_argument("--max-dict-len", type=_count(0), default=4, help="entries bound of dict inputs")
        p.add_argument("--max-paths", type=_count(1), default=None, help="stop after this many paths")
        p.add_argument("--max-concretizations", type=_count(1), default=4, help="values per operation run in CPython on a path (more: a 'concretized' cut)")
        p.add_argument(
            "--heap",
            default="pose",
            choices=["pose", "lazier", "lazy"],
            help="input objects: pose (path-optimal, default), lazier (lazier#), lazy (lazy initialization)",
        )
        p.add_argument("--max-objects", type=_count(1), default=16, help="input objects per class a path may assume distinct (more: a reported cut)")
        p.add_argument(
            "--receiver",
            default="constructor",
            choices=["constructor", "object"],
            help="self of a method target: built by its constructor (default) or an input object",
        )
        for fmt in output_formats():
            if fmt.flag is not None:
                p.add_argument(fmt.flag, metavar=fmt.metavar, help=fmt.help)
        p.add_argument(
            "--all-paths", action="store_true", help="--tests: one test per path (default: a minimal suite covering the same outcomes, lines and branches)"
        )
        p.add_argument("--raises-for-bugs", action="store_true", help="--tests: a bug's test expects its exception (default: a strict xfail, 'possible bug')")
        p.add_argument(
            "--file-timeout",
            type=_positive_float,
            default=None,
            metavar="S",
            help="seconds for all the targets of the file, shared fairly (each gets what is left over the targets left; --timeout still bounds each)",
        )
        p.add_argument(
            "--search-timeout",
            type=float,
            default=DEFAULT_SEARCH_S,
            metavar="S",
            help=f"--tests: seconds of coverage-guided search in CPython where the paths left a gap (default {DEFAULT_SEARCH_S:g}; 0: none)",
        )
        p.add_argument("--verify", action="store_true", help="replay every input in CPython and compare")
        p.add_argument("--no-preconditions", action="store_true", help="the asserts that open the target are bugs too (default: preconditions)")
        p.add_argument("--quiet", action="store_true", help="no per-path lines on stdout")
        p.add_argument("--store", metavar="PATH", default=None, help="compose: the summary store (default .pathloom/summaries.sqlite beside the project)")
        p.add_argument("--no-store", action="store_true", help="compose: neither read nor write a summary store")
    s = sub.add_parser("summaries", help="list or clear the compose engine's summary store")
    s.add_argument("action", choices=["list", "clear"])
    s.add_argument("--store", metavar="PATH", default=None, help="the store (default .pathloom/summaries.sqlite of the project of the current directory)")
    from pathloom.diff import add_parser as add_diff_parser
    from pathloom.navigation.command import add_parser as add_reach_parser

    add_reach_parser(sub, _positive_float, _count)
    add_diff_parser(sub)
    return parser


def _options(args: argparse.Namespace) -> Options:
    timeout = chosen_timeout(args.timeout, args.no_timeout)
    return Options(
        store=_store_path(args),
        target_heuristic=getattr(args, "target_heuristic", None),
        engine=args.engine,
        strategy=args.strategy,
        compaction=not args.no_compaction,
        seed=args.seed,
        timeout=timeout,
        solver_timeout_ms=max(1, int(args.solver_timeout * 1000)),
        max_iterations=args.max_iterations,
        max_depth=args.max_depth,
        max_list_len=args.max_list_len,
        max_str_len=args.max_str_len,
        max_paths=args.max_paths,
        max_dict_len=args.max_dict_len,
        max_concretizations=args.max_concretizations,
        preconditions=not args.no_preconditions,
        heap=args.heap,
        max_objects=args.max_objects,
        receiver=args.receiver,
    )


def _store_path(args: argparse.Namespace) -> str | None:
    if args.no_store and args.store is not None:
        raise UsageError("usage error: --store and --no-store together")
    if args.no_store:
        return None
    if args.store is not None:
        return str(args.store)
    from pathloom.engines.compose.location import default_store_path

    first = args.target if isinstance(args.target, str) else args.target[0]  # compare's one target, or the first of several
    return str(default_store_path(first.partition("::")[0]))


class _Progress:
    """Progress on stderr (only when it is a terminal)."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.shown = False

    def __call__(self, stats: EngineStats) -> None:
        sys.stderr.write(f"\r{self.label}: {stats.paths} paths, branches {stats.branches_covered}/{stats.branches_total}, {stats.time_s:.1f}s ")
        sys.stderr.flush()
        self.shown = True

    def done(self) -> None:
        if self.shown:
            sys.stderr.write("\r" + " " * 79 + "\r")
            self.shown = False


# ---------------------------------------------------------------- output files


def _check_outputs(args: argparse.Namespace, sources: Sequence[str], several: bool = False) -> None:
    """Refuse outputs that cannot be written, or that would overwrite a source file: an
    analysed file, or any existing Python file that pathloom did not generate. ``several``
    files: a file format's output (``--tests``) is a directory, made if missing."""
    from pathloom.report.pytest_gen import is_generated

    analysed = {Path(source).resolve() for source in sources}
    folders = {f.flag for f in output_formats() if several and not f.streaming and f.per_file}
    outputs = [(f.flag, getattr(args, f.dest)) for f in output_formats() if f.flag is not None and getattr(args, f.dest)]
    for flag, path in outputs:
        target = Path(path)
        if flag in folders:
            if target.exists() and not target.is_dir():
                raise UsageError(f"{flag} {path}: with several files, {flag} names a directory (one test file per analysed file)")
            target.mkdir(parents=True, exist_ok=True)
            continue
        if target.is_dir():
            raise UsageError(f"{flag} {path}: is a directory")
        if not target.resolve().parent.is_dir():
            raise UsageError(f"{flag} {path}: no such directory {str(target.parent)!r}")
        resolved = target.resolve()
        if resolved in analysed:
            raise UsageError(f"{flag} {path}: would overwrite the analysed source file")
        if resolved.suffix in (".py", ".pyw", ".pyi") and resolved.is_file() and not is_generated(resolved):
            raise UsageError(f"{flag} {path}: would overwrite a Python source file that pathloom did not generate")
    for i, (flag, path) in enumerate(outputs):
        for other_flag, other in outputs[i + 1 :]:
            if Path(path).resolve() == Path(other).resolve():
                raise UsageError(f"{flag} and {other_flag} name the same file {path}")


# ---------------------------------------------------------------- explore and check


class _Session:
    """One file of an ``explore`` or ``check`` command: its targets in turn, each reported
    whatever stops it. ``names``: the functions to analyse (None: all of the file's);
    ``reporters``: the streaming reporters of a run over several files, which the run closes;
    ``outputs``: where each file format writes (by its dest; default: the command line's)."""

    def __init__(
        self,
        args: argparse.Namespace,
        options: Options,
        file: str,
        names: Sequence[str] | None,
        reporters: list[Reporter] | None = None,
        outputs: dict[str, str] | None = None,
    ) -> None:
        self.args = args
        self.options = options
        self.file, self.names = file, names
        # the one target named (not in a run over several files): its refusal stops the run
        self.name = names[0] if names is not None and len(names) == 1 and reporters is None else None
        self.shared = reporters is not None
        self.reporters: list[Reporter] | None = reporters
        self.outputs = outputs
        self.explorations: list[Exploration] = []  # every target shown to the reporters
        self.unsupported = 0  # targets skipped or stopped by an unsupported construct
        self.interrupted = False
        self.mismatches: list[str] = []
        self.target_options = options  # this target's: its share of --file-timeout, if given
        self.slot_end: float | None = None  # when this target's share of --file-timeout ends

    def run(self) -> int:
        try:
            try:
                self._run_targets()
            except KeyboardInterrupt:
                self.interrupted = True
            if self.interrupted and not self.explorations:
                self._show(self._placeholder(self.file if self.name is None else f"{self.file}::{self.name}"))
        finally:
            if not self.shared:
                with interrupt.deferred():
                    for r in self.reporters or ():
                        r.close()
        with interrupt.deferred():
            self.interrupted = self.interrupted or interrupt.requested()
            for fmt in output_formats():
                out = self._output(fmt.dest) if fmt.flag is not None else None
                if not fmt.streaming and out and self.explorations and (fmt.per_file or not self.shared):
                    options = {name: getattr(self.args, name) for name in fmt.options}
                    Path(out).write_text(fmt.load()(self.explorations, self.file, out, **options), encoding="utf-8")
        return self._exit_code()

    def _output(self, dest: str) -> str | None:
        if self.outputs is not None:
            return self.outputs.get(dest)
        return getattr(self.args, dest)  # type: ignore[no-any-return]

    def _exit_code(self) -> int:
        if self.interrupted:
            sys.stderr.write("pathloom: interrupted (what was found is reported, marked incomplete)\n")
            return EXIT_INTERRUPTED
        if self.mismatches:
            for line in self.mismatches:
                sys.stderr.write(f"pathloom: replay mismatch: {line}\n")
            return 3
        if self.args.verify:
            checked = sum(1 for e in self.explorations for p in e.paths if p.outcome in ("return", "raise"))
            sys.stderr.write(f"pathloom: verified {checked} input(s) in CPython: all outcomes as predicted\n")
        if any(e.bug_count for e in self.explorations):
            return 1
        if self.unsupported:
            return Unsupported.exit_code  # some target was skipped or stopped (each has its one-line note)
        return 0

    def _open_reporters(self) -> list[Reporter]:
        if self.reporters is None:
            reporters: list[Reporter] = []
            for fmt in output_formats():
                out = getattr(self.args, fmt.dest) if fmt.flag is not None else None
                if fmt.streaming and (fmt.flag is None or out):
                    context = ReporterContext(out, many=self.name is None, bugs_only=self.args.command == "check" or self.args.quiet)
                    reporters.append(fmt.load()(context))
            self.reporters = reporters
        return self.reporters

    def _placeholder(self, target: str) -> Exploration:
        from pathloom.results import Exploration

        placeholder = Exploration(target, self.options.engine)
        placeholder.stop("interrupted", "interrupted")
        return placeholder

    def _show(self, exploration: Exploration) -> None:
        """A target that never started (interrupted first): its start and finish at once."""
        with interrupt.deferred():
            for r in self._open_reporters():
                r.start(exploration)
                r.finish(exploration)
        self.explorations.append(exploration)

    def _run_targets(self) -> None:
        with interrupt.deferred():
            from pathloom.frontend.module import load_module
        interrupt.raise_if_requested()
        module = load_module(self.file)
        names = list(self.names) if self.names is not None else module.targets()
        if not names and self.shared:  # one file among several (an __init__.py, constants): nothing to do
            return
        if not names:
            raise UsageError(f"{self.file}: no functions to analyze")
        self._open_reporters()
        budget_end = None if self.args.file_timeout is None else time.monotonic() + self.args.file_timeout
        for done, target in enumerate(names):
            if budget_end is not None and not self._share(budget_end, len(names) - done, target):
                continue
            self._run_target(module, target)
            if self.interrupted:
                break

    def _share(self, budget_end: float, targets_left: int, target: str) -> bool:
        """Give ``target`` its fair share of what is left of ``--file-timeout`` (what a target
        before did not use goes to the ones after): ``EXPLORE_SHARE`` of it to explore when tests
        are written (the rest to search), all of it otherwise, never more than ``--timeout``.
        False (the target reported as not explored) when nothing is left."""
        from pathloom.results import Exploration

        left = budget_end - time.monotonic()
        if left < MIN_SHARE_S:
            skipped = Exploration(f"{self.file}::{target}", self.options.engine)
            skipped.complete, skipped.error = False, f"the --file-timeout of {self.args.file_timeout:g} s was spent"
            self._show(skipped)
            return False
        slot = left / targets_left
        self.slot_end = time.monotonic() + slot
        explore = slot * EXPLORE_SHARE if self.args.tests and self.args.search_timeout > 0 else slot
        limit = self.options.timeout
        self.target_options = replace(self.options, timeout=explore if limit is None else min(limit, explore))
        return True

    def _run_target(self, module: Module, target: str) -> None:
        started = time.monotonic()
        progress = _Progress(f"{self.file}::{target}") if sys.stderr.isatty() else None
        try:
            with interrupt.deferred():  # the engine's imports and its Z3 objects are built whole
                from pathloom.api import Run

                run = Run(
                    module,
                    target,
                    self.target_options,
                    progress,
                    keep_paths=self.args.verify or any(f.keeps_paths and f.flag is not None and getattr(self.args, f.dest) for f in output_formats()),
                )
            interrupt.raise_if_requested()
        except Unsupported as exc:
            from pathloom.results import Exploration

            skipped = Exploration(f"{self.file}::{target}", self.options.engine)
            skipped.stop("unsupported", exc.one_line())
            self._show(skipped)  # every target has its entry in every report
            if self.name is not None:
                raise
            sys.stderr.write(f"{exc.one_line()} (target {target} skipped)\n")
            self.unsupported += 1
            if self._writes_tests():
                try:
                    self._search(skipped, target)  # no symbolic path: the search alone gives its tests
                except KeyboardInterrupt:
                    self.interrupted = True
            return
        except KeyboardInterrupt:
            self.interrupted = True
            self._show(self._placeholder(f"{self.file}::{target}"))
            return
        exploration = run.exploration
        reporters = self._open_reporters()
        try:
            with interrupt.deferred():
                self.explorations.append(exploration)
                for r in reporters:
                    r.start(exploration)
            for result in run.results():
                with interrupt.deferred():
                    if progress is not None:
                        progress.done()
                    for r in reporters:
                        r.path(exploration, result)
        except KeyboardInterrupt:
            self.interrupted = True
        except Unsupported as exc:
            self.unsupported += 1
            exploration.stop("unsupported", exc.one_line())
            note = "" if self.name is not None else f" (target {target} stopped; the paths found so far are reported)"
            sys.stderr.write(f"{exc.one_line()}{note}\n")
        except BaseException as exc:
            if isinstance(exc, Exception) and interrupt.requested():
                self.interrupted = True  # raised by what Ctrl-C left half done: not a crash
            else:
                exploration.stop("internal error", internal_error(exc))
                raise
        finally:
            self._finish(run, progress)
        if self.args.verify and not self.interrupted:
            self.mismatches += _verify(exploration, self.file, run.target)
        if not self.interrupted and self._writes_tests():
            from pathloom.replay import observe_for_tests

            try:
                timeout = self.target_options.timeout
                left = None if timeout is None else max(CUT_REPLAY_FLOOR_S, started + timeout - time.monotonic())
                observe_for_tests(exploration, self.file, run.target, cut_budget_s=left)
                self._search(exploration, run.target)
                self._drop_hash_dependent(exploration, run.target, started)
            except KeyboardInterrupt:
                self.interrupted = True
        if not self.interrupted and exploration.distinct_bugs and self._traces_bugs():
            from pathloom.replay import trace_bugs

            try:
                trace_bugs(exploration, self.file, run.target)
            except KeyboardInterrupt:
                self.interrupted = True

    def _drop_hash_dependent(self, exploration: Exploration, target: str, started: float) -> None:
        """Leave out of the tests the inputs whose answer in CPython follows the str hash salt."""
        from pathloom.replay import drop_hash_dependent

        timeout = self.target_options.timeout
        left = None if timeout is None else max(CUT_REPLAY_FLOOR_S, started + timeout - time.monotonic())
        dropped = drop_hash_dependent(exploration, self.file, target, budget_s=left)
        if dropped and not self.args.quiet:
            print(f"  left out of the tests: {dropped} input(s) whose outcome in CPython changes with the str hash salt (PYTHONHASHSEED)")

    def _traces_bugs(self) -> bool:
        """Whether an output needs the lines CPython runs on each bug's input (SARIF)."""
        return any(f.traces_bugs and f.flag is not None and getattr(self.args, f.dest) for f in output_formats())

    def _writes_tests(self) -> bool:
        """Whether an output needs what CPython does on the inputs (the pytest file)."""
        return any(f.observes_paths and f.flag is not None and getattr(self.args, f.dest) for f in output_formats())

    def _search(self, exploration: Exploration, target: str) -> None:
        """The coverage-guided search in CPython, where the paths left a gap (``search.driver``)."""
        from pathloom.search.driver import has_gap, run_search

        budget = self.args.search_timeout
        if self.slot_end is not None and budget > 0:
            budget = self.slot_end - time.monotonic()  # the rest of this target's share of --file-timeout
        if budget < MIN_SHARE_S or not has_gap(exploration):
            return
        report = run_search(exploration, self.file, target, budget, self.args.seed)
        if self.args.quiet:
            return
        if report.skipped is not None:
            print(f"  search in CPython: not run ({report.skipped})")
        else:
            print(f"  search in CPython ({budget:g} s): {report.runs} inputs run, {report.confirmed} kept (new lines, branches or outcomes)")

    def _finish(self, run: object, progress: _Progress | None) -> None:
        from pathloom.api import Run

        assert isinstance(run, Run)
        if self.args.command == "check" and not self.interrupted and run.exploration.stopped_by != "internal error":
            try:
                self._confirm(run.exploration, run.target)
            except KeyboardInterrupt:
                self.interrupted = True
        with interrupt.deferred():
            exploration = run.exploration
            self.interrupted = self.interrupted or interrupt.requested()  # also when the engine stopped on the flag
            if self.interrupted and exploration.error is None:
                exploration.stop("interrupted", "interrupted")
            if exploration.error is not None:
                exploration.complete = False
                stats = exploration.stats = run.engine.stats()
                if self.interrupted:  # a path the engine counted as Ctrl-C stopped it never arrived
                    stats.paths = min(stats.paths, run.received)
            if progress is not None:
                progress.done()
            for r in self.reporters or ():
                r.finish(exploration)

    def _confirm(self, exploration: Exploration, target: str) -> None:
        """``check`` reports only bugs CPython confirms: each distinct bug's input is replayed
        first; one CPython contradicts is taken back and is an internal inconsistency (exit
        3, with its input); one CPython gives no answer for in time is reported, so marked."""
        from pathloom.replay import REPLAY_TIMEOUT_S, confirm_bugs, shown

        contradicted, unanswered = confirm_bugs(exploration, self.file, target)
        for bug, why in contradicted:
            exploration.drop_bug(bug)
            self.mismatches.append(f"{exploration.target}: bug not confirmed, taken back: {why} (inputs {shown(bug.inputs)})")
        for bug in unanswered:
            sys.stderr.write(
                f"pathloom: {exploration.target}: the bug at line {bug.line} is not confirmed: CPython gave no answer "
                f"for its input within {REPLAY_TIMEOUT_S:g} s\n"
            )


def _verify(exploration: Exploration, file: str, target: str) -> list[str]:
    from pathloom.replay import shown, verify

    return [f"{exploration.target}: {why} (inputs {shown(path.inputs)})" for path, why in verify(exploration, file, target)]


def _run_files(args: argparse.Namespace, options: Options, targets: list[Target]) -> int:
    """A run over several files (or several functions of one): one ``_Session`` per file, the
    streaming reporters shared (one JSON list), each file's pytest file in the ``--tests``
    directory; a file that cannot be loaded is reported and skipped. The exit code is the
    worst of the files' (130, 3, 1, 2, 0 in that order); a last line counts the targets."""
    from pathloom.results import Exploration

    files = [t.file for t in targets]
    _check_outputs(args, files, several=True)
    reporters: list[Reporter] = []
    for fmt in output_formats():
        out = getattr(args, fmt.dest) if fmt.flag is not None else None
        if fmt.streaming and (fmt.flag is None or out):
            reporters.append(fmt.load()(ReporterContext(out, many=True, bugs_only=args.command == "check" or args.quiet)))
    test_files = _test_file_names(files)
    codes: list[int] = []
    explorations: list[Exploration] = []
    try:
        for target in targets:
            outputs = {
                f.dest: str(Path(getattr(args, f.dest)) / test_files[target.file])
                for f in output_formats()
                if not f.streaming and f.per_file and getattr(args, f.dest)
            }
            session = _Session(args, options, target.file, target.names, reporters, outputs)
            try:
                codes.append(session.run())
            except UsageError as exc:  # the file does not load: reported, the others go on
                sys.stderr.write(f"{exc} (file skipped)\n")
                failed = Exploration(target.file, options.engine)
                failed.stop("unsupported", str(exc))
                session._show(failed)
                codes.append(UsageError.exit_code)
            explorations += session.explorations
            if session.interrupted:
                break
    finally:
        with interrupt.deferred():
            for r in reporters:
                r.close()
    with interrupt.deferred():
        for fmt in output_formats():  # the formats written once for the whole run (SARIF)
            out = getattr(args, fmt.dest) if fmt.flag is not None else None
            if not fmt.streaming and not fmt.per_file and out:
                chosen = {name: getattr(args, name) for name in fmt.options}
                Path(out).write_text(fmt.load()(explorations, files[0], out, **chosen), encoding="utf-8")
    _count_line(len(targets), explorations)
    return worst_exit_code(codes)


def _count_line(files: int, explorations: Sequence[Exploration]) -> None:
    """The run's last line: how many targets were explored, skipped and failed."""
    from pathloom.jobs import count_line

    print(count_line(files, [e.status for e in explorations]))


def _test_file_names(files: Sequence[str]) -> dict[str, str]:
    """Each file's pytest file name in the ``--tests`` directory: ``test_pkg_mod.py`` for a
    module of a package, ``test_stem.py`` otherwise, ``_2``, ``_3`` after a name taken."""
    from pathloom.frontend.realmodule import import_plan

    names: dict[str, str] = {}
    taken: set[str] = set()
    for file in files:
        _, module, in_package = import_plan(file)
        base = "test_" + (module.replace(".", "_") if in_package else "".join(c if c.isalnum() or c == "_" else "_" for c in Path(file).stem))
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base}_{n}"
        taken.add(name)
        names[file] = name + ".py"
    return names


def _parse_with_config(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """The arguments, with ``[tool.pathloom]`` of the nearest pyproject.toml as defaults (``config``)."""
    from pathloom.config import apply, nearest_pyproject, read_table

    found = nearest_pyproject()
    table = read_table(found) if found is not None else {}
    return apply(parser, argv, table, found) if found is not None else parser.parse_args(argv)


def run_command(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    if not (sys.argv[1:] if argv is None else argv):  # bare `pathloom`: what it can do
        parser.print_help()
        return 0
    args = _parse_with_config(parser, sys.argv[1:] if argv is None else list(argv))
    if args.command == "summaries":
        from pathloom.engines.compose.summaries_command import summaries_command

        return summaries_command(args.action, args.store)
    if args.command == "diff":
        from pathloom.diff import diff_command

        return diff_command(args)
    if args.command == "reach":
        from pathloom.navigation.command import reach_command

        return reach_command(args)
    options = _options(args)
    if args.command == "compare":
        from pathloom.compare import compare_command

        return compare_command(args, options)
    options.validate()
    from pathloom.targets import resolve

    targets = resolve(args.target, args.exclude)
    if len(targets) == 1:  # one file, or one function: its report as ever (a whole file's with the count line)
        _check_outputs(args, [targets[0].file])
        session = _Session(args, options, targets[0].file, targets[0].names)
        code = session.run()
        in_pool = bool(os.environ.get("PATHLOOM_IN_POOL"))  # a --jobs child: the parent counts (jobs.IN_POOL)
        if session.name is None and session.explorations and not session.interrupted and not in_pool:
            _count_line(1, session.explorations)
        return code
    if args.jobs > 1 or not args.no_cache:  # child processes: the files' results cached (pathloom.cache)
        from pathloom.config import subparsers
        from pathloom.jobs import run_pool

        files = [t.file for t in targets]
        _check_outputs(args, files, several=True)
        test_files = {f: str(Path(args.tests) / name) for f, name in _test_file_names(files).items()} if args.tests else {}
        return run_pool(args, subparsers(parser)[args.command], [(t.file, t.names) for t in targets], test_files, args.jobs, args.max_memory)
    return _run_files(args, options, targets)
