"""Test and benchmark harness shared by tests/ and bench/: the real explorer server in headless
Chromium (browser.py), the HTTP service on loopback (service.py), and a language model server
on loopback that misbehaves on demand (llm_server.py). Not shipped in the wheel."""
