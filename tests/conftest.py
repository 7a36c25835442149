"""Shared test helpers: the repository root and the example files."""

from __future__ import annotations

import os
from pathlib import Path

# Every function the suite lowers is validated by frontend.ircheck (in child processes too).
os.environ["PATHLOOM_CHECK_IR"] = "1"
import pathloom.frontend.module  # noqa: E402

pathloom.frontend.module.CHECK_IR = True

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
