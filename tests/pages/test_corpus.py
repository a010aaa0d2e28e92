"""Corpus: what the page shows is the engine's evaluation of the corpus (its summaries, the
frontier, a setting's rows and worst conversations); a worst conversation opens in the single
views with that setting; a run is kept with its corpus in the workspace's SQLite file, so another
session reopens it without a run; bad input is said (what and where) and loses nothing."""

import json
import sqlite3

import pytest

from compactor.errors import ProblemError
from compactor.evaluation import (
    SUMMARY_BUDGETS,
    RunOptions,
    evaluate,
    evaluate_strategy,
    grid_points,
    knee_budgets,
    load_corpus,
    load_corpus_text,
    summarise,
    worst_by_needed_recall,
)
from explorer.corpus import frames, results, widgets
from explorer.corpus import store as corpus_store
from explorer.frames.imports import problem_rows
from explorer.session import database, state, workspace
from harness.apptest import assert_clean, charts, goto, metrics, start, table
from tests.corpora import LONG_RECORD, tau_bench_corpus
from tests.paths import ROOT

PAGE = "pages/corpus.py"
SHAREGPT = ROOT / "tests" / "fixtures" / "real" / "sharegpt_glaive_toolcall_4_records.json"
TAU = ROOT / "tests" / "fixtures" / "real" / "tau_airline_3_records.json"
GRID = {"keep_last_n": "1,4", "keep_roles": "system", "duplicate_threshold": "0.9"}
GRID |= {"max_message_chars": "120,400"}
SETTINGS = grid_points({}, {"keep_last_n": [1, 4], "max_message_chars": [120, 400]})


def picker(at, pick):
    """The worst-conversation picker ``pick`` (its key carries what its options say)."""
    (found,) = [s for s in at.selectbox if (s.key or "").startswith(f"{pick}:")]
    return found


def on_corpus_page():
    return goto(start(), PAGE)


def load_path(at, path):
    at.text_input(key=widgets.PATH_KEY).set_value(str(path))
    return at.button(key=widgets.LOAD_PATH_KEY).click().run()


def run_grid(at, grid=GRID, budgets=None):
    for name, text in grid.items():
        at.text_input(key=widgets.GRID_KEYS[name]).set_value(text)
    if budgets is not None:
        at.radio(key=widgets.BUDGET_MODE_KEY).set_value(widgets.LISTED)
        at.text_input(key=widgets.BUDGETS_KEY).set_value(budgets)
    else:
        at.radio(key=widgets.BUDGET_MODE_KEY).set_value(widgets.SWEEP)
    button = next(b for b in at.button if b.label == widgets.RUN_BUTTON)
    return button.click().run()


@pytest.fixture(scope="module")
def engine_rows():
    return list(
        evaluate(
            load_corpus(SHAREGPT), SETTINGS, budgets=[300, 1500], options=RunOptions(workers=1)
        )
    )


@pytest.fixture(scope="module")
def listed():
    at = run_grid(load_path(on_corpus_page(), SHAREGPT), budgets="1500,300")
    assert_clean(at)
    return at


def largest_data(at, column):
    """The largest data set with ``column`` among the page's charts."""
    found = [f for _, data in charts(at) for f in data.values() if column in f.columns]
    return max(found, key=len)


def summary_shown(at):
    return table(at, "budget_met_rate")


def settings_of(rows, budgets=None):
    """The summaries of the grid's settings (the baselines' are reference points)."""
    return frames.settings_of(summarise(rows, budgets))


def of_settings(rows):
    return [r for r in rows if r["strategy"] == "memory-compact"]


