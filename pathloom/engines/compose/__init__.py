"""Compositional symbolic execution with memoized replay (``engine``): memoization trees
(``tree``), which functions get one (``purity``), the summary store (``store``, ``location``,
``summaries_command``)."""
