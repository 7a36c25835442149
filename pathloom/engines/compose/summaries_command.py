"""``pathloom summaries list|clear``: what the compose engine's summary store holds."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from pathloom.engines.compose.location import default_store_path
from pathloom.engines.compose.store import SummaryStore


def summaries_command(action: str, store: str | None) -> int:
    path = Path(store) if store is not None else default_store_path(Path.cwd())
    if not path.exists():
        print(f"{path}: no summary store")
        return 0
    with SummaryStore(path) as opened:
        if action == "clear":
            print(f"{path}: {opened.clear()} summaries removed")
            return 0
        rows = opened.rows()
        print(f"{path}: {len(rows)} summaries")
        for row in rows:
            used = time.strftime("%Y-%m-%d %H:%M", time.localtime(row.used))
            what = "not summarizable" if row.kind == "tree" and row.leaves == 0 else f"{row.leaves} leaves"
            print(f"  {row.kind:4}  {row.file}::{row.qualname}  {what}, {row.hits} reuse(s), last used {used}")
    sys.stdout.flush()
    return 0
