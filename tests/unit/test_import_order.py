"""Every module of pathloom imports on its own, first, in a fresh interpreter: no import
cycle that works only in the order the command line happens to import them
(``pathloom.semantics.step`` imported first failed: aggregates took ``int_text`` from a
half-initialized ``builtins``)."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import pathloom


def test_each_module_imports_first() -> None:
    names = sorted(m.name for m in pkgutil.walk_packages(pathloom.__path__, "pathloom.") if not m.name.endswith("__main__"))
    script = (
        "import importlib, subprocess, sys\n"
        "failed = []\n"
        "for name in sys.argv[1:]:\n"
        "    proc = subprocess.run([sys.executable, '-c', f'import {name}'], capture_output=True, text=True)\n"
        "    if proc.returncode:\n"
        "        failed.append(name + ': ' + (proc.stderr.strip().splitlines() or ['?'])[-1])\n"
        "print('\\n'.join(failed))\n"
    )
    proc = subprocess.run([sys.executable, "-c", script, *names], capture_output=True, text=True, cwd=Path(pathloom.__file__).parents[1], check=True)
    assert len(names) > 50
    assert proc.stdout.strip() == ""
