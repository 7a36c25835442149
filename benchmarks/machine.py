"""What the benchmark runners print about the run: the command, the date, the machine and the
pathloom revision, so that a table in the README says what produced it."""

from __future__ import annotations

import datetime
import os
import platform
import shlex
import subprocess
import sys
from typing import List, Sequence

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def git_revision() -> str:
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "pathloom"], cwd=ROOT, capture_output=True, text=True)
        if rev.returncode != 0:
            return "?"
        return rev.stdout.strip() + (" (pathloom/ has uncommitted changes)" if dirty.stdout.strip() else "")
    except OSError:
        return "?"


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def nproc() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 0


def memory() -> str:
    """The machine's memory (MemTotal of /proc/meminfo, else the physical pages), in GiB."""
    total = 0
    try:
        with open("/proc/meminfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    total = int(line.split()[1]) * 1024
                    break
    except (OSError, ValueError, IndexError):
        pass
    if not total:
        try:
            total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        except (AttributeError, OSError, ValueError):
            return "? GiB"
    return f"{total / 2**30:.1f} GiB"


def z3_version(missing: str) -> str:
    try:
        import z3

        return str(z3.get_version_string())
    except Exception:  # noqa: BLE001
        return missing


def load_average() -> str:
    try:
        return "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    except OSError:
        return "load average ?"


def header(argv: Sequence[str], markdown: bool, machine: str) -> List[str]:
    """The lines above a table: the command (the interpreter relative to the working
    directory when it lies below it), the local date and ``machine``."""
    exe = sys.executable
    rel = os.path.relpath(exe)
    if not rel.startswith(".."):
        exe = rel
    command = shlex.join([exe] + list(argv))
    now = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    if markdown:
        return [f"`{command}` — {now} — {machine}", ""]
    return [f"command: {command}", f"date: {now}", f"machine: {machine}", ""]
