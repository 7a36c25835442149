"""Heap models are plug-ins of the input-object semantics (``semantics.input_heap``): each
registered name loads a policy, the command line offers exactly the registered ones, and a
second registration of a name is refused."""

from __future__ import annotations

import pytest

from pathloom.command import build_parser
from pathloom.semantics import input_heap


def test_the_command_line_offers_the_registered_heap_models() -> None:
    parser = build_parser()
    explore = next(
        a
        for a in parser._subparsers._group_actions[0].choices["explore"]._actions  # type: ignore[union-attr]
        if "--heap" in a.option_strings
    )
    assert tuple(explore.choices) == input_heap.model_names() == ("pose", "lazier", "lazy")  # type: ignore[arg-type]
    assert explore.default == input_heap.model_names()[0]


def test_each_model_loads_a_policy() -> None:
    for name in input_heap.model_names():
        policy = input_heap.policy(name)
        assert isinstance(policy.forks_on_read, bool)
        assert callable(policy.resolve) and callable(policy.alias)
    assert input_heap.policy("lazy").forks_on_read and not input_heap.policy("lazier").forks_on_read
    assert input_heap.policy("pose").resolve(None, [], "deref") is None  # type: ignore[arg-type]


def test_a_model_name_is_registered_once() -> None:
    with pytest.raises(ValueError, match="registered twice"):
        input_heap.register_model("pose", "pathloom.heap.pose:POSE")
