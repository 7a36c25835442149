"""The reporter interface: the CLI feeds every reporter the same events, in order."""

from __future__ import annotations

from typing import Protocol

from pathloom.results import Exploration, PathResult


class Reporter(Protocol):
    def start(self, exploration: Exploration) -> None: ...

    def path(self, exploration: Exploration, result: PathResult) -> None: ...

    def finish(self, exploration: Exploration) -> None: ...

    def close(self) -> None: ...
