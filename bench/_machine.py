"""What the benchmark scripts share: the machine's CPU model and a timing loop.

The scripts run as ``python bench/NAME.py``, so this folder is on their path.
"""

from __future__ import annotations

import sys
from pathlib import Path

# The benchmarks build their corpora with the test fixtures (tests/fixtures), which are not installed.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import platform
import statistics
import time


def cpu_model() -> str:
    """The CPU model from /proc/cpuinfo, else what platform knows."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def best_and_median(fn, repeat: int) -> tuple[float, float]:
    """Minimum and median seconds of ``repeat`` calls of ``fn`` after one untimed warm-up call."""
    fn()  # warm-up (imports, first allocations)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)
