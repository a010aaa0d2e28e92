"""Seeded, realistic ASCII prose for benchmarks and the largest sample: support, incident and
release conversations with names, ids, times and sentence ends, and tool output as log lines.

Everything is drawn from one ``random.Random``, so a seed always gives the same text.
"""

from __future__ import annotations

import random

_NAMES = ["Alice", "Bruno", "Chen", "Dana", "Emil", "Farah", "Greta", "Hiro", "Ines", "Jonas"]
_CITIES = ["Hamburg", "Lyon", "Porto", "Berlin", "Oslo", "Madrid", "Vienna", "Gdansk", "Turin"]
_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
_SERVICES = ["checkout", "search", "billing", "shipping", "auth", "inventory", "notifications"]
_THINGS = {
    "support": ["parcel", "replacement", "return", "delivery", "second parcel", "spare part"],
    "incident": ["replica", "queue", "connection pool", "cache", "load balancer", "cron job"],
    "release": ["migration", "feature flag", "build", "changelog", "rollback plan", "canary"],
    "planning": ["budget", "roadmap", "headcount", "vendor contract", "workshop", "forecast"],
}
_TEMPLATES = {
    "support": [
        "The {thing} for order {id} left our warehouse in {city} on {day} at {time}.",
        "{name} asked whether the {thing} could come on {day}, as nobody is home before {time}.",
        "The carrier's scans show the {thing} was held at the depot because the van was full.",
        "We can offer a voucher of {num} euros for the delay, or refund the shipping cost instead.",
        "Could you confirm the address on file is still correct before we book a new slot?",
        "The customer was polite but tired of calling, so I promised a call back by {time}.",
        "Our policy allows a goodwill gesture when a {thing} is more than five working days late.",
        "I have attached the photo of the damaged {thing} that {name} sent this morning.",
        "If the {thing} does not arrive by {day}, we will send a replacement free of charge.",
        "The tracking page still says in transit, which is why {name} thought it was lost.",
    ],
    "incident": [
        "At {time} the p99 latency of {service} rose to {num} ms and the error rate followed.",
        "{name} noticed that the {thing} was saturated a few minutes after the deploy.",
        "We rolled back {service} to the previous version and the graphs recovered in minutes.",
        "The root cause was a config change that cut the {thing} size from fifty to ten.",
        "Could you check whether the {thing} in {city} shows the same pattern since {day}?",
        "The alert fired twice but nobody was paged, because the rotation for {day} was empty.",
        "I would rather add a regression test than another alert, since the alert came too late.",
        "The {thing} recovered on its own, but only because traffic dropped after {time}.",
        "Ticket {id} has the timeline, the dashboards and the list of follow-up actions.",
        "We should write down what the {thing} limit is for and who is allowed to change it.",
    ],
    "release": [
        "Release {version} of {service} is set for {day} at {time}, once the {thing} is reviewed.",
        "{name} still has one open question about the {thing} in ticket {id}.",
        "The {thing} passed on staging, but the data set there is far smaller than in production.",
        "If the canary shows more than {num} errors per minute, we stop and use the rollback plan.",
        "Could you update the changelog so that support knows what changes for customers?",
        "The {thing} is behind a flag, so we can turn it off without a new build.",
        "We agreed to freeze merges to {service} from {day} morning until the release is out.",
        "I ran the migration twice on a copy of the database and it took {num} seconds each time.",
        "The team in {city} will watch the dashboards while the rest of us are offline.",
        "Nothing in this release touches the payment flow, which keeps the risk low.",
    ],
    "planning": [
        "The {thing} for the next quarter has to be ready before the meeting on {day}.",
        "{name} suggested we move the {thing} review to {city}, where most of the team sits.",
        "We are about {num} thousand euros below plan, mostly because the vendor invoiced late.",
        "Could you send the draft {thing} to {name} so that finance can check the numbers?",
        "I would keep the headcount flat and spend the difference on the {thing} instead.",
        "The workshop ran over time, so we postponed the {thing} discussion to {day}.",
        "If the forecast holds, we can sign the {thing} before the end of the month.",
        "The priorities are clear, but the dates depend on the {service} team finishing first.",
        "We wrote the decision into ticket {id} so that nobody has to remember it.",
        "Let us keep the {thing} short this time and send the details by email afterwards.",
    ],
}
_OPENINGS = {
    "user": [
        "Hi, quick question.",
        "Thanks for the update.",
        "Sorry to bother you again.",
        "Hello!",
    ],
    "assistant": [
        "Thanks, that helps.",
        "Here is what I found.",
        "Short answer: yes.",
        "Good news.",
    ],
    "system": ["You are an operations assistant for a mid-sized online retailer."],
}
_LEVELS = ["INFO"] * 8 + ["WARN"] * 3 + ["ERROR"]
_EVENTS = [
    "request completed",
    "cache miss, loading from database",
    "retrying after timeout",
    "connection returned to pool",
    "job finished",
    "queue depth above threshold",
    "user session refreshed",
    "payment authorised",
]


