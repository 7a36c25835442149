"""``--jobs N``: the files of a run analysed by a pool of child processes.

Each analysed file is one task: a child ``python -m pathloom <command> FILE[::name ...]`` with
the run's options, its own JSON file and, with ``--tests``, its pytest file in the ``--tests``
directory (one task per file rather than per target, so that a module is imported once per
task and its tests stay one file). At most N children run at once; each child's stdout and
stderr are printed whole, in the order the files were given, as soon as every file before it
has been printed, so the output is the same whatever order the children finish in. The
parent merges the children's JSON into one list. A child whose resident memory passes
``--max-memory`` MiB, or that runs past its time limit (what its targets' ``--timeout`` and
search allow, plus a margin), is killed; its file is reported as stopped, with why, and the
others go on. Ctrl-C stops every child and the run reports what finished (exit 130).

Invariant: every file given is either reported from its child's output or reported as
stopped; the exit code is the worst of the files' (130, 3, 1, 2, 0 in that order), a
stopped file counting as not analysed (2).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pathloom.cache import ResultCache, Stored, cache_path
from pathloom.cache import key as cache_key
from pathloom.errors import EXIT_INTERRUPTED, worst_exit_code

POLL_S = 0.1  # how often the children's memory and time are looked at
MARGIN_S = 60.0  # a child's time limit beyond what its targets' budgets add up to
DEFAULT_TARGET_S = 60.0  # a target's budget when --timeout is not given (options.DEFAULT_TIMEOUT_S)
IN_POOL = "PATHLOOM_IN_POOL"  # set in a child's environment: the parent prints the run's count line
NOT_PASSED = frozenset({"command", "target", "exclude", "jobs", "json", "tests", "sarif", "no_cache"})  # the parent's own


@dataclass
class Task:
    """One file's child: its arguments, where it writes, and what it gave back."""

    label: str  # the file (or file::name ...) as shown
    argv: list[str]
    json_path: str
    limit_s: float
    process: subprocess.Popen[bytes] | None = None
    started: float = 0.0
    stopped: str | None = None  # why the parent killed it
    out_path: str = ""
    err_path: str = ""
    code: int | None = None
    entries: list[Any] = field(default_factory=list)
    key: str | None = None  # its result's key in the cache (None: no cache)
    tests_path: str | None = None
    cached: bool = False  # served from the cache, never started


def workers(text: str) -> int:
    """``--jobs``: a count of at least 1, or ``auto`` (the machine's cores)."""
    if text == "auto":
        return max(1, os.cpu_count() or 1)
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number or 'auto', got {text!r}") from None
    if count < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {count}")
    return count


def passed_options(args: argparse.Namespace, parser: argparse.ArgumentParser) -> list[str]:
    """The run's options as a child's command line: every option with a value (a true flag,
    an option not None), so that the child's own configuration file cannot change them."""
    argv: list[str] = []
    for action in parser._actions:
        dest = action.dest
        if dest in NOT_PASSED or not action.option_strings or dest == "help":
            continue
        value = getattr(args, dest, None)
        flag = action.option_strings[-1]
        if isinstance(action, argparse._StoreTrueAction):
            argv += [flag] if value else []
        elif value is not None and not isinstance(value, list):
            argv += [flag, str(value)]
    return argv


def run_pool(
    args: argparse.Namespace,
    parser: argparse.ArgumentParser,
    files: Sequence[tuple[str, Sequence[str] | None]],
    test_files: dict[str, str],
    jobs: int,
    max_memory_mb: float,
) -> int:
    """Analyse ``files`` (each with its functions, None: all) in at most ``jobs`` children."""
    options = passed_options(args, parser)
    scratch = tempfile.mkdtemp(prefix="pathloom-jobs-")
    chosen = [(file, names) for file, names in files if names is not None or _count_targets(file, None) > 0]  # an __init__.py: nothing to run
    tasks = [_task(args, options, file, names, test_files.get(file), scratch, i) for i, (file, names) in enumerate(chosen)]
    cache = None if getattr(args, "no_cache", True) or not tasks else ResultCache(cache_path(chosen[0][0]))
    if cache is not None:
        for task, (file, names) in zip(tasks, chosen):
            task.key = cache_key(args.command, options, file, None if names is None else list(names), task.tests_path is not None, bool(args.sarif))
            _from_cache(task, cache)
    try:
        return _run_tasks(args, tasks, len(files), jobs, max_memory_mb, scratch, cache)
    finally:
        if cache is not None:
            cache.close()


