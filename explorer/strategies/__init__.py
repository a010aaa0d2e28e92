"""The Strategies page's family (``pages/strategies.py``): other ways to shrink a history beside
memory-compact. Its modules: ``widgets`` (the options of the seed-003 trim and of semantic dedupe,
the comparison they ask for, its tables) and ``frames`` (LLM compact beside memory-compact and
the anchors its summary lost, pure pandas); the comparison's frames and charts are shared
(:mod:`explorer.frames.compare`, :mod:`explorer.charts.compare`)."""
