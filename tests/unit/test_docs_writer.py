"""benchmarks/docs_writer.py: a runner's section of a docs page is replaced between its markers
and nothing else of the page changes; a missing section is appended; the header says what ran
(command, date, machine, commit, versions)."""

from __future__ import annotations

import argparse
import datetime
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "benchmarks")
sys.path.insert(0, BENCHMARKS)

import docs_writer  # noqa: E402
import machine  # noqa: E402

PAGE = (
    "# Benchmarks\n"
    "\n"
    "Intro text, kept as it is.\n"
    "\n"
    "## First\n"
    "\n"
    "<!-- benchmark:first start -->\n"
    "`old command` - old date - old machine\n"
    "\n"
    "| a | b |\n"
    "| --- | --- |\n"
    "| 1 | 2 |\n"
    "<!-- benchmark:first end -->\n"
    "\n"
    "What the first table shows.  \n"  # trailing spaces: a markdown line break, kept
    "\n"
    "## Second\n"
    "\n"
    "<!-- benchmark:second start -->\n"
    "| c |\n"
    "| --- |\n"
    "| 3 |\n"
    "<!-- benchmark:second end -->\n"
    "\n"
    "Closing words without a final newline."
)


def _split(page: str, name: str) -> tuple[str, str, str]:
    """(before the start marker line included, between, from the end marker line on)."""
    start, end = docs_writer.markers(name)
    head, rest = page.split(start + "\n")
    inner, tail = rest.split(end)
    return head + start + "\n", inner, end + tail


def test_only_the_named_section_is_replaced_and_the_rest_is_byte_identical() -> None:
    new = docs_writer.replace_section(PAGE, "first", "| x |\n| --- |\n| 9 |\n")
    before, inner, after = _split(PAGE, "first")
    new_before, new_inner, new_after = _split(new, "first")
    assert new_before == before
    assert new_after == after  # the second section and the closing words included
    assert new_inner == "\n| x |\n| --- |\n| 9 |\n\n"
    assert "old command" not in new and "What the first table shows.  \n" in new
    assert new.endswith("Closing words without a final newline.")


def test_replacing_twice_with_the_same_content_is_stable_and_other_sections_keep_theirs() -> None:
    once = docs_writer.replace_section(PAGE, "second", "| c |\n| --- |\n| 4 |")
    twice = docs_writer.replace_section(once, "second", "| c |\n| --- |\n| 4 |")
    assert once == twice
    assert _split(once, "first")[1] == _split(PAGE, "first")[1]
    assert once == PAGE.replace("<!-- benchmark:second start -->\n| c |\n| --- |\n| 3 |\n", "<!-- benchmark:second start -->\n\n| c |\n| --- |\n| 4 |\n\n")


def test_a_missing_section_is_appended_under_its_title_and_the_page_is_kept_as_its_prefix() -> None:
    page = PAGE + "\n"
    new = docs_writer.replace_section(page, "third", "| t |\n| --- |\n| 5 |", title="Third benchmark")
    assert new.startswith(page)
    added = new[len(page) :]
    assert added == "\n## Third benchmark\n\n<!-- benchmark:third start -->\n\n| t |\n| --- |\n| 5 |\n\n<!-- benchmark:third end -->\n"
    # then it is found: a second run replaces it instead of appending again
    again = docs_writer.replace_section(new, "third", "| t |\n| --- |\n| 6 |", title="Third benchmark")
    assert again == new.replace("| 5 |", "| 6 |")
    assert again.count("benchmark:third start") == 1


def test_appending_to_a_page_without_a_final_newline_starts_a_new_paragraph() -> None:
    new = docs_writer.replace_section("Last line", "x", "body")
    assert new == "Last line\n\n<!-- benchmark:x start -->\n\nbody\n\n<!-- benchmark:x end -->\n"
    assert docs_writer.replace_section("", "x", "body") == "<!-- benchmark:x start -->\n\nbody\n\n<!-- benchmark:x end -->\n"