def test_the_summary_and_the_charts_are_the_engines(listed, engine_rows):
    at = listed
    summaries = settings_of(engine_rows)
    assert metrics(at)["Rows"] == f"{len(engine_rows):,}"
    assert metrics(at)["Settings"] == f"{len(summaries):,}"
    # the frontier of each budget, keep-last and random at it included (issue 39)
    at_budget = frames.summary_frame(summarise(engine_rows))["frontier_at_budget"]
    assert metrics(at)["On the frontier"] == f"{int(at_budget.sum()):,}"
    shown = summary_shown(at)
    assert list(shown["setting"]) == [frames.setting_label(s) for s in summaries]
    for column in ("budget_met_rate", "frontier", "conversations", "anchors_kept"):
        assert list(shown[column]) == [s[column] for s in summaries], column
    for column in ("output_chars_median", "output_chars_p10", "anchor_retention_p90"):
        assert list(shown[column]) == [s[column] for s in summaries], column
    points = largest_data(at, "chars_per_conversation")  # the points (not the frontier's line)
    drawn = dict(zip(points["setting"], points["retention"], strict=True))
    for s in summaries:
        assert drawn[frames.setting_label(s)] == pytest.approx(s["anchors_kept"] / s["anchors"])
    bars = next(
        frame
        for spec, data in charts(at)
        if spec.get("mark", {}).get("type") == "bar"
        for frame in data.values()
        if "budget_met_rate" in frame.columns
    )
    rates = dict(zip(bars["setting"], bars["budget_met_rate"], strict=True))
    assert rates == {frames.setting_label(s): s["budget_met_rate"] for s in summaries}


@pytest.mark.parametrize("at_setting", [0, 3, 6])
def test_a_chosen_setting_shows_its_conversations_worst_first(listed, engine_rows, at_setting):
    summary = settings_of(engine_rows)[at_setting]
    label = frames.setting_label(summary)
    at = listed.selectbox(key=widgets.SETTING_KEY).set_value(label).run()
    assert_clean(at)
    met = round(summary["budget_met_rate"] * summary["conversations"])
    assert (
        metrics(at)["Budget met"]
        == f"{met} of {summary['conversations']}, {100 * met / summary['conversations']:.1f}%"
    )
    # the engine, asked for this one setting at this one budget
    setting = {k: summary[k] for k in ("keep_last_n", "keep_roles", "duplicate_threshold")}
    setting["max_message_chars"] = summary["max_message_chars"]
    rows = of_settings(
        evaluate(
            load_corpus(SHAREGPT),
            [setting],
            [summary["budget_chars"]],
            options=RunOptions(workers=1),
        )
    )
    bad = [
        r
        for r in rows
        if r["anchors_kept"] < r["anchors"] or not r["budget_met"] or r["tool_pairs_broken"]
    ]
    bad.sort(
        key=lambda r: (
            r["anchors_kept"] - r["anchors"],
            r["budget_met"],
            r["budget_chars"] - r["output_chars"],
            -r["tool_pairs_broken"],
        )
    )
    if not bad:
        assert any("no conversation loses an anchor" in s.value for s in at.success)
        return
    worst = table(at, "problems")
    assert list(worst["conversation"]) == [f"record {r['conversation']}" for r in bad]
    assert list(worst["anchors_kept"]) == [r["anchors_kept"] for r in bad]
    assert list(worst["output_chars"]) == [r["output_chars"] for r in bad]
    assert list(worst["tool_pairs_broken"]) == [r["tool_pairs_broken"] for r in bad]
    histogram = largest_data(at, "met")  # characters out: every conversation
    assert sorted(histogram["output_chars"].dropna()) == sorted(r["output_chars"] for r in rows)


def test_a_worst_conversation_opens_in_a_view_with_that_setting(engine_rows):
    at = run_grid(load_path(on_corpus_page(), TAU), budgets="2000")
    assert_clean(at)
    label = at.selectbox(key=widgets.SETTING_KEY).value
    summary = next(
        s for s in frames.settings_of(summarise_page(at)) if frames.setting_label(s) == label
    )
    first = picker(at, results.WORST_KEY).value
    at.selectbox(key=results.VIEW_KEY).set_value("pages/anchors.py")
    at = at.button(key=results.OPEN_KEY).click().run()
    assert_clean(at)
    assert at.title[0].value == "Anchors"
    item = next(i for i in load_corpus(TAU) if frames.conversation_label(i.conversation) == first)
    conv = at.session_state[state.CONVERSATION_KEY]
    assert list(conv.messages) == item.request["messages"]
    assert conv.tool_links == item.tool_links
    params = {name: at.session_state[key] for name, key in state.PARAM_KEYS.items()}
    assert params == frames.setting_of(summary)
    # the view shows what the corpus row says of that conversation under that setting
    row = next(iter(evaluate([item], [params], options=RunOptions(workers=1))))
    shown = table(at, "anchor")
    assert ((shown["status"] == "kept").sum(), len(shown)) == (row["anchors_kept"], row["anchors"])
    assert at.query_params["c"] == conv.key
    assert workspace.get(conv.key) is not None  # the link reopens it on this server


