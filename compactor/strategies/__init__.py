"""Other ways to shrink a history, for comparison with memory-compact on the same conversation."""
