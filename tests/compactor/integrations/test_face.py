"""The integrations' face exports exactly its names, each from where it is defined; the two
that need an extra are imported when first named."""

from __future__ import annotations

import subprocess
import sys

import compactor
from compactor import integrations


def test_the_face_exports_exactly_its_names():
    assert set(integrations.__all__) == {
        "FILE_NAME",
        "IntegrationUnavailable",
        "Setting",
        "SettingError",
        "ShrinkError",
        "ShrinkMiddleware",
        "ShrinkReport",
        "ShrinkingSession",
        "Shrunk",
        "fit_tokens",
        "load_setting",
        "setting_from_toml",
        "setting_toml",
        "shrink",
        "shrink_with_report",
    }
    assert sorted(integrations.__all__) == list(integrations.__all__)
    for name in integrations.__all__:
        member = getattr(integrations, name)
        assert getattr(member, "__module__", "compactor").startswith("compactor"), name
    assert compactor.shrink is integrations.shrink
    assert compactor.shrink_with_report is integrations.shrink_with_report


def test_the_face_loads_without_langchain_or_the_agents_sdk():
    code = (
        "import sys, compactor.integrations; "
        "print(sorted(m for m in ('langchain', 'agents', 'langgraph') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