def summarise_page(at):
    return summarise(at.session_state[widgets.RUN_KEY].rows)


def test_a_sweep_run_is_summarised_at_common_budgets_as_the_engine_reads_it():
    at = run_grid(load_path(on_corpus_page(), SHAREGPT), grid={**GRID, "max_message_chars": "400"})
    assert_clean(at)
    items = load_corpus(SHAREGPT)
    settings = grid_points({}, {"keep_last_n": [1, 4], "max_message_chars": [400]})
    rows = list(evaluate(items, settings, options=RunOptions(workers=1)))
    assert list(at.session_state[widgets.RUN_KEY].rows) == rows
    largest = max(sum(len(m["content"]) for m in i.request["messages"]) for i in items)
    budgets = sorted({*SUMMARY_BUDGETS, *knee_budgets(rows)})
    budgets = frames.summary_budgets(budgets, largest)
    summaries = settings_of(rows, budgets)
    shown = summary_shown(at)
    assert list(shown["setting"]) == [frames.setting_label(s) for s in summaries]
    assert list(shown["budget_met_rate"]) == [s["budget_met_rate"] for s in summaries]
    # a setting's conversations are the engine's rows at that budget
    summary = summaries[3]
    at = at.selectbox(key=widgets.SETTING_KEY).set_value(frames.setting_label(summary)).run()
    setting = frames.setting_of(summary)
    engine = of_settings(evaluate(items, [setting], options=RunOptions(workers=1)))
    histogram = largest_data(at, "met")  # characters out: every conversation
    assert sorted(histogram["output_chars"].dropna()) == sorted(r["output_chars"] for r in engine)


def test_a_sweep_run_is_summarised_on_its_knee_too():
    # issue 26: every trajectory needs 6,500 to 7,700 characters, between the summary budgets
    # 5,000 (none met) and 10,000 (all met); the page reads the run where the share rises too
    at = upload(on_corpus_page(), "tau.json", tau_bench_corpus(12, long_record=None))
    at = run_grid(at, grid={**GRID, "keep_last_n": "5", "max_message_chars": "400"})
    assert_clean(at)
    shown = summary_shown(at)
    met = dict(zip(shown["budget_chars"], shown["budget_met_rate"], strict=True))
    assert (met[5000], met[10000]) == (0, 1)
    rising = {b: rate for b, rate in met.items() if 5000 < b < 10000}
    assert rising and 0 < min(rising.values()) < 1
    assert sorted(rising) == knee_budgets(at.session_state[widgets.RUN_KEY].rows)


def test_the_worst_conversations_are_counted_before_the_list_is_cut():
    # issue 26: all 200 miss a budget of 2,000; the list shows 50 of them
    at = upload(on_corpus_page(), "tau.json", tau_bench_corpus(long_record=None))
    at = run_grid(at, grid={**GRID, "keep_last_n": "5", "max_message_chars": "400"}, budgets="2000")
    assert_clean(at)
    assert metrics(at)["Budget met"] == "0 of 200, 0.0%"
    said = "200 conversations with a problem, the first 50 shown."
    assert any(c.value.endswith(said) for c in at.caption)
    assert len(table(at, "problems")) == frames.WORST_LIMIT


def test_the_worst_picker_says_what_the_table_says_for_the_setting_shown():
    at = upload(on_corpus_page(), "tau.json", tau_bench_corpus(30, long_record=None))
    at = run_grid(at, grid={**GRID, "keep_last_n": "2,5", "max_message_chars": "400"},
                  budgets="3000,7000")  # fmt: skip
    for label in at.selectbox(key=widgets.SETTING_KEY).options:
        at = at.selectbox(key=widgets.SETTING_KEY).set_value(label).run()
        assert_clean(at)
        worst = table(at, "problems")
        said = [f"{c}: {p}" for c, p in zip(worst["conversation"], worst["problems"], strict=True)]
        assert picker(at, results.WORST_KEY).options == said
        assert picker(at, results.WORST_KEY).value == worst["conversation"][0]


