"""The package face: what compactor.providers exports, and that importing it needs no client."""

import subprocess
import sys

import compactor.providers
from tests.paths import ROOT


def test_the_exported_names():
    assert sorted(compactor.providers.__all__) == [
        "ANTHROPIC",
        "COMMAND_LINE",
        "Completion",
        "ContextWindowExceeded",
        "DEFAULT_CONNECT_TIMEOUT_SECONDS",
        "DEFAULT_MAX_ANSWER_BYTES",
        "INSTALL_HINT",
        "KINDS",
        "MAX_ANSWER_BYTES",
        "MAX_RETRIES",
        "MAX_TIMEOUT_SECONDS",
        "OPENAI",
        "PROVIDERS_ENV",
        "Provider",
        "ProviderAnswerInvalid",
        "ProviderConfig",
        "ProviderConfigError",
        "ProviderError",
        "ProviderRefused",
        "ProviderRegistry",
        "ProviderTimeout",
        "command_line_provider",
        "load_providers",
        "parse_providers",
        "provider_for",
        "run_sync",
    ]
    assert all(hasattr(compactor.providers, name) for name in compactor.providers.__all__)


def test_the_engine_cli_and_service_import_without_the_client_libraries():
    code = (
        "import sys; sys.modules['openai'] = sys.modules['anthropic'] = None\n"
        "import compactor.cli._main, compactor.service, compactor.strategies._llm_compact\n"
        "compactor.service.create_app()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
