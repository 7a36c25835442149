"""The real module behind an analysed file, imported the way pytest imports a test module.

A file inside a package (directories holding ``__init__.py``) is imported by its dotted
package path with the package root first on ``sys.path``, so its relative imports work. A file
outside any package, or one whose name is not an identifier or shadows a module already
imported (``string.py``), is imported from its path under a unique name derived from the whole
path (``pathloom_mod_<digest>_<stem>``), with its directory first on ``sys.path`` so that its
sibling imports work; two ``sol1.py`` of different folders never collide.

Invariant: the analyser imports a file in its own process only after a child process
(``python -m pathloom.frontend.realmodule FILE``, no standard input, a time limit) imported it
successfully; a module that raises, blocks or needs a missing package is reported as one line,
``FILE: cannot import module: <Exception>: <message>`` (exit 2), and never run in-process.
Whatever the module prints while it is imported is discarded.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.util
import io
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from pathloom.errors import UsageError

IMPORT_TIMEOUT_S = 20.0


def import_plan(path: str) -> tuple[str, str, bool]:
    """(directory to put first on ``sys.path``, module name, whether the name is a package path)."""
    file = Path(path).resolve()
    parts = [file.stem]
    directory = file.parent
    while (directory / "__init__.py").is_file() and directory.name.isidentifier():
        parts.insert(0, directory.name)
        directory = directory.parent
    if len(parts) > 1 and file.stem.isidentifier():
        return str(directory), ".".join(parts), True
    digest = hashlib.sha1(str(file).encode()).hexdigest()[:10]
    stem = "".join(c if c.isalnum() or c == "_" else "_" for c in file.stem)
    return str(file.parent), f"pathloom_mod_{digest}_{stem}", False


def import_real(path: str, keep_path: bool = False, analyser: bool = True) -> ModuleType:
    """Import ``path`` in this process (no check; see :func:`load_checked`). The file's folder
    (or package root) is first on ``sys.path`` while it is imported, and stays there only with
    ``keep_path`` (a process that runs the user's code, as pytest's does). In the analyser's
    process (``analyser``) pathloom's own dependencies are imported first, so that a ``z3.py``
    or ``dd.py`` beside the file cannot shadow them; the checking child skips that (it runs no
    analysis, and its import is then the user's own, 0.2 s sooner)."""
    root, name, is_package_path = import_plan(path)
    if name in sys.modules:
        return sys.modules[name]
    if analyser:
        _import_own_dependencies()
    sink = io.StringIO()
    saved = list(sys.path)
    sys.path.insert(0, root)
    try:
        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            return _import(path, name, is_package_path)
    finally:
        # the analysed file's folder may hold a 'dd.py' or 'z3.py': it must not shadow pathloom's
        # own imports after this one
        if not keep_path:
            sys.path[:] = saved


def _import_own_dependencies() -> None:
    """Import what pathloom imports lazily, before a user folder comes first on the path."""
    import dd.autoref  # noqa: F401
    import z3  # noqa: F401

    try:
        import dd.cudd  # noqa: F401
    except ImportError:
        pass


def _import(path: str, name: str, is_package_path: bool) -> ModuleType:
    if is_package_path:
        return importlib.import_module(name)
    spec = importlib.util.spec_from_file_location(name, str(Path(path).resolve()))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def check_importable(path: str, timeout_s: float = IMPORT_TIMEOUT_S) -> str | None:
    """None if a child process imports ``path`` within the time limit, else why not (one line)."""
    env = dict(os.environ)
    package_root = str(Path(__file__).resolve().parent.parent.parent)
    env["PYTHONPATH"] = package_root + os.pathsep + env.get("PYTHONPATH", "")
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "pathloom.frontend.realmodule", os.path.abspath(path)],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout_s,
            env=env,
        )
    except subprocess.TimeoutExpired:
        return f"the import did not finish within {timeout_s:g} s"
    if proc.returncode == 0:
        return None
    lines = [line for line in proc.stderr.strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else f"the importing process exited with status {proc.returncode}"


def load_checked(path: str) -> ModuleType:
    """The real module of ``path``: checked in a child process, then imported here."""
    why = check_importable(path)
    if why is not None:
        raise UsageError(f"{path}: cannot import module: {why}")
    try:
        return import_real(path)
    except KeyboardInterrupt:
        raise  # Ctrl-C while importing: the run is interrupted, not the module broken
    except BaseException as exc:  # noqa: BLE001 - the child imported it; this process did not
        raise UsageError(f"{path}: cannot import module: {type(exc).__name__}: {exc}") from None


def _child(path: str) -> int:
    try:
        import_real(path, analyser=False)
    except BaseException as exc:  # noqa: BLE001 - whatever the import raised is the answer
        sys.stderr.write(f"{type(exc).__name__}: {exc}\n".replace("\n", " ").strip() + "\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(_child(sys.argv[1]))
