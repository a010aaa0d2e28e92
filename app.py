"""The compaction explorer: ``streamlit run app.py`` opens it on the tour sample (every stage at
work).

The entry of every run: it draws what all pages share once (the page setup and the sidebar, with
the conversation and its parameters) and routes, with Streamlit's own navigation, to the page the
address names: a script in ``pages/``, listed in :data:`explorer.navigation.PAGES`. Overview is
the default page.
"""

from explorer.widgets import page

page.route()
