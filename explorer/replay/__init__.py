"""The Replay page's family (``pages/replay.py``): a conversation replayed turn by turn under one
or two loops, with what each turn sends, the cache-reusable prefix and the drift. Its
modules: ``widgets`` (the loops and the seeds/003 loop's button), ``panels`` (what the
page shows of the replays: summary, charts, drift, tables, history), ``frames`` and ``charts``
(pure pandas and Altair, no Streamlit), ``runs`` (the loops and one loop replayed, plain
functions) and ``replay_cache`` (the replays kept across reruns)."""
