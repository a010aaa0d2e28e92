"""The sample conversations, shipped as package data (``compactor.sample_histories``); read
them with :mod:`compactor.samples`."""