@pytest.mark.parametrize(
    "page",
    [
        "<!-- benchmark:first start -->\nno end\n",
        "no start\n<!-- benchmark:first end -->\n",
        "<!-- benchmark:first end -->\n<!-- benchmark:first start -->\n",
        "<!-- benchmark:first start -->\n<!-- benchmark:first end -->\n<!-- benchmark:first start -->\n<!-- benchmark:first end -->\n",
    ],
)
def test_unbalanced_markers_are_refused_rather_than_guessed(page: str) -> None:
    with pytest.raises(ValueError, match="section 'first'"):
        docs_writer.replace_section(page, "first", "new")


def test_a_marker_must_be_its_own_line_and_names_are_exact() -> None:
    page = "text <!-- benchmark:first start --> inline\n"
    new = docs_writer.replace_section(page, "first", "body")
    assert new.startswith(page)  # the inline mention is not a marker: the section is appended
    assert docs_writer.replace_section(PAGE, "firs", "body").startswith(PAGE)  # no prefix matching
    with pytest.raises(ValueError):
        docs_writer.markers("two words")


def test_write_section_writes_the_file_atomically_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    page = tmp_path / "benchmarks.md"
    page.write_bytes(PAGE.encode())
    os.chmod(page, 0o640)
    docs_writer.write_section(str(page), "second", "| c |\n| --- |\n| 7 |")
    assert page.read_text() == PAGE.replace("start -->\n| c |\n| --- |\n| 3 |\n", "start -->\n\n| c |\n| --- |\n| 7 |\n\n")
    assert os.stat(page).st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["benchmarks.md"]
    docs_writer.write_section(str(tmp_path / "new.md"), "first", "body", title="First")
    assert (tmp_path / "new.md").read_text() == "## First\n\n<!-- benchmark:first start -->\n\nbody\n\n<!-- benchmark:first end -->\n"


def test_a_failed_write_leaves_the_page_and_no_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    page = tmp_path / "benchmarks.md"
    page.write_text(PAGE)

    def fail(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError, match="disk full"):
        docs_writer.write_section(str(page), "first", "new")
    assert page.read_text() == PAGE
    assert sorted(p.name for p in tmp_path.iterdir()) == ["benchmarks.md"]


def test_the_command_is_reconstructed_relative_to_the_repository_root() -> None:
    root = docs_writer.ROOT
    command = docs_writer.command_line(
        [os.path.join(root, "benchmarks", "heap_models.py"), "--only", "paper", "--filter", "a b"],
        executable=os.path.join(root, ".venv", "bin", "python"),
    )
    assert command == ".venv/bin/python benchmarks/heap_models.py --only paper --filter 'a b'"
    assert docs_writer.command_line(["benchmarks/run.py"], executable="/usr/bin/python3") == "/usr/bin/python3 benchmarks/run.py"


def _git(cwd: Path, *args: str) -> str:
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t")
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout.strip()


def test_the_commit_says_when_the_tree_has_local_changes(tmp_path: Path) -> None:
    _git(tmp_path, "init", "-q")
    (tmp_path / "a.txt").write_text("one\n")
    _git(tmp_path, "add", "a.txt")
    _git(tmp_path, "commit", "-q", "-m", "first")
    short = _git(tmp_path, "rev-parse", "--short", "HEAD")
    assert docs_writer.commit(str(tmp_path)) == short
    (tmp_path / "untracked.txt").write_text("not counted\n")
    assert docs_writer.commit(str(tmp_path)) == short
    (tmp_path / "a.txt").write_text("two\n")
    assert docs_writer.commit(str(tmp_path)) == f"{short} + local changes"


