"""The Overview's headline figures, warning and offer to pin the task, from the engine's own
response and result."""

from compactor import run, validate
from compactor.engine._response import build_response
from compactor.samples import load_sample
from explorer.overview.widgets import metrics, protected_warning, unpinned_task


def dispatcher(**params):
    return run(validate(load_sample("dispatcher").request | params))


def test_a_met_budget_reads_met_in_green_and_the_protected_within_it():
    figures = {m.label: m for m in metrics(build_response(dispatcher()))}
    assert list(figures) == [
        "Characters out",
        "Messages out",
        "Retained characters",
        "Budget",
        "Protected characters",
    ]
    assert (figures["Budget"].value, figures["Budget"].delta_color) == ("met", "green")
    assert figures["Protected characters"].delta == "within the budget"
    assert figures["Retained characters"].delta is None
    assert protected_warning(build_response(dispatcher())["budget"]) is None


def test_protected_messages_over_the_budget_read_short_in_red_with_a_warning():
    response = build_response(dispatcher(keep_roles=["system", "user"], budget_chars=100))
    figures = {m.label: m for m in metrics(response)}
    short = response["budget"]["shortfall_chars"]
    assert (figures["Budget"].value, figures["Budget"].delta_color) == (
        f"short by {short:,}",
        "red",
    )
    assert figures["Protected characters"].delta == "exceed the budget"
    assert "every unprotected message is dropped" in protected_warning(response["budget"])


def test_the_task_is_offered_for_pinning_only_when_it_is_not_protected():
    result = dispatcher()
    first = next(t.index for t in result.messages if t.message.role == "user")
    assert unpinned_task(result, None) is None
    assert unpinned_task(result, first) == first  # pins only the system prompt and the last 2
    protected = dispatcher(keep_roles=["system", "user"])
    assert unpinned_task(protected, first) is None
