"""Generated tests build input objects by calling their class where its ``__init__`` sets
exactly the fields (``report.constructors``): ``Node(1, Node(2, None))``, as a user writes
them (issue 29, item 6); any other class, and any cyclic graph, keeps ``object.__new__`` and
one assignment per field, as the replay builds it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from pathloom.cli import main
from pathloom.report.constructors import constructor_fields

CLASSES = '''
from dataclasses import dataclass, field


class Node:
    """A cell."""

    def __init__(self, val: int, next: "Node | None") -> None:
        """Docstrings are fine."""
        self.val = val
        self.next = next


class Swapped:
    def __init__(self, a: int, b: int) -> None:
        self.b = b
        self.a = a


class Counted:
    made = 0

    def __init__(self, a: int) -> None:
        self.a = a
        Counted.made += 1


class Doubled:
    def __init__(self, a: int) -> None:
        self.a = a * 2


class Guarded:
    def __init__(self, a: int) -> None:
        self.a = a

    @property
    def a(self) -> int:
        return self._a

    @a.setter
    def a(self, value: int) -> None:
        self._a = abs(value)


class Child(Node):
    pass


@dataclass(frozen=True)
class Point:
    x: int
    y: int = 0


@dataclass
class Bag:
    items: list[int] = field(default_factory=list)


@dataclass
class Checked:
    n: int

    def __post_init__(self) -> None:
        assert self.n >= 0
'''


def test_only_constructors_that_set_exactly_their_fields_qualify() -> None:
    assert constructor_fields(CLASSES) == {"Node": ["val", "next"], "Swapped": ["a", "b"], "Point": ["x", "y"]}


LINKED = """
class Node:
    def __init__(self, val: int, next: "Node | None") -> None:
        self.val = val
        self.next = next


def second(head: Node) -> int:
    if head.next is not None and head.next.val > head.val:
        return head.next.val
    return head.val


def same(a: Node, b: Node) -> bool:
    return a is b
"""


def test_tests_build_objects_by_their_constructor_and_pass(tmp_path: Path) -> None:
    source = tmp_path / "linked.py"
    source.write_text(LINKED)
    tests = tmp_path / "test_linked.py"
    assert main(["explore", str(source), "--tests", str(tests), "--quiet"]) == 0
    text = tests.read_text()
    assert text.count("object.__new__(_module.Node)") == 1  # the one cyclic input, head.next = head
    assert re.search(r"_module\.second\(head=_module\.Node\(-?\d+, _module\.Node\(-?\d+, None\)\)\)", text)  # nested, inline
    assert "node1 = _module.Node(" in text and "_module.same(a=node1, b=node1)" in text  # shared: one variable
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tests)], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0 and " passed" in run.stdout, run.stdout + run.stderr