def test_the_header_has_the_command_date_machine_commit_and_versions() -> None:
    run = docs_writer.Run([os.path.join(docs_writer.ROOT, "benchmarks", "compose.py"), "--only", "bank"])
    run.started = datetime.datetime(2026, 11, 28, 10, 5, tzinfo=datetime.timezone.utc)
    ended = run.started + datetime.timedelta(seconds=75)
    lines = run.header(tools=["pytest"], extra_versions=[("crosshair-tool", "0.0.113")], notes=["one note"], ended=ended)
    text = "\n".join(lines)
    assert lines[0] == f"- command: `{docs_writer.relative(sys.executable)} benchmarks/compose.py --only bank`"
    assert "- date: 2026-11-28 10:05 UTC (the run took 75 s)" in lines
    assert lines[2].startswith(f"- machine: {machine.nproc()} cores, ") and " GiB memory, load average " in lines[2]
    assert lines[3] == f"- commit: {docs_writer.commit()}"
    assert lines[3].removeprefix("- commit: ").split()[0] == docs_writer.commit().split()[0] != "?"
    assert f"Python {sys.version.split()[0]}" in text
    for name in ("z3-solver", "dd", "pytest"):
        assert f"{name} {docs_writer.version(name)}" in text and docs_writer.version(name) != "not installed"
    assert "crosshair-tool 0.0.113" in text and lines[-1] == "- one note"


def test_a_recorder_writes_what_the_block_printed_under_the_header_into_a_copy_of_a_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "benchmarks.md"
    page.write_text(PAGE)
    parser = argparse.ArgumentParser()
    parser.add_argument("--markdown", action="store_true")
    docs_writer.add_options(parser)
    args = parser.parse_args(["--write-docs", "--docs-file", str(page)])
    doc = docs_writer.Recorder(args, "second", argv=["benchmarks/x.py", "--write-docs"])
    assert args.markdown  # --write-docs implies markdown tables
    doc.extra_versions.append(("crosshair-tool", "9.9"))
    with doc.capture():
        print("| c |\n| --- |\n| 8 |")
    assert "| 8 |" in capsys.readouterr().out  # still printed
    new = page.read_text()
    before, inner, after = _split(new, "second")
    assert (before, after) == _split(PAGE, "second")[::2]
    assert inner.startswith("\n<!-- written by benchmarks/x.py --write-docs")
    assert "- command: `" in inner and "benchmarks/x.py --write-docs`" in inner and "crosshair-tool 9.9" in inner
    assert inner.endswith("\n\n| c |\n| --- |\n| 8 |\n\n")


def test_a_recorder_without_write_docs_or_after_an_exception_leaves_the_page_alone(tmp_path: Path) -> None:
    page = tmp_path / "benchmarks.md"
    page.write_text(PAGE)
    parser = argparse.ArgumentParser()
    docs_writer.add_options(parser)
    off = docs_writer.Recorder(parser.parse_args(["--docs-file", str(page)]), "first")
    with off.capture():
        print("| z |")
    off.write(["| z |"])
    assert page.read_text() == PAGE
    on = docs_writer.Recorder(parser.parse_args(["--write-docs", "--docs-file", str(page)]), "first")
    saved = sys.stdout
    with pytest.raises(RuntimeError):
        with on.capture():
            print("| partial |")
            raise RuntimeError("the run failed")
    assert sys.stdout is saved
    assert page.read_text() == PAGE
    assert parser.parse_args([]).docs_file == os.path.join(docs_writer.ROOT, "docs", "benchmarks.md")


def test_the_markers_of_the_docs_pages_are_balanced_and_a_rewrite_keeps_the_rest_of_the_page() -> None:
    docs = Path(docs_writer.ROOT) / "docs"
    names = set()
    for page in sorted(docs.glob("*.md")):
        text = page.read_text(encoding="utf-8")
        found = re.findall(r"^<!-- benchmark:(\S+) (start|end) -->$", text, flags=re.M)
        for name, _ in found:
            names.add(name)
            new = docs_writer.replace_section(text, name, "| new |\n| --- |")
            head, _, tail = _split(text, name)
            new_head, inner, new_tail = _split(new, name)
            assert (new_head, new_tail) == (head, tail) and inner == "\n| new |\n| --- |\n\n"
    assert {"heap-models", "multise-table", "navigation", "run", "realcode", "compose"} <= names
