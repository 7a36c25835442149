"""The quality corpus: pathloom check and CrossHair on the planted bugs of tests/quality/corpus.

Usage: python benchmarks/quality_corpus.py [--workdir DIR] [--filter SUBSTR] [--no-crosshair]
       [--timeout S] [--crosshair-timeout S] [--worktree] [--markdown] [--json OUT]
       [--write-docs [--docs-file PATH]]

The corpus (issue 27) is plain Python modules written as users write code, one theme each.  A
target is every top-level function whose name does not start with ``_`` (those are helpers).
A planted bug is an ``assert`` whose line carries the comment ``# BUG: what (witness)``, the
witness being keyword arguments, ``(x=10, s='ab')``, for which the assert fails in CPython
(``tests/unit/test_quality_corpus.py`` checks every witness).  The comments are the ground
truth: every other line is meant to be correct.

For each target, one after the other, both tools run in child processes:

* pathloom: ``python -m pathloom check FILE::NAME --timeout S --json OUT`` (S = 10 by default),
  killed at S + 30 s.  The pathloom that runs is a snapshot of HEAD (``git archive`` into
  ``DIR/pathloom-src/REV``, first on ``PYTHONPATH``, as in realcode.py), so edits in the working
  tree during the run do not change what is measured; ``--worktree`` runs the working tree;
* CrossHair: ``python -m crosshair check --analysis_kind=asserts FILE.py:LINE`` (LINE the
  ``def`` line) with CrossHair's default budget, in the scratch venv ``DIR/venv`` that
  ``realcode_crosshair.ensure_tools`` fills (crosshair-tool, coverage), killed after
  ``--crosshair-timeout`` seconds (default 300).  CrossHair's ``asserts`` kind checks only
  functions whose body opens with an assert (a precondition), so most targets open with one.

Per target: pathloom's status (complete / incomplete / unsupported / internal error, with the
reason), its bugs (line and input, from the JSON) and wall time; CrossHair's errors (line and
message, from its ``FILE:LINE: error: ...`` lines) and wall time.  A planted bug is found by a
tool that reports a bug on its line.  Wrong answers of pathloom: exit 3 (``check`` replays
each bug in CPython and exits 3 when CPython disagrees), and a target reported complete with a
planted bug not found.  Refused: status ``unsupported``.

``--write-docs`` writes the tables into the section ``quality-corpus`` of docs/benchmarks.md
(``--docs-file PATH``: another page) under a header with the command, date, machine, commit
and versions (benchmarks/docs_writer.py).
"""

from __future__ import annotations

import argparse
import ast
import inspect
import io
import json
import os
import re
import statistics
import subprocess
import sys
import tokenize
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import docs_writer  # benchmarks/docs_writer.py
import machine  # benchmarks/machine.py
import realcode
from realcode import SetupError, read_json, run_child, snapshot, venv_python
from realcode_crosshair import ensure_tools, explicit_raises

ROOT = machine.ROOT
CORPUS = os.path.join(ROOT, "tests", "quality", "corpus")
SECTION = "quality-corpus"
HARD_KILL_GRACE_S = 30.0
# pathloom's default input bounds (--max-str-len, --max-list-len, --max-dict-len)
DEFAULT_BOUNDS = {"str": 6, "list": 4, "dict": 4}
BUG_TAG = "# BUG:"

# pathloom statuses (the JSON's ``status``) and what the runner adds
COMPLETE = "complete"
INCOMPLETE = "incomplete"
UNSUPPORTED = "unsupported"
INTERNAL = "internal error"
KILLED = "killed"
NO_RESULT = "no result"

# --------------------------------------------------------------------------
# Pure parts (unit-tested in tests/unit/test_quality_corpus.py)
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class PlantedBug:
    line: int
    description: str
    witness: str | None  # the keyword arguments inside the comment's last parentheses, or None


