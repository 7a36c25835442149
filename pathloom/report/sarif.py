"""SARIF 2.1.0 (OASIS, the format CI code scanning reads): the bugs of a run as one log.

One run of the tool ``pathloom``; one rule per kind of bug (``PL001`` a failed assert,
``PL002`` an exception the code raises implicitly); one result per distinct bug, at the bug's
line in its file (a URI relative to the repository root, ``%SRCROOT%``: the nearest folder
above the working directory that holds ``.git``, else the working directory; an absolute
``file://`` URI for a file outside it), with the function as its logical location, the
counterexample in the message, the lines CPython ran on it as a code flow
(``Bug.trace``, when ``replay.trace_bugs`` gave one), and a fingerprint that survives edits
elsewhere in the file: a hash of the file's URI, the function, the kind, the exception and
the text of the bug's line (not its number). A target pathloom skipped is a notification of
the run's invocation, so that code scanning shows what was not analysed.

Invariant: the log validates against the official SARIF 2.1.0 JSON schema
(tests/data/sarif-schema-2.1.0.json); results are sorted by file, line and rule, so the same
bugs give the same log.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pathloom.results import Bug, Exploration
from pathloom.version import installed_version

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
INFORMATION_URI = "https://github.com/pathloom/pathloom"
RULES = {
    "assert": ("PL001", "failed-assert", "An assert fails", "An assert of the function fails on an input that satisfies its preconditions."),
    "implicit": (
        "PL002",
        "implicit-exception",
        "An exception is raised implicitly",
        "An operation raises an exception the code does not raise on purpose (ZeroDivisionError, IndexError, KeyError, ...).",
    ),
}
MAX_SHOWN = 300  # characters of a counterexample in a message


def write(explorations: list[Exploration], source_file: str, out_path: str) -> str:
    """The SARIF log of ``explorations`` (``source_file``, ``out_path``: the file-format
    protocol's; unused: each exploration names its file)."""
    return json.dumps(log(explorations), indent=1) + "\n"


def log(explorations: Sequence[Exploration], root: Path | None = None) -> dict[str, Any]:
    """The SARIF log object; ``root``: the folder URIs are relative to (see the module docstring)."""
    base = (root or repository_root()).resolve()
    rule_ids = [RULES[k][0] for k in RULES]
    results: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    sources: dict[str, list[str]] = {}
    for exploration in explorations:
        file, _, function = exploration.target.partition("::")
        if exploration.status == "unsupported":
            skipped.append({"level": "note", "message": {"text": f"{exploration.target}: not analysed: {exploration.error}"}})
        for bug in exploration.distinct_bugs:
            if bug.kind in RULES:
                results.append(_result(bug, file, function, base, rule_ids, sources))
    results.sort(
        key=lambda r: (
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
            r["ruleId"],
        )
    )
    invocation: dict[str, Any] = {"executionSuccessful": True}
    if skipped:
        invocation["toolExecutionNotifications"] = skipped
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "pathloom", "informationUri": INFORMATION_URI, "version": installed_version(), "rules": [_rule(k) for k in RULES]}},
                "originalUriBaseIds": {"%SRCROOT%": {"uri": base.as_uri() + "/"}},
                "invocations": [invocation],
                "results": results,
            }
        ],
    }


