"""The session keys of the view a link carries, written once: the widgets that own these
values (tuning's B controls, walkthrough step and watched phrases, the timeline's message
picker, the outcome views' k) draw with them, and :mod:`explorer.session.state` reads and
writes them for the URL."""

from __future__ import annotations

from collections.abc import Mapping

from compactor import contract
from explorer.session.conversation import PARAM_NAMES

#: Widget keys of the B controls on the A/B page.
B_KEYS: Mapping[str, str] = {name: f"ab_{name}" for name in PARAM_NAMES}
#: The conversation the B controls were set up for (a new conversation starts B as a copy of A).
B_FOR_KEY = "ab_conversation"
#: The walkthrough's step shown, one of :data:`STEPS` (the stages' order numbers).
STEP_KEY = "walkthrough_step"
STEPS = tuple(stage.order for stage in contract.STAGES)
#: The watched phrases' text box, one phrase a line, and the most characters it (or a link) holds.
PHRASES_KEY = "watched_phrases"
PHRASES_MAX_CHARS = 5_000
#: The Fate timeline's message picker: the message selected.
PICKER_KEY = "timeline_message"
#: The outcome views' k as the user (or a link) asked for it; each view's box shows it capped at
#: its conversation's n - 2 (:mod:`explorer.widgets.outcomes`).
FUTURE_WANTED_KEY = "outcomes_future_wanted"
#: The Recommend page's last winner on a corpus, as a point of the Corpus frontier chart
#: (:func:`explorer.recommend.frames.recommended_point`): the Corpus page labels it
#: "recommended" when it shows the same corpus. Not carried by a link (a search's result).
RECOMMENDED_POINT_KEY = "recommended_point"
