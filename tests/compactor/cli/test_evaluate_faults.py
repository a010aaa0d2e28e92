"""`evaluate --out` under bad luck, on real files and processes: a folder that is not there, a
full disk or a file size limit (the rows kept whole, resumed exactly), two runs on one file at
once (the second refused by the lock), and a resume with another grid (refused, or the new
settings named)."""

import json
import os
import resource
import signal
import subprocess
import sys
import time

import pytest

from tests.compactor.cli.test_evaluate import generated_corpus
from tests.paths import ROOT
from tests.processes import hearing_sigint

GRID = ["--grid", "keep_last_n=1,4", "--budgets", "600,1500"]


def command(*args):
    return [sys.executable, "-m", "compactor", "evaluate", *map(str, args)]


def run(*args, limit=None):
    def limited():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        command(*args),
        capture_output=True,
        cwd=ROOT,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        preexec_fn=limited if limit else None,
    )


def rows_of(path):
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def key(row):
    return json.dumps(row, sort_keys=True)


def corpus_of(factory, conversations):
    path = factory.mktemp("corpus") / "corpus.jsonl"
    generated_corpus(path, conversations)
    return path


def whole_run(factory, corpus):
    """The rows file of the grid run to its end, uninterrupted."""
    out = factory.mktemp("expected") / "rows.jsonl"
    done = run(corpus, *GRID, "--workers", "1", "--out", out)
    assert done.returncode == 0, done.stderr
    return out.read_bytes()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    return corpus_of(tmp_path_factory, 40)


@pytest.fixture(scope="module")
def expected(corpus, tmp_path_factory):
    return whole_run(tmp_path_factory, corpus)


@pytest.fixture(scope="module")
def long_corpus(tmp_path_factory):
    """A corpus whose run lasts a while after its first rows are written (40 conversations
    ended half a second after them: a loaded machine could let the run end before the
    signal)."""
    return corpus_of(tmp_path_factory, 150)


@pytest.fixture(scope="module")
def long_expected(long_corpus, tmp_path_factory):
    return whole_run(tmp_path_factory, long_corpus)


def test_out_in_a_folder_that_is_not_there_is_a_clear_error(corpus, tmp_path):
    done = run(corpus, *GRID, "--out", tmp_path / "missing" / "rows.jsonl")
    said = done.stderr.decode()
    assert done.returncode == 2 and "Traceback" not in said
    assert f"the folder {tmp_path / 'missing'} does not exist" in said
    assert not (tmp_path / "missing").exists()


def resumed_exactly(corpus, out, expected):
    """After a failed write: the file ends with a whole row, and --resume makes it whole."""
    kept = out.read_bytes()
    assert kept.endswith(b"\n") and expected.startswith(kept)  # only whole rows, in order
    done = run(corpus, *GRID, "--workers", "1", "--out", out, "--resume")
    assert done.returncode == 0, done.stderr
    assert sorted(map(key, rows_of(out))) == sorted(
        key(json.loads(line)) for line in expected.splitlines()
    )


@pytest.mark.slow
def test_a_file_size_limit_is_a_clear_error_and_resume_is_exact(corpus, expected, tmp_path):
    out = tmp_path / "rows.jsonl"
    limit = len(expected) // 2
    done = run(corpus, *GRID, "--workers", "1", "--out", out, limit=limit)
    said = done.stderr.decode()
    assert done.returncode == 2 and "Traceback" not in said, said
    assert f"{out}: cannot write (File too large)" in said and "--resume" in said
    assert 0 < out.stat().st_size <= limit
    resumed_exactly(corpus, out, expected)


@pytest.fixture
def small_disk(tmp_path):
    """A real full disk: a 32 KiB tmpfs (needs the right to mount; skipped without it)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=32k", "tmpfs", str(mount)], capture_output=True
    )
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {made.stderr.decode().strip()}")
    yield mount
    subprocess.run(["umount", str(mount)], check=True)


@pytest.mark.slow
def test_a_full_disk_is_a_clear_error_and_resume_is_exact(corpus, expected, small_disk):
    assert len(expected) > 40_000  # more than the disk holds
    out = small_disk / "rows.jsonl"
    done = run(corpus, *GRID, "--workers", "1", "--out", out)
    said = done.stderr.decode()
    assert done.returncode == 2 and "Traceback" not in said, said
    assert f"{out}: cannot write (No space left on device)" in said and "--resume" in said
    subprocess.run(["mount", "-o", "remount,size=4m", str(small_disk)], check=True)
    resumed_exactly(corpus, out, expected)


@pytest.mark.slow
def test_two_runs_on_one_rows_file_at_once_cannot_both_write(tmp_path):
    corpus = tmp_path / "corpus.jsonl"
    generated_corpus(corpus, 300)  # seconds of run left for the second to meet
    out = tmp_path / "rows.jsonl"
    args = [corpus, "--grid", "keep_last_n=1,4", "--workers", "1", "--out", out]
    first = subprocess.Popen(
        command(*args),
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while (not out.exists() or out.stat().st_size == 0) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert first.poll() is None, "the first run ended before the second could start"
        second = run(*args, "--resume")
        said = second.stderr.decode()
        assert second.returncode == 2 and "Traceback" not in said
        assert "another run is writing these rows now" in said
    finally:
        assert first.wait(timeout=300) == 0
    rows = rows_of(out)
    assert len({key(r) for r in rows}) == len(rows)  # nothing written twice
    again = run(*args, "--resume")  # the lock went with the first run
    assert again.returncode == 0 and rows_of(out) == rows


@pytest.mark.slow
def test_a_resume_with_another_grid_is_refused_and_a_larger_one_names_what_it_adds(
    corpus, tmp_path
):
    out = tmp_path / "rows.jsonl"
    assert (
        run(corpus, "--grid", "keep_last_n=2,5", "--budgets", "700", "--out", out).returncode == 0
    )
    before = out.read_bytes()
    for other, says in [
        (["--grid", "keep_last_n=3", "--budgets", "700"], "keep_last_n=5 keep_roles=system"),
        (["--grid", "keep_last_n=2,5", "--budgets", "900"], "does not list: 700"),
        (["--grid", "keep_last_n=2,5", "--budgets", "700", "--no-outcomes"], "without"),
    ]:
        done = run(corpus, *other, "--out", out, "--resume")
        said = done.stderr.decode()
        assert done.returncode == 2 and "Traceback" not in said, said
        assert f"{out}: cannot resume" in said and says in said, said
        assert out.read_bytes() == before  # nothing appended
    larger = run(
        corpus, "--grid", "keep_last_n=2,5,8", "--budgets", "700", "--out", out, "--resume"
    )
    said = larger.stderr.decode()
    assert larger.returncode == 0, said
    assert "adding keep_last_n=8 keep_roles=system" in said and "keep_last_n=5 " not in said
    added = rows_of(out)[len(before.splitlines()) :]
    assert added and {r["keep_last_n"] for r in added} == {8}


@pytest.mark.slow
def test_interrupting_a_run_keeps_whole_rows_for_resume(long_corpus, long_expected, tmp_path):
    corpus, expected = long_corpus, long_expected
    out = tmp_path / "rows.jsonl"
    with hearing_sigint():
        process = subprocess.Popen(
            command(corpus, *GRID, "--workers", "1", "--out", out),
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
    deadline = time.monotonic() + 120
    while (not out.exists() or out.stat().st_size < 2000) and time.monotonic() < deadline:
        time.sleep(0.02)
    process.send_signal(signal.SIGINT)
    _, said = process.communicate(timeout=60)
    assert process.returncode == 2 and b"Traceback" not in said
    resumed_exactly(corpus, out, expected)
