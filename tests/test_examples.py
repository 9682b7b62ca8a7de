"""Every example the README and the documentation site show runs and gives what it shows.

A ``python`` block is a doctest (``>>>`` lines and their output); a page's blocks share one
namespace, in order, as a reader's session would. A ``console`` block is shell commands after
``$ `` (a trailing backslash continues one), each followed by the output it prints; a page's
commands run in order in one scratch directory, so one may use a file an earlier one wrote.
``...`` in an output stands for anything. ``text`` blocks show files, layouts and formats and
may hold no command. The README's first block, the setup on a fresh clone, is run by CI as
written (``.ci/run``): installing is not a test's job. Any other language is refused.
"""

from __future__ import annotations

import doctest
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
# A block titled with a path is a file of the walkthrough (docs/guides/new-game.md), which
# tests/test_walkthrough.py writes into a copy of the project, builds and runs.
FENCE = re.compile(r'^```(\S*)(?:\s+title="([^"]+)")?\s*$')
OPTIONS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
# What would make a text block a command in disguise.
COMMAND = re.compile(r"^\s*(\$ |>>> |pip |python |perfectplay )")


@dataclass
class Block:
    page: Path
    line: int  # of the opening fence, from 1
    language: str
    text: str
    title: str | None = None


def blocks(page: Path) -> list[Block]:
    found: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    at = 0
    while at < len(lines):
        opening = FENCE.match(lines[at])
        if opening is None:
            at += 1
            continue
        end = at + 1
        while end < len(lines) and lines[end].rstrip() != "```":
            end += 1
        assert end < len(lines), f"{page.name}:{at + 1}: a code block is never closed"
        text = "\n".join(lines[at + 1 : end]) + "\n"
        found.append(Block(page, at + 1, opening.group(1), text, opening.group(2)))
        at = end + 1
    return found


def commands(block: Block) -> list[tuple[str, str]]:
    """A console block's (command, expected output) pairs."""
    pairs: list[tuple[str, str]] = []
    lines = block.text.splitlines()
    at = 0
    while at < len(lines):
        assert lines[at].startswith("$ "), (
            f"{block.page.name}:{block.line + 1 + at}: a console block's lines are commands "
            f"after '$ ' and their output, got {lines[at]!r}"
        )
        command = lines[at][2:]
        while command.endswith("\\"):
            at += 1
            command = command[:-1] + "\n" + lines[at]
        at += 1
        output: list[str] = []
        while at < len(lines) and not lines[at].startswith("$ "):
            output.append(lines[at])
            at += 1
        pairs.append((command, "\n".join(output) + "\n" if output else ""))
    return pairs


def run_python(block: Block, namespace: dict[str, object]) -> None:
    parser = doctest.DocTestParser()
    name = f"{block.page.relative_to(ROOT)}:{block.line}"
    test = parser.get_doctest(block.text, namespace, name, str(block.page), block.line)
    assert test.examples, f"{name}: a python block shows no '>>>' example"
    runner = doctest.DocTestRunner(optionflags=OPTIONS)
    runner.run(test, clear_globs=False)
    namespace.update(test.globs)  # a DocTest runs on a copy: the page's next block sees this one's
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{name}: {result.failed} example(s) gave other output (above)"


def run_console(block: Block, scratch: Path) -> None:
    checker = doctest.OutputChecker()
    environment = {**os.environ, "COLUMNS": "100"}
    # The interpreter that runs the tests also answers `python` and `perfectplay`.
    environment["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{environment['PATH']}"
    for command, expected in commands(block):
        done = subprocess.run(
            ["bash", "-o", "pipefail", "-c", command],
            cwd=scratch,
            env=environment,
            capture_output=True,
            text=True,
            timeout=300,
        )
        where = f"{block.page.relative_to(ROOT)}:{block.line}: $ {command}"
        # Shown output is standard output; a failing command shows its error as the user sees
        # it, so both streams are compared then.
        shown = done.stdout if done.returncode == 0 else done.stdout + done.stderr
        assert checker.check_output(expected, shown, OPTIONS), (
            f"{where}\nexpected:\n{expected}got (exit {done.returncode}):\n{shown}"
            f"{done.stderr if done.returncode == 0 else ''}"
        )


@pytest.mark.compiled
@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_example_on_the_page_runs(page: Path, tmp_path: Path) -> None:
    namespace: dict[str, object] = {}
    # The files the examples use (a judge solution for the stress tester's guide).
    shutil.copytree(ROOT / "docs" / "examples", tmp_path, dirs_exist_ok=True)
    previous = Path.cwd()
    os.chdir(tmp_path)  # what the examples write lands in the scratch directory
    try:
        for index, block in enumerate(blocks(page)):
            if page.name == "README.md" and index == 0:
                continue  # the setup on a fresh clone: CI runs it as written
            if block.title is not None:
                continue  # a file of the walkthrough: tests/test_walkthrough.py runs it
            if block.language == "python":
                run_python(block, namespace)
            elif block.language == "console":
                run_console(block, tmp_path)
            else:
                assert block.language == "text", (
                    f"{page.name}:{block.line}: a ```{block.language} block; examples are "
                    "python (doctest) or console ($ commands), anything else text"
                )
                hidden = [line for line in block.text.splitlines() if COMMAND.match(line)]
                assert not hidden, f"{page.name}:{block.line}: a text block shows commands"
    finally:
        os.chdir(previous)


def test_the_readme_opens_with_the_setup_ci_runs() -> None:
    """CI runs the first block as written; what the README says its solving command prints is
    what it prints."""
    first = blocks(ROOT / "README.md")[0]
    assert first.language == "sh"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "README.md" in ci and "first code block" in ci
    assert "python -m pytest" in first.text
    command = next(line for line in first.text.splitlines() if "perfectplay connect4" in line)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    claim = re.search(r"The second command prints `([^`]+)`", readme)
    assert claim is not None
    done = subprocess.run(
        ["bash", "-c", command], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout == claim.group(1) + "\n"


def test_every_page_has_examples_or_says_why_not() -> None:
    """Pages without examples are the API reference (docstrings, tested in test_docs.py) and
    the records; every guide and game page shows something that runs."""
    exempt = {"reference", "benchmarks.md", "design.md"}
    for page in PAGES[1:]:
        parts = set(page.relative_to(ROOT / "docs").parts)
        if parts & exempt:
            continue
        runs = {"file" if block.title else block.language for block in blocks(page)}
        assert runs & {"python", "console", "file"}, f"{page.name} shows no example that runs"


def test_the_readmes_links_and_pictures_exist() -> None:
    """The README is read on the repository's page, outside the site: its relative links and
    pictures must name files that exist (the site's own are checked by mkdocs --strict)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", readme)
    local = [target for target in targets if "://" not in target]
    assert len(local) >= 10
    missing = [target for target in local if not (ROOT / target).exists()]
    assert not missing, f"README.md links to missing files: {missing}"


def test_the_pictures_are_the_packages_own_drawings() -> None:
    """``docs/images`` holds what ``docs/make_images.py`` draws now: a change to the drawing
    shows in the pictures."""
    spec = importlib.util.spec_from_file_location("make_images", ROOT / "docs" / "make_images.py")
    assert spec is not None and spec.loader is not None
    make_images = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_images)
    for name, svg in make_images.drawings().items():
        assert (ROOT / "docs" / "images" / name).read_text(encoding="utf-8") == svg + "\n", name
