"""The explorer's entry as the page tests run it with AppTest: the same one call as ``app.py``.

AppTest builds the server's page registry anew on every run, so beside a ``pages/`` folder every
run of ``app.py`` would be routed the legacy way that a real server uses only for its first
request (``explorer.widgets.page``; the browser tests open every page that way). From here, with
no ``pages/`` folder beside it, every run comes through the entry and Streamlit's navigation, as
every run after the first does on a real server. Pages are registered by their full paths, so
they are the same pages from either entry.
"""

from explorer.widgets import page

page.route()
