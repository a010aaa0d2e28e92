"""Hypothesis strategies: valid memory-compact requests that exercise every stage."""

from hypothesis import strategies as st

from compactor.contract import ROLES
from harness.pieces import PIECES, VOCABULARY  # noqa: F401  (the strategies' words)

content = st.lists(st.sampled_from(PIECES), min_size=1, max_size=60).map("".join).filter(bool)
message = st.fixed_dictionaries(
    {"role": st.sampled_from(ROLES), "content": content},
    optional={"id": st.text(max_size=8), "pin": st.booleans()},
)


@st.composite
def conversations(draw, min_size=2, max_size=10):
    """A list of messages in which some repeat earlier ones (so dedupe has work)."""
    messages = draw(st.lists(message, min_size=min_size, max_size=max_size))
    for i in range(1, len(messages)):
        if draw(st.integers(0, 4)) == 0:
            j = draw(st.integers(0, i - 1))
            messages[i] = {
                **messages[i],
                "role": messages[j]["role"],
                "content": messages[j]["content"],
            }
    return messages


@st.composite
def requests(draw, min_size=2, max_size=10):
    request = {
        "messages": draw(conversations(min_size, max_size)),
        "budget_chars": draw(st.integers(100, 3000)),
    }
    optional = {
        "keep_last_n": st.integers(0, 12),
        "keep_roles": st.lists(st.sampled_from(ROLES), max_size=4),
        "duplicate_threshold": st.sampled_from([0.5, 0.6, 2 / 3, 0.75, 0.8, 0.9, 1, 1.0])
        | st.floats(0.5, 1.0),
        "max_message_chars": st.integers(80, 300),
    }
    for name, strategy in optional.items():
        if draw(st.booleans()):
            request[name] = draw(strategy)
    return request
