"""The compose engine's statistics: DSE's, plus the figures of Table I of Qiu et al. (ICSE
2015): solver calls and time split into init (building the callees' trees) and composition,
sub-method invocations replayed, tree nodes compressed and not, and the counters of how each
leaf check was answered. Invariant: ``time_s`` covers init and composition."""

from __future__ import annotations

from dataclasses import dataclass, field

from pathloom.engine_stats import ForkingStats


@dataclass
class ComposeStats(ForkingStats):
    init_time_s: float = 0.0
    composition_time_s: float = 0.0
    init_solver_calls: int = 0
    composition_solver_calls: int = 0
    answered_from_store: bool = False
    trees_built: int = 0
    trees_from_store: int = 0
    summarized: list[str] = field(default_factory=list)
    not_summarized: list[str] = field(default_factory=list)
    sub_method_invocations: int = 0
    region_executions: int = 0
    inline_calls: int = 0
    leaf_checks: int = 0
    leaves_refuted_without_solver: int = 0
    witness_hits: int = 0
    compressed_tree_nodes: int = 0
    tree_nodes: int = 0
    replay_divergences: int = 0
    replay_fallbacks: int = 0
    pruned_leaves: int = 0
