"""Duplicates: each pair dedupe removed, side by side with the shared words, and every near miss."""

import streamlit as st

from compactor.contract import AGENT_LIMITS
from compactor.text import SEMANTIC_THRESHOLD as DEFAULT_THRESHOLD
from compactor.text import SemanticUnavailable
from explorer.charts import views as charts
from explorer.frames import safe_text, views, words
from explorer.session import cache, state
from explorer.session.cache import Compaction
from explorer.widgets import common, page

PER_PAGE = 10
#: The conversation whose contents the user asked to embed (a whole session's takes a while).
EMBED_KEY = "semantic_embed_asked"
#: Rows of the "same fact, different words" table a page shows (most similar first).
PAIRS_PER_PAGE = 100


def draw(compaction: Compaction) -> None:
    result = compaction.result
    threshold = result.request.params.duplicate_threshold
    removed = result.deduplication.removed
    st.caption(
        "Similarity is the Jaccard overlap of two messages' word sets (shared words divided "
        "by all their distinct words), compared only within a role. An unprotected message "
        f"at or above duplicate_threshold ({threshold:g}) of an earlier one still present is "
        "removed."
    )
    st.subheader(f"Removed pairs: {len(removed):,}")
    if not removed:
        st.info(f"No message reached the threshold of {threshold:g}.", icon=":material/info:")
    else:
        shown = common.page_slice(len(removed), PER_PAGE, "removed pairs", "duplicates_page")
        for r in removed[shown]:
            kept = result.messages[r.duplicate_of].message
            gone = result.messages[r.index].message
            shared, only_kept, only_gone = views.word_sets(result, r.duplicate_of, r.index)
            with st.container(border=True):
                st.markdown(
                    f"**#{r.index} removed as a duplicate of #{r.duplicate_of}** "
                    f"({gone.role}): similarity **{r.similarity:.3f}** ≥ threshold "
                    f"{threshold:g}; {len(shared):,} shared words"
                )
                left, right = st.columns(2, gap="medium")
                with left:
                    st.caption(f"#{r.duplicate_of}, kept (earlier)")
                    st.html(safe_text.highlighted_html(kept.content, shared))
                with right:
                    st.caption(f"#{r.index}, removed")
                    st.html(safe_text.highlighted_html(gone.content, shared))
                if only_kept or only_gone:
                    st.caption("Words in only one of the two")
                    st.text(
                        f"only in #{r.duplicate_of}: {', '.join(sorted(only_kept)) or 'none'}\n"
                        f"only in #{r.index}: {', '.join(sorted(only_gone)) or 'none'}"
                    )

    st.subheader("Every message's closest earlier message")
    frame = views.similarity_frame(result)
    if frame.empty:
        st.info("No message has an earlier message of the same role.", icon=":material/info:")
    else:
        common.fate_legend()
        st.caption(
            "Each point is a message's best similarity to an earlier same-role message still "
            "present when dedupe reached it. Unprotected points on or above the line are "
            "removed; moving the threshold shows what else would go."
        )
        st.altair_chart(charts.similarity(frame, threshold), width="stretch")
    alone = views.uncompared_frame(result)
    if len(alone):
        st.subheader(f"Nothing earlier to compare with: {len(alone):,}")
        st.caption(
            "These messages have no point above: dedupe compares a message only with earlier "
            "messages of its role that are still present."
        )
        common.table(alone.drop(columns=["index"]))

    meaning(result)


def meaning(result) -> None:
    """Same fact, different words: pairs close in meaning that word overlap does not catch."""
    st.subheader("Same fact, different words")
    st.caption(
        "Word overlap misses a repeat written in other words. These same-role pairs are close in "
        "meaning (cosine of wordllama's static embeddings) but under duplicate_threshold in word "
        "overlap, so dedupe keeps both. The engine does not use this: it only explains; the "
        "Strategies page compares memory-compact with semantic dedupe."
    )
    threshold = st.slider(
        "Meaning threshold (cosine)", 0.1, 0.95, DEFAULT_THRESHOLD, 0.05, key="semantic_threshold"
    )
    if not embedding_asked(state.conversation()):
        return
    try:
        pairs = cache.semantic(state.conversation(), result, threshold)
    except SemanticUnavailable as missing:
        st.info(str(missing), icon=":material/extension_off:")
        return
    if not pairs:
        st.info(f"No same-role pair reaches a cosine of {threshold:g}.", icon=":material/info:")
        return
    if len(pairs) > PAIRS_PER_PAGE:
        st.caption(
            f"{len(pairs):,} pairs, most similar first, {PAIRS_PER_PAGE} a page: pick a page "
            "below to see the rest."
        )
    shown = common.page_slice(len(pairs), PAIRS_PER_PAGE, "pairs", "semantic_pairs_page")
    common.table(words.semantic_frame(result, pairs[shown]))


def _ask(key: str) -> None:
    st.session_state[EMBED_KEY] = key


def embedding_asked(conv) -> bool:
    """True when the embedding may run now: a conversation within the contract's limits, or a
    whole session (it can take a minute: every content embedded) the user asked for."""
    if conv.limits != AGENT_LIMITS or st.session_state.get(EMBED_KEY) == conv.key:
        return True
    st.info(
        f"This session has {len(conv.messages):,} messages and {conv.contents_chars:,} "
        "characters: embedding every content takes a while (up to a minute on 2 cores), once "
        "for the conversation. It runs when you ask.",
        icon=":material/hourglass_top:",
    )
    st.button(
        "Find the pairs close in meaning",
        key="semantic_go_button",
        on_click=_ask,
        args=(conv.key,),
        icon=":material/search:",
    )
    return False


page.run("Duplicates", draw)
