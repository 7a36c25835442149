"""Options from ``[tool.pathloom]`` of the nearest ``pyproject.toml``.

The nearest file is the first ``pyproject.toml`` found from the working directory upwards
(as pytest, ruff and mypy look for theirs). Each key names a command-line option, with
dashes or underscores (``max-iterations = 20``, ``no_timeout = true``); its value has the
option's type (a TOML string, number or boolean; a list of strings for a repeatable option
such as ``exclude``) and is checked as the command line would check it. The command line
wins over the file. A key that is no option of any command, or a value of the wrong type,
stops the run with one line naming the file and the key; a key of another command than the
one run (``line`` for ``reach``) is left alone.

Invariant: a run reads at most one file, and an option given on the command line always has
the command line's value.
"""

from __future__ import annotations

import argparse
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pathloom.errors import UsageError

NOT_OPTIONS = frozenset({"help", "target", "command", "action"})  # positionals and help are no keys


def nearest_pyproject(start: Path | None = None) -> Path | None:
    """The first ``pyproject.toml`` from ``start`` (the working directory) upwards."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def read_table(path: Path) -> dict[str, Any]:
    """The ``[tool.pathloom]`` table of ``path`` (empty when it has none)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"{path}: cannot read it: {exc}") from None
    table = data.get("tool", {}).get("pathloom", {})
    if not isinstance(table, dict):
        raise UsageError(f"{path}: [tool.pathloom] is not a table")
    return table


def apply(parser: argparse.ArgumentParser, argv: Sequence[str], table: dict[str, Any], where: Path) -> argparse.Namespace:
    """``argv`` parsed with the values of ``table`` as the chosen command's defaults."""
    args = parser.parse_args(argv)
    if not table:
        return args
    commands = subparsers(parser)
    known = {action.dest for sub in commands.values() for action in sub._actions} - NOT_OPTIONS
    chosen = commands.get(getattr(args, "command", None) or "")
    if chosen is None:
        return args
    actions = {action.dest: action for action in chosen._actions}
    defaults: dict[str, Any] = {}
    for key, value in table.items():
        dest = str(key).replace("-", "_")
        if dest not in known:
            raise UsageError(f"{where}: [tool.pathloom] unknown key {key!r} (keys are the command-line options, as 'max-iterations')")
        if dest in actions:
            defaults[dest] = _checked(actions[dest], value, key, where)
    chosen.set_defaults(**defaults)
    return parser.parse_args(argv)


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The parser of each command, by name."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _checked(action: argparse.Action, value: Any, key: str, where: Path) -> Any:
    """``value`` as the option's own parsing makes it, or a UsageError."""
    wrong = UsageError(f"{where}: [tool.pathloom] {key} = {value!r}: not a value of {'/'.join(action.option_strings)}")
    if isinstance(action, (argparse._StoreTrueAction, argparse._StoreFalseAction)):
        if not isinstance(value, bool):
            raise wrong
        return value
    if isinstance(action, argparse._AppendAction):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise wrong
        return [_one(action, v, wrong) for v in value]
    if isinstance(value, (bool, list, dict)):
        raise wrong
    return _one(action, value, wrong)


def _one(action: argparse.Action, value: Any, wrong: UsageError) -> Any:
    text = str(value)
    try:
        converted = action.type(text) if callable(action.type) else text
    except (UsageError, ValueError, TypeError, argparse.ArgumentTypeError):
        raise wrong from None
    if action.choices is not None and converted not in action.choices:
        raise wrong
    return converted
