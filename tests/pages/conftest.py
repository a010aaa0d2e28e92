"""Every page test's explorer keeps its workspace in a folder of its own, never the user's; the
pages that call a language model reach the test server through a providers file (``configured``).
"""

import pytest

from compactor.providers import PROVIDERS_ENV
from explorer.session.database import DATA_ENV
from tests.llm_server import KEY_ENV, SECRET, llm_fixture, providers_toml

llm = llm_fixture()


@pytest.fixture(autouse=True, scope="session")
def _workspace_folder(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(DATA_ENV, str(tmp_path_factory.mktemp("workspace")))
        yield


@pytest.fixture
def configured(llm, tmp_path, monkeypatch):
    """The test language model server, configured as the explorer's providers (key in KEY_ENV)."""
    monkeypatch.setenv(PROVIDERS_ENV, str(providers_toml(llm, tmp_path / "providers.toml")))
    monkeypatch.setenv(KEY_ENV, SECRET)
    return llm
