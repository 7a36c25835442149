"""Compose against DSE on random programs built for it (``compose_programs``): helpers that
are summarized, called many ways; the same outcomes, coverage and predictions, every input
replaying in CPython, every replayed callee following its leaf.

``PATHLOOM_COMPOSE_PROGRAMS`` and ``PATHLOOM_COMPOSE_OBJECT_PROGRAMS`` override the numbers of
programs (defaults sized for about half a minute each on two cores).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pathloom.results import Exploration

from .compose_fuzz import OBJECT_OPTIONS, PROGRAM_OPTIONS, problems, run_both
from .compose_object_programs import compose_object_program
from .compose_programs import compose_program

PROGRAMS = int(os.environ.get("PATHLOOM_COMPOSE_PROGRAMS", "16"))
OBJECT_PROGRAMS = int(os.environ.get("PATHLOOM_COMPOSE_OBJECT_PROGRAMS", "8"))


@pytest.mark.parametrize("seed", range(PROGRAMS))
def test_compose_agrees_with_dse(tmp_path: Path, seed: int) -> None:
    _check(tmp_path, compose_program(seed), seed, PROGRAM_OPTIONS)


@pytest.mark.parametrize("seed", range(OBJECT_PROGRAMS))
def test_compose_over_input_objects_agrees_with_dse(tmp_path: Path, seed: int) -> None:
    """Helpers of input objects summarized with heap path conditions (``compose_object_programs``)."""
    composed = _check(tmp_path, compose_object_program(seed), seed, OBJECT_OPTIONS)
    assert composed.stats["summarized"] and composed.stats["sub_method_invocations"]  # every helper is summarizable


def _check(tmp_path: Path, source: str, seed: int, options: dict[str, object]) -> Exploration:
    path = tmp_path / f"program{seed}.py"
    path.write_text(source)
    dse, composed = run_both(path, options)
    assert problems(path, dse, composed) == []
    return composed
