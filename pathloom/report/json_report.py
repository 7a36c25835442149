"""The JSON report, streamed: each path is written as soon as it is found, so memory stays
bounded and an interrupted run leaves what was found (``complete`` and ``stats`` come last).

One target: a JSON object with keys ``target``, ``engine``, ``paths``, ``complete``, ``stats``,
``bugs`` (each distinct bug once: kind, exception, line, message, simplest inputs, number of
paths), ``status`` (``Exploration.status``: complete, incomplete, unsupported, interrupted,
internal error) and ``error`` (one line) when Ctrl-C, an unsupported construct or an internal
error stopped it: the CLI finishes every target it started, so the file parses whatever
stops the run. A whole file: a JSON array of such objects, one per target, skipped targets
(unsupported before they started) included. Each path: ``outcome``, ``exception``, ``line``,
``inputs``, ``returned``, plus ``kind``, ``message``, ``reason`` and ``condition`` (text).
An int too long for decimal text is ``{"$int": "0x..."}`` (``encoding.values.json_safe``).
"""

from __future__ import annotations

import json
from typing import IO, Any

from pathloom.encoding.values import json_safe
from pathloom.report.registry import ReporterContext
from pathloom.results import Bug, Exploration, PathResult
from pathloom.terms.printer import show


def path_json(result: PathResult) -> dict[str, Any]:
    return {
        "outcome": result.outcome,
        "exception": result.exception,
        "line": result.line,
        "inputs": result.inputs,
        "returned": result.returned,
        "kind": result.kind,
        "message": result.message,
        "reason": result.reason,
        "cut": result.cut,
        "condition": show(result.condition),
    }


class JsonReporter:
    def __init__(self, out: IO[str], many: bool) -> None:
        self.out = out
        self.many = many
        self.targets = 0
        self.count = 0
        if many:
            out.write("[\n")

    def start(self, exploration: Exploration) -> None:
        if self.many and self.targets:
            self.out.write(",\n")
        self.targets += 1
        self.count = 0
        head = json.dumps({"target": exploration.target, "engine": exploration.engine})[:-1]
        self.out.write(head + ', "paths": [\n')

    def path(self, exploration: Exploration, result: PathResult) -> None:
        if self.count:
            self.out.write(",\n")
        self.count += 1
        self.out.write("  " + json.dumps(json_safe(path_json(result))))
        self.out.flush()

    def finish(self, exploration: Exploration) -> None:
        end: dict[str, Any] = {
            "status": exploration.status,
            "complete": exploration.complete,
            "stats": exploration.stats.as_dict() if exploration.stats is not None else {},
            "bugs": [_bug(b) for b in exploration.distinct_bugs],
        }
        if exploration.error is not None:
            end["error"] = exploration.error
        if exploration.untried:
            end["untried"] = list(exploration.untried)
        if exploration.module_globals:
            end["globals"] = exploration.module_globals
        tail = json.dumps(json_safe(end))[1:]
        self.out.write("\n], " + tail)

    def close(self) -> None:
        self.out.write("\n]\n" if self.many else "\n")
        self.out.close()


def open_json(context: ReporterContext) -> JsonReporter:
    assert context.out_path is not None
    return JsonReporter(open(context.out_path, "w", encoding="utf-8"), many=context.many)


def _bug(bug: Bug) -> dict[str, Any]:
    """A distinct bug; raised in another module (``Bug.chain``): ``raised_at`` and the
    ``call_chain`` from the target down to it, innermost last."""
    entry: dict[str, Any] = {"kind": bug.kind, "exception": bug.exception, "line": bug.line, "message": bug.message, "inputs": bug.inputs, "paths": bug.paths}
    if bug.chain:
        frames = [{"file": file, "line": line, "function": function} for file, line, function in bug.chain]
        entry["raised_at"], entry["call_chain"] = frames[-1], frames
    return entry
