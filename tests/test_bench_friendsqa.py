"""The FriendsQA benchmark's reading of the data (bench/friendsqa.py), on a small example shaped
like FriendsQA's: an episode's scenes joined in order, each question asked when its scene ends,
its evidence the utterance each annotator's answer names, and the judge's two readings."""

from __future__ import annotations

from bench import friendsqa

SCENE_1 = [
    "[ Scene : Central Perk , everyone is there . ]",
    "Ross Geller: I got the job at the museum !",
    "Rachel Green: That 's great !",
]
SCENE_2 = [
    "[ Scene : Monica and Rachel 's , the next morning . ]",
    "Monica Geller: Joey left his lucky penguin in the bathtub again .",
    "Chandler Bing and Joey Tribbiani: Hey .",
    "Phoebe Buffay: I had the strangest dream about my grandmother .",
    "Monica Geller: Tell us over breakfast , I made pancakes .",
    "Phoebe Buffay: She was a cab driver in the dream , like me !",
    "Rachel Green: Okay , okay .",
    "Ross Geller: Who wants coffee ?",
    "Monica Geller: Me , please .",
    "Chandler Bing: Could this BE any earlier ?",
]
EPISODE = {
    "episode": "s09_e09",
    "part": "test",
    "scenes": [
        {
            "scene": "s09_e09_c01",
            "messages": SCENE_1,
            "questions": [
                {"question": "Where did Ross get a job ?", "answers": [1, 1]},
            ],
        },
        {
            "scene": "s09_e09_c02",
            "messages": SCENE_2,
            "questions": [
                # two annotators: the penguin utterance, and the stage direction
                {"question": "What did Joey leave in the bathtub ?", "answers": [1, 0]},
            ],
        },
    ],
}


def test_an_utterance_is_one_message_with_its_speakers():
    said = {"uid": 3, "speakers": ["Chandler Bing", "Joey Tribbiani"], "utterance": "Hey ."}
    note = {"uid": 0, "speakers": ["#NOTE#"], "utterance": "( He leaves . )"}
    assert friendsqa.message(said) == "Chandler Bing and Joey Tribbiani: Hey ."
    assert friendsqa.message(note) == "( He leaves . )"


def test_each_question_sees_the_episode_up_to_its_scene_and_its_evidence_moves_with_it():
    asked = list(friendsqa.cases([EPISODE]))
    assert [(q, len(h), a) for _, h, q, a in asked] == [
        ("Where did Ross get a job ?", 3, [1]),
        ("What did Joey leave in the bathtub ?", 13, [3, 4]),  # scene 2 starts at message 3
    ]
    assert asked[1][1][4] == SCENE_2[1]


def test_focus_keeps_the_answer_keep_last_drops_and_the_judge_reads_any_and_every_annotator():
    strategies = {"focus": ("focus", {}), "keep-last": ("keep-last", {})}
    hits = friendsqa._episode((EPISODE, (0.3,), strategies, True))
    assert hits[("episodes", None)] == ["s09_e09", "s09_e09"]
    # the penguin question (the second): focus keeps the penguin line, keep-last the scene's end
    any_kept, every_kept = hits[("focus", 0.3)][1]
    assert any_kept and not every_kept  # the stage direction (the other answer) is not kept
    assert hits[("keep-last", 0.3)][1] == (False, False)
    assert len(hits[(friendsqa.RANDOM, 0.3)]) == 2
