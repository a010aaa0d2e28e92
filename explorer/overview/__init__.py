"""The Overview page's family (``pages/overview.py``, and ``app.py`` while it still draws the
Overview itself): what the compaction kept, in numbers, stage by stage and message by message.
Its module: ``widgets`` (what the page shows and what to try, the headline figures, each stage,
the output against the budget, every message's fate, the offer to pin the task); its frames and
charts are the shared views (:mod:`explorer.frames.views`, :mod:`explorer.charts.views`)."""
