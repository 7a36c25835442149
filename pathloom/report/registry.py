"""The output formats of ``explore`` and ``check``, by name: each is one module and one
``register`` line here, and the command line offers its flag.

A *streaming* format is a ``Reporter`` (``report.base``) fed every event as it happens (the text
on stdout, the JSON file); its factory takes a ``ReporterContext``. A *file* format is written
once at the end from every exploration (the pytest file); its factory is
``write(explorations, source_file, out_path, **options) -> text``, ``options`` the values of
the command-line options it names. Factories are imported only when their
format is used. Invariant: names and flags are unique, and the text format (no flag) is always on.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class OutputFormat:
    name: str
    flag: str | None  # the option naming the output file; None: stdout, always written
    metavar: str
    help: str
    factory: str  # "module:attribute"
    streaming: bool
    keeps_paths: bool = False  # needs every path of an exploration kept, not only the counts
    options: tuple[str, ...] = ()  # command-line options (their dests) a file format's factory takes as keywords
    observes_paths: bool = False  # needs what CPython does on the paths' inputs (``Exploration.observed``, ``.arcs``)
    per_file: bool = True  # a file format: one output per analysed file (the pytest file); False: one for the run (SARIF)
    traces_bugs: bool = False  # needs the lines CPython runs on each bug's input (``Bug.trace``)

    @property
    def dest(self) -> str:
        """The attribute of the parsed arguments that holds the output path."""
        return (self.flag or self.name).lstrip("-").replace("-", "_")

    def load(self) -> Any:
        module_name, _, attr = self.factory.partition(":")
        return getattr(importlib.import_module(module_name), attr)


@dataclass(frozen=True)
class ReporterContext:
    out_path: str | None  # the file to write (None: stdout)
    many: bool  # several targets (a whole file) are reported
    bugs_only: bool  # ``check`` or ``--quiet``: no per-path lines


_FORMATS: dict[str, OutputFormat] = {}


def register(fmt: OutputFormat) -> None:
    if fmt.name in _FORMATS or any(f.flag is not None and f.flag == fmt.flag for f in _FORMATS.values()):
        raise ValueError(f"output format {fmt.name!r} (or its flag {fmt.flag}) registered twice")
    _FORMATS[fmt.name] = fmt


def formats() -> tuple[OutputFormat, ...]:
    return tuple(_FORMATS.values())


register(OutputFormat("text", None, "", "the paths or bugs on stdout", "pathloom.report.text:open_text", streaming=True))
register(OutputFormat("json", "--json", "OUT.json", "write the machine-readable result", "pathloom.report.json_report:open_json", streaming=True))
register(
    OutputFormat(
        "pytest",
        "--tests",
        "OUT.py",
        "write a pytest file: a minimal suite (--all-paths: one test per path)",
        "pathloom.report.pytest_gen:generate",
        streaming=False,
        keeps_paths=True,
        options=("all_paths", "raises_for_bugs"),
        observes_paths=True,
    )
)
register(
    OutputFormat(
        "sarif",
        "--sarif",
        "OUT.sarif",
        "write a SARIF 2.1.0 log of the bugs (for CI code scanning)",
        "pathloom.report.sarif:write",
        streaming=False,
        per_file=False,
        traces_bugs=True,
    )
)
