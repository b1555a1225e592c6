"""A small corpus with a time column whose vocabulary and label mix change: for the tests of
versions and monitoring (tests/test_versions.py, tests/test_monitor.py)."""

from __future__ import annotations

import numpy as np
import pandas as pd

COMMON = [f"c{i}" for i in range(12)]
WORDS = {"ham": [f"h{i}" for i in range(8)], "spam": [f"s{i}" for i in range(8)]}
NEW = [f"n{i}" for i in range(6)]  # words that appear only from the third month on


def corpus(seed: int = 0, months: int = 4, per_month: int = 30, start: int = 0) -> pd.DataFrame:
    """Documents (doc_id, text, label, sent): months 1 and 2 of 2024 are 70% ham and use the
    training words only; later months are 30% ham and a third of their words are new."""
    rng = np.random.default_rng(seed)
    rows = []
    for month in range(months):
        drifted = month >= 2
        for i in range(per_month):
            label = "ham" if rng.random() < (0.3 if drifted else 0.7) else "spam"
            n = int(rng.integers(3, 9))
            words = []
            for _ in range(n):
                r = rng.random()
                pool = NEW if drifted and r < 0.33 else WORDS[label] if r < 0.7 else COMMON
                words.append(str(pool[int(rng.integers(len(pool)))]))
            sent = pd.Timestamp(2024, month + 1, int(rng.integers(1, 28)), int(rng.integers(0, 24)))
            rows.append((start + month * per_month + i, " ".join(words), label, sent))
    return pd.DataFrame(rows, columns=["doc_id", "text", "label", "sent"])
