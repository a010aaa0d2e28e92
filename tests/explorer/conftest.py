"""Every page test's explorer keeps its workspace in a folder of its own, never the user's."""

import pytest

from explorer.session.database import DATA_ENV


@pytest.fixture(autouse=True, scope="session")
def _workspace_folder(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(DATA_ENV, str(tmp_path_factory.mktemp("workspace")))
        yield
