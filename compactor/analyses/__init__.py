"""Analyses that read a compaction result and decide nothing new: sweeps, the walkthrough,
watched facts, tool pairing and A/B."""