def test_another_session_reopens_the_corpus_with_its_results_without_a_run(listed, engine_rows):
    # a second run of the corpus in another session: the newest, so the one reopened
    sweep = run_grid(load_path(on_corpus_page(), SHAREGPT), grid={**GRID, "keep_last_n": "2"})
    assert_clean(sweep)
    folder = database.data_folder()
    with sqlite3.connect(folder / database.DATABASE) as db:
        kept = [json.loads(body) for (body,) in db.execute("select rows from corpus_runs")]
    assert engine_rows in kept  # the rows, in the file
    at = on_corpus_page()
    assert not metrics(at)  # nothing shown before the corpus is opened
    at = reopen(at, "sharegpt_glaive_toolcall_4_records.json")
    assert_clean(at)
    assert not at.get("progress")  # shown from the workspace: nothing was evaluated
    newest = sweep.session_state[widgets.RUN_KEY]
    assert metrics(at)["Rows"] == f"{len(newest.rows):,}"
    # the listed run of the fixture is kept too, and shown when picked
    grid = corpus_store.grid_key(SETTINGS, (300, 1500))
    at = at.selectbox(key=results.RUN_PICK_KEY).set_value(grid).run()
    assert_clean(at)
    assert not at.get("progress")
    assert metrics(at)["Rows"] == f"{len(engine_rows):,}"
    assert list(summary_shown(at)["budget_met_rate"]) == [
        s["budget_met_rate"] for s in settings_of(engine_rows)
    ]


def reopen(at, name):
    """Open the kept corpus called ``name`` from the list of kept corpora."""
    key = next(e.key for e in corpus_store.corpora() if e.name == name)
    at.selectbox(key=widgets.STORED_KEY).set_value(key)
    return at.button(key=widgets.OPEN_STORED_KEY).click().run()


BROKEN = b'{"messages": [\n  {"role": "user", "content": "hi"},\n  oops\n]}'


def upload(at, name, data):
    at.file_uploader(key=widgets.UPLOAD_KEY).set_value((name, data, "application/json"))
    return at.run()


def problems_shown(at):
    frame = table(at, "where")
    return list(zip(frame["where"], frame["problem"], strict=True))


def expected_problems(data, name):
    with pytest.raises(ProblemError) as caught:
        load_corpus_text(data, name)
    rows = problem_rows(caught.value.problems)
    return list(zip(rows["where"], rows["problem"], strict=True))


def test_an_uploaded_corpus_is_loaded_and_run():
    at = upload(on_corpus_page(), "glaive calls.json", SHAREGPT.read_bytes())
    assert_clean(at)
    corpus = at.session_state[widgets.CORPUS_KEY]
    assert corpus.name == "glaive calls.json"
    assert list(corpus.items) == load_corpus(SHAREGPT)
    at = run_grid(at, budgets="300,1500")
    assert_clean(at)
    assert list(at.session_state[widgets.RUN_KEY].rows) == list(
        evaluate(
            load_corpus(SHAREGPT), SETTINGS, budgets=[300, 1500], options=RunOptions(workers=1)
        )
    )


def test_a_bad_upload_says_what_and_where_and_loses_nothing():
    at = run_grid(load_path(on_corpus_page(), TAU), budgets="2000")
    loaded, shown = at.session_state[widgets.CORPUS_KEY], metrics(at)["Rows"]
    at = upload(at, "broken.jsonl", BROKEN)
    assert_clean(at)
    assert widgets.TITLES["load"] in [e.value for e in at.error]
    assert problems_shown(at) == expected_problems(BROKEN, "broken.jsonl")
    assert any(where.startswith("line 3, column") for where, _ in problems_shown(at))
    # the corpus, its results, the typed path and the uploaded file are all still there
    assert at.session_state[widgets.CORPUS_KEY] is loaded
    assert metrics(at)["Rows"] == shown
    assert at.text_input(key=widgets.PATH_KEY).value == str(TAU)
    assert at.file_uploader(key=widgets.UPLOAD_KEY).value.name == "broken.jsonl"
    assert not any("Traceback" in m.value for m in at.markdown)


