"""Analyses that read a compaction result and decide nothing new: sweeps, walkthrough, watched facts, tool pairing, A/B."""
