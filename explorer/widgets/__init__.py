"""Streamlit widgets shared by pages: the entry's routing and the page opening, the sidebar, the
one parameter form, the strategy form, the setting's download and upload, the tuning controls,
outcomes, probes and token counts. A page's own widgets are in its family's folder
(``explorer.corpus.widgets``)."""