def _run_tasks(args: argparse.Namespace, tasks: list[Task], files: int, jobs: int, max_memory_mb: float, scratch: str, cache: ResultCache | None) -> int:
    pending = [task for task in tasks if not task.cached]
    running: list[Task] = []
    shown = 0
    interrupted = False
    try:
        while pending or running:
            while pending and len(running) < jobs:
                task = pending.pop(0)
                _start(task, scratch)
                running.append(task)
            time.sleep(POLL_S)
            for task in list(running):
                if _finished(task, max_memory_mb):
                    running.remove(task)
                    if cache is not None:
                        _to_cache(task, cache)
            while shown < len(tasks) and tasks[shown].code is not None:
                _show(tasks[shown])
                shown += 1
    except KeyboardInterrupt:
        interrupted = True
        for task in running:
            _kill(task, "interrupted")
    for task in tasks[shown:]:
        if task.code is not None:
            _show(task)
    _write_json(args, tasks)
    _write_sarif(args, tasks)
    _summary(tasks, files)
    codes = [t.code for t in tasks if t.code is not None]
    if interrupted:
        sys.stderr.write("pathloom: interrupted (what was found is reported, marked incomplete)\n")
        return EXIT_INTERRUPTED
    return worst_exit_code(codes)


def _task(args: argparse.Namespace, options: list[str], file: str, names: Sequence[str] | None, tests: str | None, scratch: str, index: int) -> Task:
    targets = [file] if names is None else [f"{file}::{n}" for n in names]
    json_path = os.path.join(scratch, f"{index}.json")
    argv = [sys.executable, "-m", "pathloom", args.command, *targets, *options, "--json", json_path]
    if tests is not None:
        argv += ["--tests", tests]
    if args.sarif:
        argv += ["--sarif", os.path.splitext(json_path)[0] + ".sarif"]
    per_target = (args.timeout or DEFAULT_TARGET_S) + (args.search_timeout if args.tests else 0.0)
    limit = (args.file_timeout if args.file_timeout is not None else per_target * max(1, _count_targets(file, names))) + MARGIN_S
    return Task(" ".join(targets), argv, json_path, limit, tests_path=tests)


def _from_cache(task: Task, cache: ResultCache) -> None:
    """Serve ``task`` from the cache when its key is there: its outputs written back where its
    child would have written them."""
    assert task.key is not None
    stored = cache.get(task.key)
    if stored is None or (task.tests_path is not None and stored.tests is None):
        return
    base = os.path.splitext(task.json_path)[0]
    task.out_path, task.err_path = base + ".out", base + ".err"
    Path(task.out_path).write_text(stored.stdout, encoding="utf-8")
    Path(task.err_path).write_text(stored.stderr, encoding="utf-8")
    if stored.sarif is not None:
        Path(base + ".sarif").write_text(stored.sarif, encoding="utf-8")
    if task.tests_path is not None and stored.tests is not None:
        Path(task.tests_path).write_text(stored.tests, encoding="utf-8")
    task.code, task.entries, task.cached = stored.code, stored.entries, True


def _to_cache(task: Task, cache: ResultCache) -> None:
    """Store what ``task``'s child gave back, when it ended by itself with a result (exit 0, 1
    or 2; not stopped, interrupted or inconsistent)."""
    if task.key is None or task.stopped is not None or task.code not in (0, 1, 2):
        return

    def read(path: str | None) -> str | None:
        try:
            return Path(path).read_text(encoding="utf-8") if path is not None else None
        except (OSError, UnicodeDecodeError):
            return None

    stdout, stderr = read(task.out_path), read(task.err_path)
    tests = read(task.tests_path)
    if stdout is None or stderr is None or (task.tests_path is not None and tests is None):
        return
    assert task.code is not None
    cache.put(task.key, Stored(stdout, stderr, task.entries, read(os.path.splitext(task.json_path)[0] + ".sarif"), tests, task.code))


def _count_targets(file: str, names: Sequence[str] | None) -> int:
    """How many functions the child explores (top-level functions and methods, read from the
    source: a bound for its time limit, not the analysis's own count)."""
    if names is not None:
        return len(names)
    try:
        tree = ast.parse(Path(file).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return 1  # the child says what is wrong with it
    count = 0
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            count += 1
        elif isinstance(node, ast.ClassDef):
            count += sum(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) for n in node.body)
    return count


