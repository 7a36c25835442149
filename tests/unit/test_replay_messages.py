"""A message that names the running interpreter's ``__main__`` file (``cannot import name 'G'
from '__main__' (/path)``) differs between the analysis, the replay and the user's run: the
replay compares it with that file's name replaced (``replay.portable_message``), where it
once reported a false mismatch (exit 3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pathloom.cli import main
from pathloom.replay import MAIN_FILE, portable_message

HELPER = """
def get() -> int:
    from __main__ import G
    return G
"""

USE = """
import main_naming_helper


def load(x: int) -> int:
    if x > 0:
        return main_naming_helper.get()
    return x
"""


def test_a_message_naming_main_replays_without_a_mismatch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "main_naming_helper.py").write_text(HELPER)
    (tmp_path / "use.py").write_text(USE)
    assert main(["explore", f"{tmp_path / 'use.py'}::load", "--verify"]) == 1
    out, err = capsys.readouterr()
    assert "raises ImportError: cannot import name 'G' from '__main__'" in out
    assert "all outcomes as predicted" in err


def test_portable_message_names_main_s_file_only() -> None:
    import __main__

    main_file = getattr(__main__, "__file__", None)
    assert portable_message(None) is None
    assert portable_message("plain text") == "plain text"
    if main_file is not None:
        assert portable_message(f"from '__main__' ({main_file})") == f"from '__main__' ({MAIN_FILE})"