def merge(logs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One log of the results and notifications of several (the files of a ``--jobs`` run), in
    the order of ``logs``, re-sorted as ``log`` sorts them."""
    if not logs:
        return log([])
    merged: dict[str, Any] = json.loads(json.dumps(logs[0]))
    run = merged["runs"][0]
    notes: list[Any] = []
    for other in logs:
        notes += other["runs"][0]["invocations"][0].get("toolExecutionNotifications", [])
    run["results"] = sorted(
        (r for other in logs for r in other["runs"][0]["results"]),
        key=lambda r: (
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
            r["ruleId"],
        ),
    )
    run["invocations"][0].pop("toolExecutionNotifications", None)
    if notes:
        run["invocations"][0]["toolExecutionNotifications"] = notes
    return merged


def repository_root(start: Path | None = None) -> Path:
    """The nearest folder from ``start`` (the working directory) upwards that holds ``.git``;
    the working directory when there is none."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / ".git").exists():
            return folder
    return here


def _rule(kind: str) -> dict[str, Any]:
    rule_id, name, short, full = RULES[kind]
    return {"id": rule_id, "name": name, "shortDescription": {"text": short}, "fullDescription": {"text": full}, "defaultConfiguration": {"level": "error"}}


def _result(bug: Bug, file: str, function: str, base: Path, rule_ids: list[str], sources: dict[str, list[str]]) -> dict[str, Any]:
    kind = bug.kind
    rule_id = RULES[kind][0]
    artifact = _artifact(file, base)
    line = bug.line or 1
    what = "assertion failed" if kind == "assert" else f"{bug.exception} raised"
    message = f"{what} in {function}" + (f": {bug.message}" if bug.message else "") + f"; counterexample: {function}({_arguments(bug.inputs)})"
    if bug.paths > 1:
        message += f" ({bug.paths} paths reach it)"
    text = _source_line(file, line, sources)
    fingerprint = hashlib.sha256("\0".join([artifact["uri"], function, kind, bug.exception or "", text.strip()]).encode()).hexdigest()
    location = {
        "physicalLocation": {"artifactLocation": artifact, "region": {"startLine": line}},
        "logicalLocations": [{"fullyQualifiedName": function, "kind": "function"}],
    }
    related = []
    if bug.chain:  # raised in another module: located there, the calls from the target related
        raised_file, raised_line, raised_in = bug.chain[-1]
        message += f"; raised in {raised_in} ({Path(raised_file).name}:{raised_line}), called from {function} (line {line})"
        location = {
            "physicalLocation": {"artifactLocation": _artifact(raised_file, base), "region": {"startLine": raised_line}},
            "logicalLocations": [{"fullyQualifiedName": raised_in, "kind": "function"}],
        }
        for k, (call_file, call_line, caller) in enumerate(bug.chain[:-1]):
            related.append(
                {
                    "id": k,
                    "physicalLocation": {"artifactLocation": _artifact(call_file, base), "region": {"startLine": call_line}},
                    "message": {"text": f"{caller} calls {bug.chain[k + 1][2]}"},
                }
            )
    result: dict[str, Any] = {
        "ruleId": rule_id,
        "ruleIndex": rule_ids.index(rule_id),
        "level": "error",
        "message": {"text": message},
        "locations": [location],
        "partialFingerprints": {"pathloomBug/v1": fingerprint},
    }
    if related:
        result["relatedLocations"] = related
    if bug.trace:
        steps = [{"location": {"physicalLocation": {"artifactLocation": artifact, "region": {"startLine": n}}}} for n in bug.trace]
        steps[-1]["location"]["message"] = {"text": what}
        result["codeFlows"] = [{"message": {"text": f"the lines CPython runs on {function}({_arguments(bug.inputs)})"}, "threadFlows": [{"locations": steps}]}]
    return result


def _artifact(file: str, base: Path) -> dict[str, str]:
    path = Path(file).resolve()
    if path.is_relative_to(base):
        return {"uri": path.relative_to(base).as_posix(), "uriBaseId": "%SRCROOT%"}
    return {"uri": path.as_uri()}


def _source_line(file: str, line: int, sources: dict[str, list[str]]) -> str:
    if file not in sources:
        try:
            sources[file] = Path(file).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            sources[file] = []
    lines = sources[file]
    return lines[line - 1] if 0 < line <= len(lines) else ""


def _arguments(inputs: dict[str, Any] | None) -> str:
    text = ", ".join(f"{k}={json.dumps(v, sort_keys=True)}" for k, v in (inputs or {}).items())
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 3] + "..."
