"""The package face exports what the explorer and the CLI build on, and nothing missing."""

import compactor.analyses.outcomes as outcomes


def test_the_face_exports_exactly_its_names():
    assert sorted(outcomes.__all__) == sorted(set(outcomes.__all__))
    for name in outcomes.__all__:
        assert hasattr(outcomes, name), name
    for name in (
        "continuation_check",
        "find_needs",
        "judge_lengths",
        "judge_outcome",
        "judge_spans",
        "replay_misses",
        "parse_probes",
        "probe_outcomes",
        "probe_curve",
        "probe_recall_outcome",
        "role_balance",
        "outcomes",
    ):
        assert name in outcomes.__all__
