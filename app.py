"""The compaction explorer: run with ``streamlit run app.py``; it opens on the dispatcher example.

A router only: page setup, the shared sidebar and navigation over the scripts in pages/.
"""

from explorer import router

router.run()
