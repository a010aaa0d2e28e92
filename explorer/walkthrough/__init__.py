"""The Walkthrough page's family (``pages/walkthrough.py``): the engine's walkthrough, step by
step, on a projector if need be. Its modules: ``frames`` (what each step did, pure pandas) and
``charts`` (the running total against the budget and every message's state, pure Altair); the
page's controls are the shared widgets."""