def split_witness(text: str) -> tuple[str, str | None]:
    """``'off by one (x=10, s="a")'`` -> ``('off by one', 'x=10, s="a"')``: the leftmost
    parenthesized tail that reads as the keyword arguments of a call; ``(text, None)`` when
    there is none."""
    for i, ch in enumerate(text):
        if ch != "(":
            continue
        try:
            call = ast.parse("f" + text[i:].rstrip(), mode="eval").body
        except SyntaxError:
            continue
        if isinstance(call, ast.Call) and not call.args and call.keywords and all(k.arg for k in call.keywords):
            return text[:i].strip(), text[i:].rstrip()[1:-1].strip()
    return text.strip(), None


def parse_bug_comments(source: str) -> dict[int, PlantedBug]:
    """Line to planted bug, for every ``# BUG: ...`` comment of a module."""
    found: dict[int, PlantedBug] = {}
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT and tok.string.startswith(BUG_TAG):
            description, witness = split_witness(tok.string[len(BUG_TAG) :].strip())
            found[tok.start[0]] = PlantedBug(tok.start[0], description, witness)
    return found


def witness_arguments(witness: str, namespace: dict[str, Any]) -> dict[str, Any]:
    """The witness's keyword arguments, each value evaluated in the module's namespace (so
    ``p=Point(0, 0)`` and ``d=Direction.W`` work)."""
    call = ast.parse(f"f({witness})", mode="eval").body
    assert isinstance(call, ast.Call)
    values: dict[str, Any] = {}
    for kw in call.keywords:
        assert kw.arg is not None
        values[kw.arg] = eval(compile(ast.Expression(kw.value), "<witness>", "eval"), namespace)  # noqa: S307 - the corpus's own comments
    return values


def call_with(fn: Callable[..., Any], arguments: dict[str, Any]) -> Any:
    """``fn`` called with ``arguments`` by name, positional-only parameters by position."""
    positional = []
    keywords = dict(arguments)
    for name, param in inspect.signature(fn).parameters.items():
        if param.kind is inspect.Parameter.POSITIONAL_ONLY and name in keywords:
            positional.append(keywords.pop(name))
    return fn(*positional, **keywords)


def outside_bounds(value: Any, bounds: dict[str, int] = DEFAULT_BOUNDS) -> list[str]:
    """Why ``value`` (a witness argument) lies outside pathloom's default input bounds."""
    why: list[str] = []
    if isinstance(value, str) and len(value) > bounds["str"]:
        why.append(f"str of length {len(value)} > {bounds['str']}")
    elif isinstance(value, list):
        if len(value) > bounds["list"]:
            why.append(f"list of length {len(value)} > {bounds['list']}")
        for item in value:
            why += outside_bounds(item, bounds)
    elif isinstance(value, dict):
        if len(value) > bounds["dict"]:
            why.append(f"dict of length {len(value)} > {bounds['dict']}")
        for key, item in value.items():
            why += outside_bounds(key, bounds) + outside_bounds(item, bounds)
    return why


@dataclass(frozen=True)
class CorpusTarget:
    module: str  # file name, e.g. strings.py
    path: str  # absolute path
    name: str
    line: int  # the def line
    end_line: int
    annotated: bool  # every parameter and the return annotated
    leading_assert: bool  # the body opens with an assert: CrossHair's asserts kind checks it
    planted: tuple[PlantedBug, ...]
    raised: frozenset[str] = frozenset()  # the exception names the module's raise statements name

    @property
    def label(self) -> str:
        return f"{self.module}::{self.name}"


def _annotated(node: ast.FunctionDef) -> bool:
    a = node.args
    params = a.posonlyargs + a.args + a.kwonlyargs + [p for p in (a.vararg, a.kwarg) if p is not None]
    return node.returns is not None and all(p.annotation is not None for p in params)


def _leading_assert(node: ast.FunctionDef) -> bool:
    body = list(node.body)
    while body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
        body.pop(0)  # a docstring
    return bool(body) and isinstance(body[0], ast.Assert)


def find_targets(source: str, module: str, path: str) -> list[CorpusTarget]:
    """The top-level functions of a corpus module whose names do not start with ``_``, with the
    planted bugs inside each one's lines."""
    bugs = parse_bug_comments(source)
    raised = frozenset(explicit_raises(source)) - {"AssertionError"}
    targets = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            end = node.end_lineno or node.lineno
            planted = tuple(b for line, b in sorted(bugs.items()) if node.lineno <= line <= end)
            targets.append(CorpusTarget(module, path, node.name, node.lineno, end, _annotated(node), _leading_assert(node), planted, raised))
    return targets


