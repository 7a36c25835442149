"""Write a benchmark runner's tables into its section of a docs page (``--write-docs``).

A section is the text between two marker lines::

    <!-- benchmark:NAME start -->
    ...
    <!-- benchmark:NAME end -->

``replace_section`` swaps what lies between them for a header (the exact command, the date in
UTC, the machine, the commit, the tool versions) and the runner's markdown; everything outside
the markers is left byte for byte. When the page has no such markers, the section is appended
at its end (under a ``## title`` heading when one is given). The page is written atomically: a
temporary file in the same directory, then a rename over the page.

A runner uses it in three steps::

    docs_writer.add_options(parser)              # --write-docs, --docs-file PATH
    doc = docs_writer.Recorder(args, "NAME")     # at the start: the command, date and load
    with doc.capture():                          # copies stdout; written on a normal exit
        ...print the markdown tables...

or, when it has its lines in hand, ``doc.write(lines)``. Without ``--write-docs`` both do
nothing.
"""

from __future__ import annotations

import argparse
import datetime
import io
import os
import shlex
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from importlib import metadata
from typing import IO, Any, Iterator, Sequence

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import machine  # benchmarks/machine.py

ROOT = machine.ROOT
DOCS = os.path.join(ROOT, "docs", "benchmarks.md")
# the distributions every runner's header names (pathloom's own dependencies)
BASE_TOOLS = ("z3-solver", "dd")


def markers(name: str) -> tuple[str, str]:
    if not name or any(c.isspace() for c in name) or "--" in name:
        raise ValueError(f"a section name is one word without '--': {name!r}")
    return f"<!-- benchmark:{name} start -->", f"<!-- benchmark:{name} end -->"


def _marker_lines(text: str, marker: str) -> list[int]:
    """The offsets of the lines of ``text`` that are ``marker`` (surrounding blanks allowed)."""
    found = []
    offset = 0
    for line in text.splitlines(keepends=True):
        if line.strip() == marker:
            found.append(offset)
        offset += len(line)
    return found


def replace_section(text: str, name: str, content: str, title: str | None = None) -> str:
    """``text`` with the lines between the markers of section ``name`` replaced by ``content``
    (between blank lines)
    (the marker lines themselves and everything outside them unchanged), or with the section
    appended at the end when the page has no such markers. Raises ValueError on a page whose
    markers are unbalanced (a start without its end, or twice), which it will not guess at."""
    start, end = markers(name)
    starts, ends = _marker_lines(text, start), _marker_lines(text, end)
    # blank lines around the content: markdown reads the marker comments as blocks of their own
    body = "\n" + content.strip("\n") + "\n\n"
    if not starts and not ends:
        block = f"{start}\n{body}{end}\n"
        heading = f"## {title}\n\n" if title else ""
        if not text:
            return heading + block
        separator = "\n" if text.endswith("\n") else "\n\n"
        return text + separator + heading + block
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        raise ValueError(f"section {name!r}: expected one {start!r} line followed by one {end!r} line, found {len(starts)} and {len(ends)}")
    after_start = text.index("\n", starts[0]) + 1
    return text[:after_start] + body + text[ends[0] :]


