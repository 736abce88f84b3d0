"""Shared test configuration: Hypothesis profiles (``ci`` loads itself when CI is set)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # the packages are importable without an install too
    sys.path.insert(0, str(ROOT))
TOOLS = Path(__file__).resolve().parent  # test tooling (pdf_tools), not installed
if str(TOOLS) not in sys.path:
    sys.path.insert(0, str(TOOLS))

# Commands run by the tests (in process and in subprocesses) skip importing torch (~2 s each);
# the torch cross-checks themselves are tested in process with torch=True.
os.environ.setdefault("TRANSFORMER_PROOFS_NO_TORCH", "1")

settings.register_profile("dev", max_examples=30, deadline=None)
settings.register_profile(
    "ci",
    max_examples=30,  # the whole suite has a 2-minute budget on 2 cores
    deadline=None,
    derandomize=True,  # CI must be reproducible: the same examples on every run
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))
