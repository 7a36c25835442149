"""Command line: turn arguments into ``Options``, call the library, hand results to reporters.

Exit codes, for every command: 0 no bug found, 1 bug found (a failed assert or an exception
the code raised implicitly), 2 usage error or unsupported program (one line on stderr),
3 internal inconsistency (a replay mismatch, or a crash of pathloom itself).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Sequence

from pathloom import interrupt
from pathloom.api import Run
from pathloom.engines.registry import engine_names
from pathloom.errors import EngineBug, PathloomError, Unsupported, UsageError
from pathloom.frontend.module import Module, load_module
from pathloom.options import Options
from pathloom.report.base import Reporter
from pathloom.report.json_report import JsonReporter
from pathloom.report.text import TextReporter
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
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name, help_text in (
        ("explore", "print every feasible path with its outcome and an input that drives it"),
        ("check", "report failed asserts and implicitly raised exceptions, with counterexamples"),
        ("compare", "run several engines on the same target side by side and check they agree"),
    ):
        p = sub.add_parser(name, help=help_text)
        p.add_argument("target", help="FILE.py, FILE.py::function or FILE.py::Class.method")
        p.add_argument("--engine", default="dse", help=f"exploration engine ({', '.join(engine_names())})")
        if name == "compare":
            p.add_argument("--engines", default="dse,multise", help="comma-separated engines to compare")
        p.add_argument("--strategy", default=None, choices=["dfs", "bfs", "random", "coverage", "topo"],
                       help="search order (dse default dfs; multise default topo: reverse post-order)")
        p.add_argument("--no-compaction", action="store_true", help="multise: never join values or merge states")
        p.add_argument("--seed", type=int, default=0, help="seed of --strategy random")
        p.add_argument("--timeout", type=_positive_float, default=None, help="seconds for each target")
        p.add_argument("--solver-timeout", type=_positive_float, default=10.0, help="seconds per solver query")
        p.add_argument("--max-iterations", type=_count(1), default=10, help="loop iterations per loop per path")
        p.add_argument("--max-depth", type=_count(1), default=32, help="call depth (recursion bound)")
        p.add_argument("--max-list-len", type=_count(0), default=4, help="length bound of list inputs")
        p.add_argument("--max-str-len", type=_count(0), default=6, help="length bound of str inputs")
        p.add_argument("--max-paths", type=_count(1), default=None, help="stop after this many paths")
        p.add_argument("--json", metavar="OUT.json", help="write the machine-readable result")
        p.add_argument("--tests", metavar="OUT.py", help="write a pytest file, one test per path")
        p.add_argument("--verify", action="store_true", help="replay every input in CPython and compare")
        p.add_argument("--quiet", action="store_true", help="no per-path lines on stdout")
    return parser


def _split_target(text: str) -> tuple[str, str | None]:
    if "::" in text:
        file, name = text.split("::", 1)
        return file, name
    return text, None


def _options(args: argparse.Namespace) -> Options:
    return Options(
        engine=args.engine, strategy=args.strategy, compaction=not args.no_compaction, seed=args.seed, timeout=args.timeout,
        solver_timeout_ms=max(1, int(args.solver_timeout * 1000)), max_iterations=args.max_iterations,
        max_depth=args.max_depth, max_list_len=args.max_list_len, max_str_len=args.max_str_len, max_paths=args.max_paths,
    )


class _Progress:
    """Progress on stderr (only when it is a terminal)."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.shown = False

    def __call__(self, stats: dict[str, object]) -> None:
        total = stats.get("branches_total") or 0
        covered = stats.get("branches_covered") or 0
        sys.stderr.write(
            f"\r{self.label}: {stats['paths']} paths, branches {covered}/{total}, {float(stats['time_s']):.1f}s "  # type: ignore[arg-type]
        )
        sys.stderr.flush()
        self.shown = True

    def done(self) -> None:
        if self.shown:
            sys.stderr.write("\r" + " " * 79 + "\r")


