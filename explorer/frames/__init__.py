"""Pure data frames (pandas) built from the engine's results: what each page shows, with no
Streamlit. Imports the engine, explorer.theme and explorer.session.conversation only."""
