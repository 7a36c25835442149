"""Compose against DSE on random programs built for it (``compose_programs``): helpers that
are summarized, called many ways; the same outcomes, coverage and predictions, every input
replaying in CPython, every replayed callee following its leaf.

``PATHLOOM_COMPOSE_PROGRAMS`` overrides the number of programs (default sized for about
half a minute on two cores).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pathloom.api import explore
from pathloom.compare import agree
from pathloom.options import Options
from pathloom.replay import verify

from .compose_programs import compose_program

PROGRAMS = int(os.environ.get("PATHLOOM_COMPOSE_PROGRAMS", "16"))


@pytest.mark.parametrize("seed", range(PROGRAMS))
def test_compose_agrees_with_dse(tmp_path: Path, seed: int) -> None:
    path = tmp_path / f"program{seed}.py"
    path.write_text(compose_program(seed))
    options = {"timeout": 60, "max_list_len": 3, "max_str_len": 3}
    dse = explore(str(path), "f", Options(engine="dse", **options))  # type: ignore[arg-type]
    composed = explore(str(path), "f", Options(engine="compose", **options))  # type: ignore[arg-type]
    assert agree(dse, composed) == []
    assert composed.complete == dse.complete
    assert verify(composed, str(path), "f") == []
    assert composed.stats["replay_divergences"] == 0
    assert composed.stats["replay_fallbacks"] == 0
