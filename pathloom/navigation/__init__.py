"""Loop navigation (issue 14): reach a line, or an assert's failure, through loops, or prove it
unreachable. ``reach.reach_targets`` is the entry; the paper's algorithm (Obdržálek and Trtík,
"Efficient Loop Navigation for Symbolic Execution") lives in ``chains``, ``recurrence``,
``constraints`` and ``navigator``; ``fallback`` answers with an existing engine where it does
not apply."""