def test_a_path_that_is_not_a_corpus_is_named_in_the_problem(tmp_path):
    at = load_path(on_corpus_page(), tmp_path / "missing.jsonl")
    assert_clean(at)
    assert widgets.TITLES["load"] in [e.value for e in at.error]
    assert any(str(tmp_path / "missing.jsonl") in p for _, p in problems_shown(at))
    assert widgets.CORPUS_KEY not in at.session_state
    empty = tmp_path / "empty"
    empty.mkdir()
    at = load_path(at, empty)
    assert any("holds no .json or .jsonl file" in p for _, p in problems_shown(at))


def test_grid_values_the_schema_refuses_are_named_and_nothing_runs():
    at = run_grid(load_path(on_corpus_page(), TAU), budgets="2000")
    before = at.session_state[widgets.RUN_KEY]
    at = run_grid(at, grid={**GRID, "keep_last_n": "1,99", "keep_roles": "system+robot"})
    assert_clean(at)
    assert widgets.TITLES["grid"] in [e.value for e in at.error]
    wheres = [where for where, _ in problems_shown(at)]
    assert "grid.keep_last_n[1]" in wheres
    assert any(w.startswith("grid.keep_roles[0]") for w in wheres)
    assert at.session_state[widgets.RUN_KEY] is before
    at = run_grid(at, budgets="2000,abc")
    assert any("is not a number" in p for _, p in problems_shown(at))


def test_content_and_file_names_are_never_markdown(tmp_path):
    hostile = "**bold** <b>tag</b> [link](http://x.test) `code` <script>alert(1)</script>"
    request = {
        "messages": [
            {"role": "user", "content": f"Order DE-4471 {hostile}"},
            {"role": "assistant", "content": f"{hostile} noted DE-4471 " * 20},
        ],
        "budget_chars": 100,
    }
    folder = tmp_path / "corpus"
    (folder / "**x**").mkdir(parents=True)
    (folder / "**x**" / "<img src=x>y.json").write_text(json.dumps(request))
    (folder / "plain.json").write_text(json.dumps(request | {"budget_chars": 150}))
    at = run_grid(load_path(on_corpus_page(), folder), budgets="100")
    assert_clean(at)
    texts = [m.value for m in (*at.markdown, *at.caption, *at.info, *at.success, *at.warning)]
    for text in texts:
        assert "<b>" not in text and "**bold**" not in text and "<script>" not in text
    worst = table(at, "problems")
    assert "**x**/<img src=x>y.json" in list(worst["conversation"])  # as data, never rendered
    picker(at, results.WORST_KEY).set_value("**x**/<img src=x>y.json")
    at = at.button(key=results.OPEN_KEY).click().run()
    assert_clean(at)
    label = at.session_state[state.CONVERSATION_KEY].label
    assert not set(label) & set("*<>[]`")


def test_the_corpus_its_results_and_the_grid_stay_when_coming_back_from_another_page():
    at = run_grid(
        load_path(on_corpus_page(), TAU), grid={**GRID, "keep_last_n": "3"}, budgets="900"
    )
    shown = metrics(at)
    at = goto(goto(at, "pages/overview.py"), PAGE)
    assert_clean(at)
    assert metrics(at) == shown
    assert at.text_input(key=widgets.GRID_KEYS["keep_last_n"]).value == "3"
    assert at.text_input(key=widgets.BUDGETS_KEY).value == "900"
    assert at.radio(key=widgets.BUDGET_MODE_KEY).value == widgets.LISTED


def set_aside_shown(at):
    """(record, where, why and its fix) of each conversation set aside, as the page lists it."""
    frame = table(at, "reason")
    said = [f"{r}; {f}" if f else r for r, f in zip(frame["reason"], frame["fix"], strict=True)]
    return list(zip(frame["record"], frame["where"], said, strict=True))


