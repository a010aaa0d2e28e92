"""Pure data frames (pandas) built from the engine's results: what several pages show, with no
Streamlit (a page's own frames are in its family's folder, ``explorer.corpus.frames``). Imports
the engine, explorer.theme and explorer.session.conversation only."""
