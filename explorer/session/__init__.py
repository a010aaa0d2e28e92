"""Session state: the loaded conversation, the parameters and the URL that reproduces them, the
sample library, and the cached engine calls. Imports the engine only. A page's own store or
cache is in its family's folder (``explorer.corpus.store``, ``explorer.replay.replay_cache``)."""