def test_a_conversation_over_the_limits_is_loaded_whole_and_a_fix_is_an_option(tmp_path):
    long = [{"role": "user", "content": f"question {k} about DE-{k}"} for k in range(250)]
    short = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    path = tmp_path / "many.jsonl"
    path.write_text("\n".join(json.dumps({"messages": m}) for m in (short, long)) + "\n")
    at = load_path(on_corpus_page(), path)
    assert_clean(at)
    corpus = at.session_state[widgets.CORPUS_KEY]
    assert [len(i.request["messages"]) for i in corpus.items] == [2, 250]  # whole
    assert "reason" not in tables_columns(at)  # nothing set aside
    box = at.checkbox(key=widgets.FIX_KEYS["keep_last"])
    # says what it keeps: the page offers no window to choose (issue 40: "choose which below")
    assert box.label == "Keep the last 200 messages of each conversation"
    at = box.check().run()  # read again at once
    assert_clean(at)
    corpus = at.session_state[widgets.CORPUS_KEY]
    assert [len(i.request["messages"]) for i in corpus.items] == [2, 200]
    assert corpus.items[1].request["messages"] == long[-200:]


def tables_columns(at):
    return {c for frame in at.dataframe for c in frame.value.columns}


def test_one_long_content_in_200_records_is_loaded_whole_and_the_cut_is_an_option():
    # issue 26 set the record aside; issue 35 loads it whole (the agent mode)
    data = tau_bench_corpus()
    at = upload(on_corpus_page(), "tau 200.json", data)
    assert_clean(at)
    corpus = at.session_state[widgets.CORPUS_KEY]
    assert [i.conversation for i in corpus.items] == list(range(200))
    assert len(corpus.items[LONG_RECORD].request["messages"][5]["content"]) == 10_000
    assert "reason" not in tables_columns(at) and not at.error
    at = run_grid(at, grid={**GRID, "keep_last_n": "4", "max_message_chars": "400"}, budgets="3000")
    assert_clean(at)
    assert len({r["conversation"] for r in at.session_state[widgets.RUN_KEY].rows}) == 200
    # the box ticked after the upload reads the same upload again, cut
    at = at.checkbox(key=widgets.FIX_KEYS["cut_long"]).check().run()
    assert_clean(at)
    fixed = at.session_state[widgets.CORPUS_KEY]
    assert len(fixed.items) == 200
    assert len(fixed.items[LONG_RECORD].request["messages"][5]["content"]) == 8000
    assert at.file_uploader(key=widgets.UPLOAD_KEY).value.name == "tau 200.json"


def test_a_file_whose_only_conversation_is_too_long_loads_whole():
    messages = [{"role": "user", "content": "x" * 9000}, {"role": "assistant", "content": "ok"}]
    data = json.dumps({"messages": messages}).encode()
    at = upload(on_corpus_page(), "one.json", data)
    assert_clean(at)
    assert not at.error and len(at.session_state[widgets.CORPUS_KEY].items) == 1
    assert "reason" not in tables_columns(at)  # nothing set aside


