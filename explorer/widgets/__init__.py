"""Streamlit widgets shared by pages: the page opening, the sidebar, the one parameter form, the
import panels, message detail, and the tuning controls."""
