"""The Recommend page's family (``pages/recommend.py``): the goal form and the search's run
(``widgets``), and what it shows (``frames``: the check beside the defaults, keep-last and
random, the runners-up, the needs the winner keeps that the defaults lose; pure pandas)."""
