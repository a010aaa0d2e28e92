"""Invariants of the contract, stated in its words, over random valid and invalid requests."""

import copy
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from compactor import InvalidRequest, compact, run, validate
from compactor.engine import build_response
from tests.generate import requests

EXAMPLES = settings(max_examples=300, deadline=None)


@EXAMPLES
@given(requests())
def test_every_returned_content_is_a_prefix_of_its_input(request):
    response = compact(request)
    for m in response["messages"]:
        original = request["messages"][m["index"]]["content"]
        assert original.startswith(m["content"])
        assert m["chars"] == len(m["content"]) and m["original_chars"] == len(original)


@EXAMPLES
@given(requests())
def test_protected_messages_are_returned_verbatim(request):
    response = compact(request)
    out = {m["index"]: m for m in response["messages"]}
    for i in response["stages"][0]["protected_indices"]:
        assert out[i]["content"] == request["messages"][i]["content"]
        assert out[i]["kept"] == "verbatim" and out[i]["protected"] is True


@EXAMPLES
@given(requests())
def test_the_accounting_identities_hold(request):
    response = compact(request)
    loss, budget = response["loss"], response["budget"]
    assert loss["input_messages"] == loss["output_messages"] + loss["dropped_messages"]
    assert (
        loss["input_chars"]
        == loss["output_chars"] + loss["dropped_chars"] + loss["truncated_chars"]
    )
    assert loss["output_messages"] == loss["trimmed_messages"] + loss["verbatim_messages"]
    assert loss["output_chars"] == sum(m["chars"] for m in response["messages"])
    assert budget["budget_met"] == (budget["output_chars"] <= budget["budget_chars"])
    assert budget["shortfall_chars"] == max(0, budget["output_chars"] - budget["budget_chars"])
    assert budget["budget_met"] or budget["protected_exceeds_budget"]
    removed = response["stages"][1]["removed_messages"] + response["stages"][3]["dropped_messages"]
    assert removed == loss["dropped_messages"]


@EXAMPLES
@given(requests())
def test_the_result_is_a_pure_function_of_the_request(request):
    before = copy.deepcopy(request)
    first = json.dumps(compact(request), ensure_ascii=False)
    again = json.dumps(compact(copy.deepcopy(request)), ensure_ascii=False)
    assert first == again
    assert request == before  # the request is not modified


@EXAMPLES
@given(requests(), st.integers(1, 5000))
def test_raising_the_budget_never_removes_a_kept_message(request, more):
    lower = run(validate(request))
    higher = run(
        validate({**request, "budget_chars": min(400_000, request["budget_chars"] + more)})
    )
    kept_low = {t.index for t in lower.survivors}
    kept_high = {t.index for t in higher.survivors}
    assert kept_low <= kept_high


@EXAMPLES
@given(requests())
def test_fates_agree_with_the_response(request):
    result = run(validate(request))
    response = build_response(result)
    assert [t.index for t in result.survivors] == [m["index"] for m in response["messages"]]
    for trace in result.messages:
        if trace.fate == "duplicate":
            assert trace.nearest.similarity >= result.request.params.duplicate_threshold
        assert trace.survived == (trace.fate in ("protected", "verbatim", "trimmed"))


# --- invalid requests ----------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=12,
)

MUTATIONS = {
    "drop budget": lambda r: ({k: v for k, v in r.items() if k != "budget_chars"}, "budget_chars"),
    "boolean budget": lambda r: ({**r, "budget_chars": True}, "budget_chars"),
    "budget too small": lambda r: ({**r, "budget_chars": 99}, "budget_chars"),
    "budget too large": lambda r: ({**r, "budget_chars": 400_001}, "budget_chars"),
    "fractional budget": lambda r: ({**r, "budget_chars": 100.5}, "budget_chars"),
    "string threshold": lambda r: ({**r, "duplicate_threshold": "0.9"}, "duplicate_threshold"),
    "threshold too low": lambda r: ({**r, "duplicate_threshold": 0.49}, "duplicate_threshold"),
    "nan threshold": lambda r: ({**r, "duplicate_threshold": float("nan")}, "duplicate_threshold"),
    "keep_last_n too big": lambda r: ({**r, "keep_last_n": 51}, "keep_last_n"),
    "too many keep_roles": lambda r: ({**r, "keep_roles": ["user"] * 5}, "keep_roles"),
    "unknown role kept": lambda r: ({**r, "keep_roles": ["bot"]}, "keep_roles[0]"),
    "max chars too small": lambda r: ({**r, "max_message_chars": 79}, "max_message_chars"),
    "unknown field": lambda r: ({**r, "extra": 1}, "extra"),
    "one message": lambda r: ({**r, "messages": r["messages"][:1]}, "messages"),
    "too many messages": lambda r: ({**r, "messages": r["messages"] * 101}, "messages"),
    "empty content": lambda r: (_with_message(r, content=""), "messages[0].content"),
    "long content": lambda r: (_with_message(r, content="x" * 8001), "messages[0].content"),
    "bad role": lambda r: (_with_message(r, role="bot"), "messages[0].role"),
    "long id": lambda r: (_with_message(r, id="i" * 129), "messages[0].id"),
    "string pin": lambda r: (_with_message(r, pin="yes"), "messages[0].pin"),
    "unknown message field": lambda r: (_with_message(r, name="x"), "messages[0].name"),
    "not an object": lambda r: (r["messages"], "$"),
}


def _with_message(request, **changes):
    first = {**request["messages"][0], **changes}
    return {**request, "messages": [first, *request["messages"][1:]]}


@EXAMPLES
@given(requests(), st.sampled_from(sorted(MUTATIONS)))
def test_an_invalid_request_raises_invalid_request_naming_the_path(request, mutation):
    broken, path = MUTATIONS[mutation](request)
    try:
        compact(broken)
    except InvalidRequest as error:
        assert path in [p.path for p in error.problems], error.problems
        assert all(isinstance(p.message, str) and p.message for p in error.problems)
    else:
        raise AssertionError(f"{mutation} was accepted")


@EXAMPLES
@given(json_values | st.fixed_dictionaries({"messages": json_values, "budget_chars": json_values}))
def test_any_value_either_compacts_or_raises_invalid_request(value):
    try:
        compact(value)
    except InvalidRequest as error:
        assert error.problems
