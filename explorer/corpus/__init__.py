"""The Corpus page's family (``pages/corpus.py``): evaluating a grid of settings over many
conversations and reading the results. Its modules: ``widgets`` (load a corpus, pick the grid,
run it), ``results`` (every setting against the frontier, one setting's worst conversations),
``strategy`` (another strategy of the registry over a grid of its own), ``frames`` and
``charts`` (pure pandas and Altair, no Streamlit) and ``store`` (corpora and their runs in the
workspace's SQLite file)."""
