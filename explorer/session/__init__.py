"""Session state: the loaded conversation, the parameters and the URL that reproduces them, the
sample library, and the cached engine calls. Imports the engine only."""
