"""Bounds and batch sizes of the MultiSE engine, read as ``limits.NAME`` at run time (tests
lower them to force a code path)."""

COLLECT_EVERY = 1000  # steps between two restrictions of the state to the running paths
SHARING_WALK_MAX_NODES = 500_000  # BDD nodes (summed per guard) the sharing-factor count may walk
RECENT_HINTS = 4  # recent models from which a model-guided path is tried when the entry's fails
# a connective of a branch condition whose BDD operation would exceed these (operand sizes
# multiplied, result nodes) becomes one opaque atom (``MultiSECore._opaque_atom``)
GUARD_PRODUCT_LIMIT = 1_000_000
GUARD_SIZE_LIMIT = 20_000
# A result guard with more BDD nodes is not stated whole: its formula would take gigabytes
# (tree/max_height.py of the real-code corpus: 2.25M nodes, a MemoryError at 3 GB)
RESULT_GUARD_LIMIT = 200_000
CUBE_BATCH = 32  # results whose guards are plain cubes, from which on they are solved as a batch
# The results phase solves the inputs of what was found even after --timeout, for at most this
# share of --timeout more (or until --timeout, if exploration ended earlier): a result still
# unsolved then is an ``unknown`` path (on gcd with nonlinear ``%``, each of hundreds of
# results' queries took the solver's whole timeout: the run never ended).
RESULTS_GRACE = 0.5
