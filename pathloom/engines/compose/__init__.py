"""Compositional symbolic execution with memoized replay (``engine``): memoization trees
(``tree``), which functions get one (``purity``), and the witness solver layer (``witness``)."""