def run_command(args: argparse.Namespace) -> int:
    if args.command == "compare":
        from pathloom.compare import compare_command

        return compare_command(args, _options(args))
    options = _options(args)
    options.validate()
    file, name = _split_target(args.target)
    module = load_module(file)
    names = [name] if name is not None else module.targets()
    if not names:
        raise UsageError(f"{file}: no functions to analyze")
    reporters: list[Reporter] = [TextReporter(sys.stdout, bugs_only=args.command == "check" or args.quiet)]
    if args.tests:
        _check_writable(args.tests, "--tests")
    if args.json:
        _check_writable(args.json, "--json")
        reporters.append(JsonReporter(open(args.json, "w", encoding="utf-8"), many=name is None))
    with interrupt.installed():
        return _explore_targets(args, file, name, names, module, options, reporters)


def _explore_targets(args: argparse.Namespace, file: str, name: str | None, names: list[str], module: Module,
                     options: Options, reporters: list[Reporter]) -> int:
    explorations: list[Exploration] = []
    mismatches: list[str] = []
    interrupted = False
    skipped = 0
    try:
        for target in names:
            show_progress = sys.stderr.isatty()
            progress = _Progress(f"{file}::{target}") if show_progress else None
            try:
                run = Run(module, target, options, progress, keep_paths=bool(args.tests or args.verify))
            except Unsupported as exc:
                if name is not None:
                    raise
                sys.stderr.write(f"{exc.one_line()} (target {target} skipped)\n")
                skipped += 1
                continue
            for r in reporters:
                r.start(run.exploration)
            try:
                for result in run.results():
                    if progress is not None:
                        progress.done()
                    for r in reporters:
                        r.path(run.exploration, result)
            except Unsupported as exc:
                if name is not None:
                    raise
                if progress is not None:
                    progress.done()
                sys.stderr.write(f"{exc.one_line()} (target {target} skipped)\n")
                skipped += 1
                run.exploration.complete = False
                run.exploration.stats = run.engine.stats()
                for r in reporters:
                    r.finish(run.exploration)
                continue
            except KeyboardInterrupt:
                interrupted = True
                run.exploration.complete = False
                run.exploration.stats = run.engine.stats()
            interrupted = interrupted or interrupt.requested()  # also when the engine stopped on the flag
            if progress is not None:
                progress.done()
            for r in reporters:
                r.finish(run.exploration)
            explorations.append(run.exploration)
            if args.verify and not interrupted:
                mismatches += _verify(run.exploration, file, run.target)
            if interrupted:
                break
    finally:
        for r in reporters:
            r.close()
    if skipped and not explorations:
        return 2  # every target was unsupported (each has its one-line note)
    if args.tests:
        from pathloom.report.pytest_gen import generate

        Path(args.tests).write_text(generate(explorations, file, args.tests), encoding="utf-8")
    if mismatches:
        for line in mismatches:
            sys.stderr.write(f"pathloom: replay mismatch: {line}\n")
        return 3
    if args.verify:
        checked = sum(1 for e in explorations for p in e.paths if p.outcome in ("return", "raise"))
        sys.stderr.write(f"pathloom: verified {checked} input(s) in CPython: all outcomes as predicted\n")
    return 1 if any(e.bug_count for e in explorations) else 0


def _check_writable(path: str, flag: str) -> None:
    target = Path(path)
    if target.is_dir():
        raise UsageError(f"{flag} {path}: is a directory")
    if not target.resolve().parent.is_dir():
        raise UsageError(f"{flag} {path}: no such directory {str(target.parent)!r}")


def _verify(exploration: Exploration, file: str, target: str) -> list[str]:
    from pathloom.replay import verify

    return [f"{exploration.target}: {why} (inputs {path.inputs})" for path, why in verify(exploration, file, target)]


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return run_command(args)
    except PathloomError as exc:
        sys.stderr.write(exc.one_line() + "\n")
        return exc.exit_code
    except RecursionError:
        sys.stderr.write("pathloom: internal error: recursion too deep in the analyzer\n")
        return 3
    except Exception as exc:  # noqa: BLE001 - a crash must still be one line and exit 3
        sys.stderr.write(f"pathloom: internal error: {type(exc).__name__}: {exc}\n")
        return EngineBug.exit_code


if __name__ == "__main__":
    sys.exit(main())
