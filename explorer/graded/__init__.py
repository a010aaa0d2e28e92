"""The Graded compactions page's family (``pages/graded.py``): a recorded compaction against every
strategy at its size. Its module: ``frames`` (the history before the recorded compaction, and the
recorded summary beside every strategy; pure pandas)."""
