"""The frozen options object every command builds from its arguments and hands to the library."""

from __future__ import annotations

from dataclasses import dataclass

#: Seconds per target when no timeout is given (``--timeout``); ``None`` (``--no-timeout``)
#: means no limit. An infinite loop whose control is concrete is stopped only by it.
DEFAULT_TIMEOUT_S = 60.0


@dataclass(frozen=True)
class Options:
    engine: str = "dse"
    strategy: str | None = None  # dfs | bfs | random | coverage | topo; None: the engine's default
    compaction: bool = True  # MultiSE: join equal values and merge pc entries
    seed: int = 0
    timeout: float | None = DEFAULT_TIMEOUT_S  # wall-clock seconds for the exploration; None: no limit
    solver_timeout_ms: int = 10_000  # per query; a timeout is an `unknown` path, never a dropped one
    max_iterations: int = 10  # per loop per path: symbolic decisions after this many iterations cut
    max_depth: int = 32  # call depth
    max_list_len: int = 4  # symbolic length bound of list inputs
    max_str_len: int = 6  # length bound of str inputs
    max_dict_len: int = 4  # entries bound of dict inputs
    max_paths: int | None = None  # stop after this many finished paths
    max_concretizations: int = 4  # values per concretization site per path; more is a `concretized` cut
    solver_layers: tuple[str, ...] = ("independence", "cache", "cex")
    # the leading asserts of the target are preconditions: inputs violating them are no bugs
    preconditions: bool = True
    heap: str = "pose"  # input objects: pose (path-optimal ite heap) | lazier (lazier#) | lazy (lazy initialization)
    max_objects: int = 16  # input objects per class a path may assume distinct; more is a reported cut
    receiver: str = "constructor"  # self of a method target: built by its constructor | an input object
    # compose: the SQLite summary store (None: none; the CLI's default is beside the project)
    store: str | None = None
    # compose: the paper's target heuristics for error detection (h1: error paths of a callee's
    # tree first; h2: only them, the other paths pruned and reported as cut)
    target_heuristic: str | None = None

    def validate(self) -> None:
        from pathloom.errors import UsageError

        if self.timeout is not None and self.timeout <= 0:
            raise UsageError("--timeout must be a positive number of seconds")
        for name in ("max_iterations", "max_depth"):
            if getattr(self, name) < 1:
                raise UsageError(f"--{name.replace('_', '-')} must be at least 1")
        if self.max_list_len < 0 or self.max_str_len < 0 or self.max_dict_len < 0:
            raise UsageError("--max-list-len, --max-str-len and --max-dict-len must be at least 0")
        if self.max_paths is not None and self.max_paths < 1:
            raise UsageError("--max-paths must be at least 1")
        if self.strategy not in (None, "dfs", "bfs", "random", "coverage", "topo"):
            raise UsageError(f"--strategy must be one of dfs, bfs, random, coverage, topo (got {self.strategy!r})")
        if self.heap not in ("pose", "lazier", "lazy"):
            raise UsageError(f"--heap must be one of pose, lazier, lazy (got {self.heap!r})")
        if self.receiver not in ("constructor", "object"):
            raise UsageError(f"--receiver must be constructor or object (got {self.receiver!r})")
        if self.max_objects < 1:
            raise UsageError("--max-objects must be at least 1")
        if self.target_heuristic not in (None, "h1", "h2"):
            raise UsageError(f"--target-heuristic must be h1 or h2 (got {self.target_heuristic!r})")
        if self.target_heuristic is not None and self.engine != "compose":
            raise UsageError("--target-heuristic needs --engine compose")
        if self.strategy == "topo" and self.engine == "dse":
            raise UsageError("--strategy topo needs --engine multise")


def chosen_timeout(timeout: float | None, no_timeout: bool) -> float | None:
    """The time limit the command-line flags ask for: ``--timeout S``, none with
    ``--no-timeout``, else ``DEFAULT_TIMEOUT_S``; both flags together are a usage error."""
    from pathloom.errors import UsageError

    if no_timeout and timeout is not None:
        raise UsageError("usage error: --timeout and --no-timeout together")
    return None if no_timeout else timeout if timeout is not None else DEFAULT_TIMEOUT_S