def write_atomic(path: str, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same directory renamed over it
    (a reader sees the old page or the new one, never half of one); the mode is kept."""
    directory = os.path.dirname(os.path.abspath(path))
    mode = os.stat(path).st_mode & 0o7777 if os.path.exists(path) else 0o644
    fd, tmp = tempfile.mkstemp(prefix=".docs-writer-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_section(path: str, name: str, content: str, title: str | None = None) -> None:
    """Replace (or append) section ``name`` of the page ``path`` (created when missing)."""
    text = ""
    if os.path.exists(path):
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
    write_atomic(path, replace_section(text, name, content, title))


# --------------------------------------------------------------------------
# The header: command, date, machine, commit, versions
# --------------------------------------------------------------------------


def relative(path: str) -> str:
    """``path`` relative to the repository root when it lies below it."""
    absolute = os.path.abspath(path)
    rel = os.path.relpath(absolute, ROOT)
    return path if rel.startswith("..") else rel


def command_line(argv: Sequence[str] | None = None, executable: str | None = None) -> str:
    """The command that ran, as typed from the repository root: ``.venv/bin/python
    benchmarks/X.py ARGS`` (the interpreter and the script relative to the root when below it,
    the arguments as given, quoted for a shell)."""
    args = list(sys.argv if argv is None else argv)
    exe = relative(executable or sys.executable)
    if not args:
        return exe
    script = relative(args[0]) if args[0] and not args[0].startswith("-") else args[0]
    return shlex.join([exe, script, *args[1:]])


def commit(root: str = ROOT) -> str:
    """``git rev-parse --short HEAD``, with ``+ local changes`` when a tracked file differs from
    it (untracked files do not count, as with ``git describe --dirty``)."""
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True, check=False)
        if rev.returncode != 0:
            return "? (not a git checkout)"
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root, capture_output=True, text=True, check=False)
    except OSError:
        return "? (git not found)"
    return rev.stdout.strip() + (" + local changes" if dirty.stdout.strip() else "")


def version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "not installed"


def versions(tools: Sequence[str] = (), extra: Sequence[tuple[str, str]] = ()) -> str:
    """``Python X, z3-solver X, dd X`` (this interpreter's), then ``tools`` (distributions of this
    interpreter) and ``extra`` (name, version) pairs the runner found elsewhere."""
    found = [f"Python {sys.version.split()[0]}"]
    found += [f"{name} {version(name)}" for name in (*BASE_TOOLS, *tools)]
    found += [f"{name} {value}" for name, value in extra]
    return ", ".join(found)


def machine_line() -> str:
    return f"{machine.nproc()} cores, {machine.cpu_model()}, {machine.memory()} memory"


def _utc(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


class Run:
    """What is known at a run's start: its command, date, commit and the machine's load."""

    def __init__(self, argv: Sequence[str] | None = None) -> None:
        args = list(sys.argv if argv is None else argv)
        self.command = command_line(args)
        self.script = relative(args[0]) if args and args[0] else "the runner"
        self.started = datetime.datetime.now(datetime.timezone.utc)
        self.commit = commit()
        self.load = machine.load_average()

    def header(
        self,
        tools: Sequence[str] = (),
        extra_versions: Sequence[tuple[str, str]] = (),
        notes: Sequence[str] = (),
        ended: datetime.datetime | None = None,
    ) -> list[str]:
        ended = ended or datetime.datetime.now(datetime.timezone.utc)
        seconds = max(0, round((ended - self.started).total_seconds()))
        lines = [
            f"- command: `{self.command}`",
            f"- date: {_utc(self.started)} (the run took {seconds} s)",
            f"- machine: {machine_line()}, {self.load} at start",
            f"- commit: {self.commit}",
            f"- versions: {versions(tools, extra_versions)}",
        ]
        return lines + [f"- {note}" for note in notes]


def section_text(run: Run, script: str, body: str, tools: Sequence[str] = (), extra_versions: Sequence[tuple[str, str]] = (), notes: Sequence[str] = ()) -> str:
    """What goes between the markers: a comment that the run wrote it, the header, the body."""
    comment = f"<!-- written by {script} --write-docs: the next run replaces everything up to the end marker -->"
    return "\n".join([comment, "", *run.header(tools, extra_versions, notes), "", body.strip("\n"), ""])


# --------------------------------------------------------------------------
# What a runner uses
# --------------------------------------------------------------------------


def add_options(parser: argparse.ArgumentParser, default: str = DOCS) -> None:
    rel = os.path.relpath(default, ROOT)
    parser.add_argument(
        "--write-docs",
        action="store_true",
        help=f"write the markdown tables into this benchmark's section of {rel} (implies --markdown)",
    )
    parser.add_argument("--docs-file", default=default, metavar="PATH", help=f"the page --write-docs writes into (default {rel})")


class _Tee(io.TextIOBase):
    """Writes to the real stream and keeps a copy."""

    def __init__(self, stream: IO[str]) -> None:
        super().__init__()
        self.stream = stream
        self.copy = io.StringIO()

    def write(self, text: str) -> int:
        self.copy.write(text)
        return self.stream.write(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.stream, "encoding", "utf-8") or "utf-8"


class Recorder:
    """One runner's section: created at the run's start (the command, date, commit and load are
    taken then), written at its end. Without ``--write-docs`` it writes nothing. ``tools``,
    ``extra_versions`` and ``notes`` may be added to before the end."""

    def __init__(self, args: argparse.Namespace, section: str, title: str | None = None, argv: Sequence[str] | None = None) -> None:
        markers(section)  # a bad name fails at the start, not after the run
        self.enabled = bool(getattr(args, "write_docs", False))
        self.path: str = getattr(args, "docs_file", DOCS)
        self.section = section
        self.title = title
        self.run = Run(argv)
        self.tools: list[str] = []
        self.extra_versions: list[tuple[str, str]] = []
        self.notes: list[str] = []
        if self.enabled and hasattr(args, "markdown"):
            args.markdown = True

    def write(self, body: str | Sequence[str]) -> None:
        if not self.enabled:
            return
        text = body if isinstance(body, str) else "\n".join(body)
        content = section_text(self.run, self.run.script, text, self.tools, self.extra_versions, self.notes)
        write_section(self.path, self.section, content, self.title)
        print(f"wrote section {self.section!r} of {self.path}", file=sys.stderr, flush=True)

    @contextmanager
    def capture(self) -> Iterator[None]:
        """Copy what the block prints to stdout (it is still printed); on a normal exit of the
        block, a ``return`` included, write the copy as the section's body. An exception
        leaves the page alone."""
        if not self.enabled:
            yield
            return
        saved: Any = sys.stdout
        tee = _Tee(saved)
        sys.stdout = tee
        try:
            yield
        finally:
            sys.stdout = saved
        self.write(tee.copy.getvalue())
