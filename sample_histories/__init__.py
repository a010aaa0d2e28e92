"""The sample conversations, shipped as package data (compactor.sample_histories); see compactor.samples."""