def _start(task: Task, scratch: str) -> None:
    base = os.path.splitext(task.json_path)[0]
    task.out_path, task.err_path = base + ".out", base + ".err"
    with open(task.out_path, "wb") as out, open(task.err_path, "wb") as err:
        env = {**os.environ, IN_POOL: "1"}
        task.process = subprocess.Popen(task.argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL, start_new_session=True, env=env)
    task.started = time.monotonic()


def _finished(task: Task, max_memory_mb: float) -> bool:
    """Whether the child ended (or was just stopped): its exit code set."""
    assert task.process is not None
    code = task.process.poll()
    if code is None:
        if time.monotonic() - task.started > task.limit_s:
            _kill(task, f"stopped after {task.limit_s:g} s (what its targets' time limits allow, and a margin)")
        elif _resident_mb(task.process.pid) > max_memory_mb:
            _kill(task, f"stopped: over --max-memory {max_memory_mb:g} MiB")
        else:
            return False
        return True
    task.code = code
    task.entries = _entries(task.json_path)
    return True


def _kill(task: Task, why: str) -> None:
    assert task.process is not None
    try:
        os.killpg(task.process.pid, 9)
    except ProcessLookupError:
        pass
    task.process.wait()
    task.stopped, task.code = why, EXIT_INTERRUPTED if why == "interrupted" else 2
    task.entries = _entries(task.json_path)  # what it wrote before (a JSON cut short is no entry)


def _resident_mb(pid: int) -> float:
    """The resident memory of the process ``pid`` in MiB (0 when it cannot be read)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0.0


def _entries(path: str) -> list[Any]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return data if isinstance(data, list) else [data]


def _show(task: Task) -> None:
    for path, stream in ((task.out_path, sys.stdout), (task.err_path, sys.stderr)):
        try:
            stream.write(Path(path).read_text(encoding="utf-8", errors="replace"))
        except OSError:
            pass
        stream.flush()
    if task.stopped is not None and task.stopped != "interrupted":
        sys.stderr.write(f"pathloom: {task.label}: {task.stopped}; the other files go on\n")
    if task.cached:
        sys.stdout.write(
            f"pathloom: {task.label}: from the cache (its source, the project modules it imports, the options and pathloom unchanged; --no-cache runs it again)\n"
        )
        sys.stdout.flush()


def _write_json(args: argparse.Namespace, tasks: list[Task]) -> None:
    if not args.json:
        return
    entries: list[Any] = []
    for task in tasks:
        entries += task.entries
        if task.stopped is not None and not task.entries:
            entries.append(
                {
                    "target": task.label,
                    "engine": args.engine,
                    "paths": [],
                    "status": "incomplete",
                    "complete": False,
                    "stats": {},
                    "bugs": [],
                    "error": task.stopped,
                }
            )
    Path(args.json).write_text(json.dumps(entries, indent=1) + "\n", encoding="utf-8")


def _write_sarif(args: argparse.Namespace, tasks: list[Task]) -> None:
    """The children's SARIF logs as one (``report.sarif.merge``)."""
    if not args.sarif:
        return
    from pathloom.report.sarif import merge

    logs = []
    for task in tasks:
        try:
            logs.append(json.loads(Path(os.path.splitext(task.json_path)[0] + ".sarif").read_text(encoding="utf-8")))
        except (OSError, ValueError):
            continue  # stopped, or no target analysed: its JSON entry says why
    Path(args.sarif).write_text(json.dumps(merge(logs), indent=1) + "\n", encoding="utf-8")


def _summary(tasks: list[Task], files: int) -> None:
    statuses = [str(e.get("status")) for t in tasks for e in t.entries]
    stopped = sum(1 for t in tasks if t.stopped is not None)
    cached = sum(len(t.entries) for t in tasks if t.cached)
    print(count_line(files, statuses, stopped, cached))


def count_line(files: int, statuses: Sequence[str], stopped: int = 0, cached: int = 0) -> str:
    """A run's last line: its targets explored, skipped and failed (``statuses``: each
    target's ``Exploration.status``), then the files stopped and the targets served from the
    cache, when there are any."""
    explored = sum(1 for s in statuses if s in ("complete", "incomplete"))
    skipped = sum(1 for s in statuses if s == "unsupported")
    failed = sum(1 for s in statuses if s == "internal error")
    line = f"pathloom: {files} file(s), {len(statuses)} target(s): {explored} explored, {skipped} skipped (unsupported or not loaded), {failed} failed (internal error)"
    if stopped:
        line += f"; {stopped} file(s) stopped"
    if cached:
        line += f"; {cached} from the cache"
    return line