def test_needed_later_recall_beside_the_baselines_and_its_worst_conversations(listed, engine_rows):
    summaries = summarise(engine_rows)
    mine = frames.settings_of(summaries)
    shown = summary_shown(listed)
    for column in ("needed_recall", "needed_recall_keep_last", "needed_recall_random"):
        found = [None if v != v else v for v in shown[column]]  # an empty cell: no figure
        assert found == pytest.approx([s[column] for s in mine]), column
    at = listed.radio(key=results.MEASURE_KEY).set_value("needed_recall").run()
    assert_clean(at)
    reference = largest_data(at, "strategy")  # keep-last and random at each budget
    assert sorted(zip(reference["strategy"], reference["budget_chars"], strict=True)) == sorted(
        (s["strategy"], s["budget_chars"])
        for s in summaries
        if s not in mine and s["keep_roles"] is not None  # protected, the default form
    )
    assert all(", system + pinned kept · budget" in s for s in reference["setting"])
    bare = at.radio(key=state.BASELINES_KEY).set_value("bare").run()
    assert_clean(bare)
    assert all(", bare · budget" in s for s in largest_data(bare, "strategy")["setting"])
    shown = summary_shown(bare)
    assert "needed_lift_bare" in shown and "needed_lift" not in shown
    assert [None if v != v else v for v in shown["needed_lift_bare"]] == pytest.approx(
        [s["needed_lift_bare"] for s in mine]
    )
    label = at.selectbox(key=widgets.SETTING_KEY).value
    summary = next(s for s in mine if frames.setting_label(s) == label)
    rows = frames.setting_rows(engine_rows, frames.setting_of(summary))
    worst = worst_by_needed_recall(rows, frames.WORST_LIMIT)
    if not worst:
        assert any("every need" in s.value for s in at.success)
        return
    table_shown = table(at, "needs_unmet")
    assert list(table_shown["conversation"]) == [f"record {r['conversation']}" for r in worst]
    first = picker(at, results.WORST_NEEDED_KEY).value
    at = at.button(key=results.OPEN_NEEDED_KEY).click().run()
    assert_clean(at)
    item = next(
        i for i in load_corpus(SHAREGPT) if frames.conversation_label(i.conversation) == first
    )
    assert list(at.session_state[state.CONVERSATION_KEY].messages) == item.request["messages"]


def test_a_registry_strategy_is_evaluated_over_a_grid_of_its_own_parameters():
    at = load_path(on_corpus_page(), TAU)
    at.selectbox(key="corpus_other_strategy").set_value("anchor-keep").run()
    at.selectbox(key="corpus_other_vary").set_value("unit_chars").run()
    at.text_input(key="corpus_other_values").set_value("60, 200")
    at.text_input(key="corpus_other_budgets").set_value("1500,4000")
    at.number_input(key="corpus_other_workers").set_value(1)
    at = at.button(key="corpus_other_run").click().run()
    assert_clean(at)
    settings = [{"unit_chars": 60}, {"unit_chars": 200}]
    rows = list(evaluate_strategy(load_corpus(TAU), "anchor-keep", settings, [1500, 4000]))
    shown = table(at, "parameters")
    expected = frames.strategy_summary(rows)
    assert len(shown) == 4 and shown.equals(expected)
    assert expected["needs"].sum() > 0 and expected["needed_recall"].notna().all()
    # judged by anchors, anchor-keep carries the note that the judge flatters it (issue 36)
    said = " ".join(c.value for c in at.caption)
    assert "Judge: needed-later recall (anchors, the product's own notion of a fact)" in said
    assert "Note on anchor-keep: its selection resembles the judge's notion" in said


def test_a_bad_strategy_grid_value_is_named_and_nothing_runs():
    at = load_path(on_corpus_page(), TAU)
    at.selectbox(key="corpus_other_strategy").set_value("observation-masking").run()
    at.selectbox(key="corpus_other_vary").set_value("n").run()
    at.text_input(key="corpus_other_values").set_value("2, many")
    at = at.button(key="corpus_other_run").click().run()
    assert_clean(at)
    assert any("could not be evaluated" in e.value for e in at.error)
    assert "observation-masking.n" in table(at, "problem")["where"].tolist()
    assert "parameters" not in [c for f in at.dataframe for c in f.value.columns]


def test_an_upload_with_a_line_that_is_not_json_loads_the_others_and_lists_it():
    # issue 34, item 10: one truncated line of JSON Lines used to refuse the whole upload
    records = [
        json.dumps({"messages": [{"role": "user", "content": f"q{i}"},
                                 {"role": "assistant", "content": f"a{i}"}]})
        for i in range(3)
    ]  # fmt: skip
    records[1] = records[1][:25]
    at = upload(on_corpus_page(), "runs.jsonl", ("\n".join(records) + "\n").encode())
    assert_clean(at)
    assert [i.conversation for i in at.session_state[widgets.CORPUS_KEY].items] == [0, 2]
    ((record, where, reason),) = set_aside_shown(at)
    assert (record, where.split(",")[0]) == ("record 1", "line 2")
    assert "Unterminated string" in reason and not at.error