def corpus_targets(corpus: str = CORPUS) -> list[CorpusTarget]:
    found = []
    for name in sorted(os.listdir(corpus)):
        if name.endswith(".py") and not name.startswith("_"):
            path = os.path.join(corpus, name)
            with open(path, encoding="utf-8") as f:
                found += find_targets(f.read(), name, path)
    return found


@dataclass(frozen=True)
class ReportedBug:
    line: int | None
    exception: str
    detail: str  # pathloom: the input; CrossHair: its message


@dataclass
class PathloomRun:
    exit_code: int | None = None  # None: killed
    status: str = NO_RESULT
    error: str | None = None
    bugs: list[ReportedBug] = field(default_factory=list)
    cut_reasons: list[str] = field(default_factory=list)
    time_s: float = 0.0
    stderr: list[str] = field(default_factory=list)


@dataclass
class CrosshairRun:
    exit_code: int | None = None
    status: str = ""  # checked, not checkable, killed, error
    errors: list[ReportedBug] = field(default_factory=list)
    time_s: float = 0.0
    stderr: list[str] = field(default_factory=list)


def _short_value(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def pathloom_from_json(data: dict[str, Any] | None, exit_code: int | None) -> PathloomRun:
    """What one ``pathloom check --json`` result says (its status, bugs and cut reasons)."""
    run = PathloomRun(exit_code=exit_code)
    if exit_code is None:
        run.status = KILLED
        return run
    if data is None:
        return run
    run.status = str(data.get("status") or NO_RESULT)
    run.error = data.get("error")
    for bug in data.get("bugs") or []:
        inputs = ", ".join(f"{k}={_short_value(v)}" for k, v in (bug.get("inputs") or {}).items())
        run.bugs.append(ReportedBug(bug.get("line"), str(bug.get("exception")), inputs))
    run.cut_reasons = [str(p.get("reason")) for p in data.get("paths") or [] if p.get("outcome") in ("cut", "unknown") and p.get("reason")]
    return run


_CROSSHAIR_ERROR = re.compile(r"^(?P<file>.+?):(?P<line>\d+): error: (?P<message>.*)$")


def crosshair_errors(stdout: str, path: str) -> list[ReportedBug]:
    """The ``FILE:LINE: error: Exc: message`` lines of ``crosshair check`` about ``path``."""
    found = []
    for line in stdout.splitlines():
        m = _CROSSHAIR_ERROR.match(line.strip())
        if m is None or os.path.realpath(m["file"]) != os.path.realpath(path):
            continue
        message = m["message"]
        exception = message.split(":", 1)[0].strip()
        found.append(ReportedBug(int(m["line"]), exception, message))
    return found


def crosshair_status(exit_code: int | None, stdout: str, stderr: str) -> str:
    if exit_code is None:
        return KILLED
    if "no checkable functions" in stdout + stderr:
        return "not checkable"
    if exit_code in (0, 1):
        return "checked"
    return f"error (exit {exit_code})"


def refusal_reason(error: str | None) -> str:
    """``/p/f.py:12:4: unsupported: what`` -> ``unsupported: what`` (the place dropped, so
    refusals group by their reason)."""
    if not error:
        return "?"
    m = re.search(r"unsupported: .*", error)
    return m.group(0) if m else error.strip()


def cut_reason(reason: str) -> str:
    """A cut path's reason with its numbers and quoted values dropped, to group them."""
    text = re.sub(r"'[^']*'", "'...'", reason)
    return re.sub(r"\b\d+(\.\d+)?\b", "N", text).strip()


@dataclass
class Row:
    target: CorpusTarget
    pathloom: PathloomRun
    crosshair: CrosshairRun | None  # None: --no-crosshair

    def pathloom_lines(self) -> set[int]:
        return {b.line for b in self.pathloom.bugs if b.line is not None}

    def crosshair_lines(self) -> set[int]:
        return {b.line for b in self.crosshair.errors if b.line is not None} if self.crosshair else set()

    def crosshair_bug_lines(self) -> set[int]:
        """The lines of CrossHair's errors that are bugs by pathloom's rule: an exception that
        one of the module's ``raise`` statements names is intended behaviour, not a bug
        (CrossHair reports every exception, at the line of the target the exception leaves)."""
        if self.crosshair is None:
            return set()
        planted = {b.line for b in self.target.planted}
        return {b.line for b in self.crosshair.errors if b.line is not None and (b.line in planted or b.exception not in self.target.raised)}

    def found(self, bug: PlantedBug) -> tuple[bool, bool]:
        return bug.line in self.pathloom_lines(), bug.line in self.crosshair_lines()


@dataclass
class Classification:
    """The run summed up: what the tables show."""

    targets: int = 0
    planted: int = 0
    refused: list[str] = field(default_factory=list)  # labels
    statuses: Counter[str] = field(default_factory=Counter)
    found_by_pathloom: int = 0
    found_by_crosshair: int = 0
    found_by_both: int = 0
    only_pathloom: list[str] = field(default_factory=list)  # "label:line"
    only_crosshair: list[str] = field(default_factory=list)
    neither: list[str] = field(default_factory=list)
    crosshair_only_bugs: list[str] = field(default_factory=list)  # any line, planted or not
    wrong_answers: list[str] = field(default_factory=list)  # "label: why"
    crashes: list[str] = field(default_factory=list)
    unplanned_pathloom: list[str] = field(default_factory=list)
    unplanned_crosshair: list[str] = field(default_factory=list)
    crosshair_explicit: list[str] = field(default_factory=list)  # exceptions the module raises itself
    over_budget: list[str] = field(default_factory=list)  # pathloom wall time over the budget
    missed_by_status: Counter[str] = field(default_factory=Counter)  # planted bugs pathloom missed


def classify(rows: Sequence[Row], budget_s: float) -> Classification:
    c = Classification(targets=len(rows))
    for row in rows:
        t, pl = row.target, row.pathloom
        c.statuses[pl.status] += 1
        if pl.status == UNSUPPORTED:
            c.refused.append(t.label)
        if pl.status in (INTERNAL, KILLED, NO_RESULT):
            c.crashes.append(f"{t.label}: {pl.status}" + (f" ({pl.error})" if pl.error else ""))
        elif pl.exit_code == 3:
            c.wrong_answers.append(f"{t.label}: exit 3 (a reported bug CPython does not confirm)")
        if pl.time_s > budget_s:
            c.over_budget.append(f"{t.label}: {pl.time_s:.1f}s")
        planted_lines = {b.line for b in t.planted}
        for bug in t.planted:
            c.planted += 1
            by_pl, by_xh = row.found(bug)
            where = f"{t.label}:{bug.line}"
            c.found_by_pathloom += by_pl
            c.found_by_crosshair += by_xh
            if by_pl and by_xh:
                c.found_by_both += 1
            elif by_pl:
                c.only_pathloom.append(where)
            elif by_xh:
                c.only_crosshair.append(where)
            else:
                c.neither.append(where)
            if not by_pl:
                c.missed_by_status[pl.status] += 1
            if not by_pl and pl.status == COMPLETE:
                c.wrong_answers.append(f"{where}: complete, 0 bugs on the planted bug's line")
        for b in pl.bugs:
            if b.line not in planted_lines:
                c.unplanned_pathloom.append(f"{t.label}:{b.line}: {b.exception} ({b.detail})")
        if row.crosshair is not None:
            for b in row.crosshair.errors:
                if b.line in planted_lines:
                    continue
                if b.exception in t.raised:
                    c.crosshair_explicit.append(f"{t.label}:{b.line}: {b.detail}")
                else:
                    c.unplanned_crosshair.append(f"{t.label}:{b.line}: {b.detail}")
            for line in sorted(row.crosshair_bug_lines() - row.pathloom_lines()):
                c.crosshair_only_bugs.append(f"{t.label}:{line}")
    return c


def _pct(n: int, total: int) -> str:
    return f"{100.0 * n / total:.1f}%" if total else "-"


def _times(values: Sequence[float]) -> str:
    if not values:
        return "-"
    return f"{sum(values):.0f}s total, median {statistics.median(values):.1f}s, max {max(values):.1f}s"


def summary(rows: Sequence[Row], c: Classification, budget_s: float, crosshair: bool) -> list[list[str]]:
    n = c.targets
    body = [
        ["targets", str(n)],
        ["planted bugs (targets with one)", str(c.planted)],
        ["pathloom statuses", ", ".join(f"{k} {v}" for k, v in sorted(c.statuses.items()))],
        ["refused (unsupported)", f"{len(c.refused)} ({_pct(len(c.refused), n)})"],
        ["planted bugs found by pathloom", f"{c.found_by_pathloom} / {c.planted}"],
        ["planted bugs pathloom missed, by its status on the target", ", ".join(f"{k} {v}" for k, v in sorted(c.missed_by_status.items())) or "-"],
    ]
    if crosshair:
        checkable = sum(1 for r in rows if r.crosshair is not None and r.crosshair.status == "checked")
        body += [
            ["planted bugs found by CrossHair", f"{c.found_by_crosshair} / {c.planted}"],
            [
                "found by both / only pathloom / only CrossHair / neither",
                f"{c.found_by_both} / {len(c.only_pathloom)} / {len(c.only_crosshair)} / {len(c.neither)}",
            ],
            ["bugs CrossHair reports that pathloom does not (any line; explicit raises aside)", str(len(c.crosshair_only_bugs))],
            ["targets CrossHair checked (body opens with an assert)", f"{checkable} / {n}"],
        ]
    body += [
        ["pathloom wrong answers", str(len(c.wrong_answers))],
        ["pathloom crashes, killed or no result", str(len(c.crashes))],
        ["bugs pathloom reports off the planted lines", str(len(c.unplanned_pathloom))],
        [f"pathloom targets over {budget_s:g} s (wall, process start included)", str(len(c.over_budget))],
        ["pathloom time", _times([r.pathloom.time_s for r in rows])],
    ]
    if crosshair:
        body += [
            ["CrossHair errors off the planted lines: exceptions the module raises itself", str(len(c.crosshair_explicit))],
            ["CrossHair errors off the planted lines: others", str(len(c.unplanned_crosshair))],
            ["CrossHair time", _times([r.crosshair.time_s for r in rows if r.crosshair is not None])],
        ]
    return body


def _pathloom_cell(row: Row, bug: PlantedBug) -> str:
    pl = row.pathloom
    if bug.line in row.pathloom_lines():
        return "found"
    return f"missed ({pl.status})"


def _crosshair_cell(row: Row, bug: PlantedBug) -> str:
    if row.crosshair is None:
        return "-"
    if bug.line in row.crosshair_lines():
        return "found"
    return "missed" if row.crosshair.status == "checked" else f"missed ({row.crosshair.status})"


def per_bug(rows: Sequence[Row]) -> list[list[str]]:
    body = []
    for row in rows:
        for bug in row.target.planted:
            body.append(
                [
                    f"{row.target.label}:{bug.line}",
                    bug.description,
                    _pathloom_cell(row, bug),
                    f"{row.pathloom.time_s:.1f}",
                    _crosshair_cell(row, bug),
                    f"{row.crosshair.time_s:.1f}" if row.crosshair else "-",
                ]
            )
    return body


PER_BUG_HEAD = ["planted bug", "what", "pathloom", "s", "CrossHair", "s"]


def counted(items: Iterable[str], top: int | None = None) -> list[list[str]]:
    return [[reason, str(n)] for reason, n in Counter(items).most_common(top)]


def report(rows: Sequence[Row], budget_s: float, crosshair: bool, markdown: bool) -> list[str]:
    c = classify(rows, budget_s)
    table = realcode._table
    title = realcode._title
    lines = table(["measure", "value"], summary(rows, c, budget_s, crosshair), markdown, [False, False]) + [""]
    refusals = counted(refusal_reason(r.pathloom.error) for r in rows if r.pathloom.status == UNSUPPORTED)
    if refusals:
        lines += title("Refusal reasons (pathloom status unsupported)", markdown)
        lines += table(["reason", "targets"], refusals, markdown, [False, True]) + [""]
    cuts = counted((cut_reason(reason) for r in rows if r.pathloom.status == INCOMPLETE for reason in set(r.pathloom.cut_reasons)), 12)
    if cuts:
        lines += title("Why targets were incomplete (cut reasons, targets with each)", markdown)
        lines += table(["cut reason", "targets"], cuts, markdown, [False, True]) + [""]
    for heading, items in (
        ("pathloom wrong answers", c.wrong_answers),
        ("pathloom crashes", c.crashes),
        ("Planted bugs only CrossHair found", c.only_crosshair),
        ("Bugs CrossHair reports that pathloom does not (explicit raises aside)", c.crosshair_only_bugs),
        ("Bugs pathloom reports off the planted lines (confirmed in CPython)", c.unplanned_pathloom),
        ("CrossHair errors off the planted lines, other than exceptions the module raises itself", c.unplanned_crosshair),
        ("CrossHair errors off the planted lines: exceptions the module raises itself (intended, not bugs to pathloom check)", c.crosshair_explicit),
        (f"pathloom over {budget_s:g} s", c.over_budget),
    ):
        if items:
            lines += title(heading, markdown)
            lines += [(f"- `{item}`" if markdown else f"  {item}") for item in items] + [""]
    lines += title("Per planted bug", markdown)
    lines += table(PER_BUG_HEAD, per_bug(rows), markdown, [False, False, False, True, False, True]) + [""]
    return lines


# --------------------------------------------------------------------------
# Running the tools
# --------------------------------------------------------------------------


def _tail(text: str, n: int = 3) -> list[str]:
    return [line for line in text.splitlines() if line.strip()][-n:]


def run_pathloom(t: CorpusTarget, rundir: str, env: dict[str, str], timeout: float, extra: Sequence[str] = ()) -> PathloomRun:
    out = os.path.join(rundir, "json", f"{t.module[:-3]}.{t.name}.json")
    cmd = [sys.executable, "-m", "pathloom", "check", f"{t.path}::{t.name}", "--timeout", f"{timeout:g}", "--json", out, *extra]
    with open(os.path.join(rundir, "stdout", f"{t.module[:-3]}.{t.name}.txt"), "w", encoding="utf-8") as stdout:
        # cwd: ``python -m`` puts the working directory first on sys.path, before the snapshot
        code, stderr, elapsed = run_child(cmd, rundir, env, timeout + HARD_KILL_GRACE_S, stdout=stdout)
    run = pathloom_from_json(read_json(out) if code is not None else None, code)
    run.time_s = elapsed
    run.stderr = _tail(stderr)
    if run.status == NO_RESULT and run.stderr:
        run.error = run.stderr[-1]
    return run


def run_crosshair(t: CorpusTarget, python: str, rundir: str, env: dict[str, str], timeout: float) -> CrosshairRun:
    cmd = [python, "-m", "crosshair", "check", "--analysis_kind=asserts", f"{t.path}:{t.line}"]
    out_path = os.path.join(rundir, "crosshair", f"{t.module[:-3]}.{t.name}.txt")
    with open(out_path, "w", encoding="utf-8") as stdout:
        code, stderr, elapsed = run_child(cmd, rundir, env, timeout, stdout=stdout)
    with open(out_path, encoding="utf-8") as f:
        text = f.read()
    return CrosshairRun(code, crosshair_status(code, text, stderr), crosshair_errors(text, t.path), elapsed, _tail(stderr))


def _rundir(workdir: str) -> str:
    return realcode._rundir(workdir, "quality-run", ("json", "stdout", "crosshair"))


def ensure_crosshair(workdir: str, log: Callable[[str], None]) -> tuple[str, dict[str, str]]:
    """The scratch venv ``workdir/venv`` with crosshair-tool (and coverage) installed by
    realcode_crosshair.ensure_tools; returns its interpreter and the versions found there."""
    venv = os.path.join(workdir, "venv")
    python = venv_python(venv)
    if not os.path.exists(python):
        log(f"creating the scratch environment {venv}")
        proc = subprocess.run([sys.executable, "-m", "venv", venv], check=False, capture_output=True, text=True)
        if proc.returncode != 0:
            raise SetupError(f"python -m venv {venv} failed:\n{proc.stderr.strip()}")
    return python, ensure_tools(python, log)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--workdir", default=os.path.join(ROOT, "out", "quality"), help="scratch directory: the venv and the run's files (default out/quality)")
    parser.add_argument("--filter", default=None, help="only targets whose MODULE::NAME contains SUBSTR")
    parser.add_argument("--no-crosshair", action="store_true", help="pathloom only")
    parser.add_argument(
        "--pathloom-arg",
        action="append",
        default=[],
        help="one more option for pathloom check, repeatable (e.g. --pathloom-arg=--strategy --pathloom-arg=bfs)",
    )
    parser.add_argument("--timeout", type=float, default=10.0, help="pathloom --timeout per target (default 10)")
    parser.add_argument("--crosshair-timeout", type=float, default=300.0, help="wall seconds before a CrossHair run is killed (default 300)")
    parser.add_argument("--worktree", action="store_true", help="run pathloom from the working tree instead of a snapshot of HEAD")
    parser.add_argument("--markdown", action="store_true", help="GitHub markdown tables")
    parser.add_argument("--json", default=None, help="write the per-target rows to this file")
    docs_writer.add_options(parser)
    args = parser.parse_args(argv)
    script = sys.argv[0] or os.path.join(HERE, "quality_corpus.py")
    doc = docs_writer.Recorder(args, SECTION, title="Quality corpus: pathloom check and CrossHair per planted bug", argv=[script] + argv)

    def log(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    workdir = os.path.abspath(args.workdir)
    os.makedirs(workdir, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    xh_env = dict(env)
    try:
        if args.worktree:
            revision = machine.git_revision() + " (working tree)"
        else:
            env["PYTHONPATH"], short = snapshot(workdir)
            revision = f"{short} (snapshot of HEAD)"
        xh_python, tools = ("", {}) if args.no_crosshair else ensure_crosshair(workdir, log)
    except SetupError as exc:
        log(f"quality_corpus: cannot set up: {exc}")
        return 2
    targets = corpus_targets()
    if args.filter:
        targets = [t for t in targets if args.filter in t.label]
    rundir = _rundir(workdir)
    log(f"{len(targets)} target(s), pathloom from {revision}")
    rows = []
    for i, t in enumerate(targets, 1):
        pl = run_pathloom(t, rundir, env, args.timeout, args.pathloom_arg)
        xh = None if args.no_crosshair else run_crosshair(t, xh_python, rundir, xh_env, args.crosshair_timeout)
        rows.append(Row(t, pl, xh))
        planted = ", ".join(str(b.line) for b in t.planted) or "-"
        log(
            f"[{i}/{len(targets)}] {t.label} planted {planted}: pathloom {pl.status} bugs {sorted(rows[-1].pathloom_lines())} {pl.time_s:.1f}s"
            + (f"; CrossHair {xh.status} errors {sorted(rows[-1].crosshair_lines())} {xh.time_s:.1f}s" if xh else "")
        )
    header = machine.header(
        [script] + argv,
        args.markdown,
        f"nproc {machine.nproc()}, {machine.cpu_model()}, pathloom at {revision}" + ("" if args.no_crosshair else f", crosshair-tool {tools['crosshair']}"),
    )
    body = report(rows, args.timeout, not args.no_crosshair, args.markdown) + [f"Files of this run: {rundir}"]
    for line in header + body:
        print(line)
    if not args.no_crosshair:
        doc.extra_versions += [("crosshair-tool", tools["crosshair"]), ("z3 in the CrossHair venv", tools["z3"])]
    doc.notes.append(f"pathloom ran from {revision}; {len(targets)} targets, pathloom --timeout {args.timeout:g}, CrossHair's default budget")
    doc.write(body[:-1])
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"rows": [asdict(r) for r in rows], "timeout": args.timeout}, f, indent=1, default=str)
    return 0


if __name__ == "__main__":
    sys.exit(main())
