"""The Timeline page's family (``pages/timeline.py``): every input message in order, coloured by
fate, and one message picked to see why. Its module: ``detail`` (one message in detail: its fate
and why, its score, its nearest duplicate, its trim, its text); the timeline's frames and charts
are the shared views and sweeps (:mod:`explorer.frames.views`, :mod:`explorer.charts.views`)."""