def _fill(rng: random.Random, template: str, topic: str) -> str:
    return template.format(
        name=rng.choice(_NAMES),
        city=rng.choice(_CITIES),
        day=rng.choice(_DAYS),
        time=f"{rng.randint(0, 23):02d}:{rng.choice([0, 5, 10, 15, 20, 30, 40, 45, 50]):02d}",
        id=f"{rng.choice('ABCDEFGH')}{rng.choice('XYZQ')}-{rng.randint(100, 9999)}",
        num=rng.choice([3, 5, 12, 20, 40, 75, 120, 250, 480, 900]),
        version=f"{rng.randint(1, 9)}.{rng.randint(0, 30)}.{rng.randint(0, 9)}",
        service=rng.choice(_SERVICES),
        thing=rng.choice(_THINGS[topic]),
    )


def _sentences(rng: random.Random, role: str):
    """An endless run of sentences on one topic, starting with an opening fit for the role.

    Templates are dealt from a shuffled deck per topic, so none repeats until all were used.
    """
    decks: dict[str, list[str]] = {}
    topic = rng.choice(list(_TEMPLATES))
    yield rng.choice(_OPENINGS.get(role, _OPENINGS["assistant"]))
    while True:
        if rng.random() < 0.08:
            topic = rng.choice(list(_TEMPLATES))  # conversations drift
        if not decks.get(topic):
            decks[topic] = rng.sample(_TEMPLATES[topic], len(_TEMPLATES[topic]))
        yield _fill(rng, decks[topic].pop(), topic)


def prose(rng: random.Random, chars: int, role: str = "assistant") -> str:
    """About ``chars`` characters of prose, never more, ending at a sentence end when it can.

    Sentences come in paragraphs of two to six, separated by a blank line.
    """
    out = ""
    in_paragraph = 0
    paragraph = rng.randint(2, 6)
    for sentence in _sentences(rng, role):
        gap = "" if not out else "\n\n" if in_paragraph >= paragraph else " "
        if len(out) + len(gap) + len(sentence) > chars:
            break
        if gap == "\n\n":
            in_paragraph, paragraph = 0, rng.randint(2, 6)
        out += gap + sentence
        in_paragraph += 1
    return out or sentence[:chars]


def log_lines(rng: random.Random, chars: int) -> str:
    """About ``chars`` characters of service log, as a tool's output: one event per line."""
    lines: list[str] = []
    length = 0
    minute = rng.randint(0, 59)
    while True:
        minute += rng.randint(0, 2)
        line = (
            f"2025-03-{rng.randint(10, 14)}T{rng.randint(0, 23):02d}:{minute % 60:02d}:"
            f"{rng.randint(0, 59):02d}Z {rng.choice(_LEVELS)} {rng.choice(_SERVICES)} "
            f"request_id={rng.getrandbits(48):012x} latency_ms={rng.randint(3, 2400)} "
            f'msg="{rng.choice(_EVENTS)}"'
        )
        if length + len(line) + 1 > chars:
            return "\n".join(lines)
        lines.append(line)
        length += len(line) + 1


def largest_request(seed: int = 20261130) -> dict:
    """The largest valid request: 200 messages of close to 8,000 characters each."""
    rng = random.Random(seed)
    roles = ["system"] + [
        rng.choice(["user", "assistant", "assistant", "tool"]) for _ in range(199)
    ]
    messages = [
        {
            "role": role,
            "content": log_lines(rng, rng.randint(7800, 8000))
            if role == "tool"
            else prose(rng, rng.randint(7800, 8000), role),
        }
        for role in roles
    ]
    return {"messages": messages, "budget_chars": 120_000}
