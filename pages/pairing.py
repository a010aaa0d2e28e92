"""Tool pairs: every tool call and its result, and the pairs compaction split."""

import streamlit as st

from explorer import navigation
from explorer.frames import checks
from explorer.recommend import widgets as recommend_widgets
from explorer.session import cache, edits, state
from explorer.session.cache import Compaction
from explorer.widgets import common, page


def draw(compaction: Compaction) -> None:
    result = compaction.result
    check = cache.pairing(state.conversation(), result)
    report = check.report
    st.caption(
        "A tool result is paired with its call by the tool-call ids an import found; "
        "without them, with the nearest earlier assistant message that has only tool "
        "messages between them. Chat APIs reject a tool result whose call is missing and "
        "a call whose result is missing."
    )
    if check.note:
        st.warning(check.note, icon=":material/call_split:")
    by_id = sum(p.source == "link" for p in report.pairs)
    cols = st.columns(3)
    cols[0].metric("Call/result pairs", f"{len(report.pairs):,}")
    cols[1].metric("Paired by tool-call id", f"{by_id:,}")
    cols[2].metric("Split by compaction", f"{len(report.issues):,}")
    if not report.pairs:
        st.info("This history has no tool results to pair.", icon=":material/info:")
    elif report.ok:
        st.success(checks.pairing_summary(report), icon=":material/check:")
    else:
        st.warning(checks.pairing_summary(report), icon=":material/call_split:")
        count = len(report.issues)
        if count > checks.SPLIT_PER_PAGE:
            st.caption(
                f"{count:,} split pairs, {checks.SPLIT_PER_PAGE} a page, each with a fix checked "
                "by compacting again (one engine run each): pick a page below for the rest."
            )
        shown = common.page_slice(count, checks.SPLIT_PER_PAGE, "split pairs", "pairing_split_page")
        fixes = cache.pair_fixes(state.conversation(), result, report, shown)
        for issue, fix in zip(report.issues[shown], fixes, strict=True):
            fix_line(issue, fix)
        st.caption(
            "Each fix is for the stage that split the pair, and was checked by compacting "
            "again with it (the other parameters as they are); its button makes it."
        )
        st.caption(checks.REMEDIES)
        left, right = st.columns(2)
        with left:
            st.page_link(navigation.file_of("pages/output.py"), label="Export on the Output page")
        if right.button(
            "Recommend a setting that never splits a pair",
            key="pairing_recommend",
            icon=":material/auto_awesome:",
        ):
            st.session_state[recommend_widgets.PAIRS_KEY] = True
            st.switch_page(navigation.file_of("pages/recommend.py"))
    for note in checks.uncalled_notes(report, state.conversation().window_orphans):
        st.caption(note)
    removed = checks.removed_by_import_note(report)
    if removed:
        st.caption(removed)
    if report.pairs:
        st.subheader("Every pair")
        common.table(
            checks.pairs_frame(report, result),
            column_config={
                "paired_by": "paired by",
                "call_fate": "call fate",
                "result_fate": "result fate",
                "call_kept": st.column_config.CheckboxColumn("call kept"),
                "result_kept": st.column_config.CheckboxColumn("result kept"),
            },
        )


def fix_line(issue, fix) -> None:
    """One split pair in words, and its checked fix on a button (pins and parameters)."""
    text, button = st.columns([4, 1], vertical_alignment="center")
    text.markdown(checks.split_line(issue, fix))
    if fix is not None:
        button.button(
            "Apply this fix",
            key=f"pair_fix_{issue.index}",
            on_click=edits.apply_fix,
            args=(tuple(fix.pins), dict(fix.params)),
            icon=":material/build:",
            width="stretch",
        )


page.run("Tool pairs", draw)
