"""The explorer listens on loopback unless told otherwise (issue 11), and the README says how."""

import tomllib

from tests.paths import ROOT


def test_the_explorer_binds_to_loopback_by_default():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text("utf-8"))
    assert config["server"]["address"] == "127.0.0.1"


def test_the_readme_says_how_to_expose_it_for_a_demo():
    assert "--server.address 0.0.0.0" in (ROOT / "README.md").read_text("utf-8")
