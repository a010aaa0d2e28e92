"""Where the tests find the project and the shared material (read in place, never copied)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
GOLDEN = SHARED / "golden"
CORPUS = SHARED / "corpus"
SEEDS = SHARED / "seeds"
REAL_COMPACTIONS = SHARED / "real-compactions"
