"""The ``reach`` command: ``pathloom reach FILE::f --line N [--line M ...] [--asserts]``.

Exit codes (as for every command): 1 when a target that is an assert or a ``raise`` is
reachable (a bug, as ``check`` reports it); 0 otherwise, also when a target is ``unknown`` (a
time limit or a bound: the reason says which, as ``check`` exits 0 on an incomplete run); 2 a
usage error or an unsupported target; 3 an input that did not replay (an internal
inconsistency); 130 Ctrl-C. This module imports only ``argparse`` helpers at load time.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from pathloom.errors import UsageError
from pathloom.options import DEFAULT_TIMEOUT_S, Options, chosen_timeout


def add_parser(sub: Any, positive_float: Any, count: Any) -> None:
    p = sub.add_parser("reach", help="is a line (or an assert's failure) reachable? through loops, or proved unreachable")
    p.add_argument("target", help="FILE.py::function or FILE.py::Class.method")
    p.add_argument("--line", type=count(1), action="append", default=[], help="a target line (repeatable)")
    p.add_argument("--asserts", action="store_true", help="every assert and raise of the function is a target")
    p.add_argument(
        "--engine",
        default="auto",
        choices=["auto", "dse", "multise"],
        help="fallback engine where the chain technique does not apply (auto: multise for list/str inputs)",
    )
    p.add_argument("--no-chains", action="store_true", help="skip the chain technique: the fallback engine only")
    p.add_argument("--timeout", type=positive_float, default=None, help=f"seconds for each target (default {DEFAULT_TIMEOUT_S:g})")
    p.add_argument("--no-timeout", action="store_true", help="no time limit")
    p.add_argument("--solver-timeout", type=positive_float, default=10.0, help="seconds per solver query")
    p.add_argument("--max-iterations", type=count(1), default=10, help="fallback: loop iterations per loop per path")
    p.add_argument("--max-depth", type=count(1), default=32, help="call depth (recursion bound)")
    p.add_argument("--max-list-len", type=count(0), default=4, help="length bound of list inputs")
    p.add_argument("--max-str-len", type=count(0), default=6, help="length bound of str inputs")
    p.add_argument("--json", metavar="OUT.json", help="write the machine-readable result")
    p.add_argument("--verify", action="store_true", help="say how many reachable inputs were replayed in CPython")
    p.add_argument("--no-preconditions", action="store_true", help="the asserts that open the target are targets too")


def _options(args: argparse.Namespace) -> Options:
    timeout = chosen_timeout(args.timeout, args.no_timeout)
    return Options(
        timeout=timeout,
        solver_timeout_ms=max(1, int(args.solver_timeout * 1000)),
        max_iterations=args.max_iterations,
        max_depth=args.max_depth,
        max_list_len=args.max_list_len,
        max_str_len=args.max_str_len,
        preconditions=not args.no_preconditions,
    )


def reach_command(args: argparse.Namespace) -> int:
    from pathlib import Path

    from pathloom.api import resolve_target
    from pathloom.frontend.module import load_module
    from pathloom.navigation.reach import ReachOptions, reach_targets
    from pathloom.navigation.report import write_json, write_text
    from pathloom.navigation.targets import assert_targets, line_targets, statement_lines

    options = _options(args)
    options.validate()
    file, sep, name = args.target.partition("::")
    if not sep or not name:
        raise UsageError("usage error: reach needs FILE.py::function")
    if not args.line and not args.asserts:
        raise UsageError("usage error: reach needs --line N or --asserts")
    if args.json and Path(args.json).resolve() == Path(file).resolve():
        raise UsageError(f"--json {args.json}: would overwrite the analysed source file")
    module = load_module(file)
    qualname = resolve_target(module, name)
    function = module.function(qualname)
    targets = line_targets(function, args.line)
    if args.asserts:
        statements = statement_lines(module.function_defs[qualname]) if qualname in module.function_defs else set()
        targets += [t for t in assert_targets(function, statements, options.preconditions) if t not in targets]
    run = reach_targets(module, qualname, targets, options, ReachOptions(args.engine, not args.no_chains))
    label = f"{file}::{qualname}"
    write_text(sys.stdout, label, run.verdicts)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            write_json(out, label, run.verdicts)
    if run.mismatches:
        for line in run.mismatches:
            sys.stderr.write(f"pathloom: replay mismatch: {line}\n")
        return 3
    if args.verify:
        replayed = sum(1 for v in run.verdicts if v.verdict == "reachable")
        sys.stderr.write(f"pathloom: verified {replayed} input(s) in CPython: each reached its target\n")
    return 1 if any(v.verdict == "reachable" and v.target.is_bug for v in run.verdicts) else 0
