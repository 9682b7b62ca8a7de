"""A new game touches only its own places (CONTRIBUTING.md, "Adding a game"): its Rust folder,
its binding file, its Python package, its lines in the registry and the module lists, its
tests. So the code of every shared layer names no game: the kernel, the applications, the
integrations that serve every game, the Rust engine, the argument readers and the shared
bindings. (Docstrings and comments may, as examples.)"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from perfectplay import GAMES

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "python" / "perfectplay"

# The shared Python layers. Not in it: the games' packages, the registry and the package's
# namespace (which list the games by design), the public paths kept for old imports
# (``perfectplay.openings``, ``perfectplay.tablebase``) and ConnectX's integration (Connect
# Four's own framework).
SHARED_PYTHON = [
    *sorted((PACKAGE / "_kernel").glob("*.py")),
    *sorted((PACKAGE / "cli").glob("*.py")),
    *sorted((PACKAGE / "stress").glob("*.py")),
    *sorted((PACKAGE / "web").glob("*.py")),
    *(
        PACKAGE / f"{name}.py"
        for name in ("agents", "judge", "gym", "pettingzoo", "openspiel", "dask", "_terminal")
    ),
]
# The shared Rust code. Not in it: `rust/py/mod.rs` and `rust/games/mod.rs`, which add each
# game's binding file and folder, one line each.
SHARED_RUST = [
    *sorted((ROOT / "rust" / "engine").rglob("*.rs")),
    *sorted((ROOT / "rust" / "input").rglob("*.rs")),
    *(ROOT / "rust" / "py" / f"{name}.rs" for name in ("batch", "convert", "options", "arrays")),
]


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are docstrings."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def python_mentions(path: Path) -> list[str]:
    """Where the code of ``path`` names a game: an import of its package, a name, an
    attribute, or a string that is its name or its module's."""
    tree = ast.parse(path.read_text(), str(path))
    skipped = docstrings(tree)
    found = []
    for node in ast.walk(tree):
        words: list[str] = []
        if isinstance(node, ast.Import):
            words = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            words = [node.module or "", *(alias.name for alias in node.names)]
        elif isinstance(node, ast.Name):
            words = [node.id]
        elif isinstance(node, ast.Attribute):
            words = [node.attr]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            words = [] if id(node) in skipped else [node.value]
        for word in words:
            for game in GAMES:
                if word == game or re.search(rf"\bperfectplay\.{game}\b", word):
                    line = getattr(node, "lineno", 0)
                    found.append(f"{path.relative_to(ROOT)}:{line}: {word!r}")
    return found


def rust_mentions(path: Path) -> list[str]:
    """Where the code of ``path`` (comments left out) names a game's module or its name."""
    found = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        code = line.split("//", 1)[0]
        for game in GAMES:
            if re.search(rf"\b(games|py)::{game}\b|\"{game}\"", code):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    return found


def test_the_lists_cover_the_shared_layers() -> None:
    for path in [*SHARED_PYTHON, *SHARED_RUST]:
        assert path.is_file(), path
    assert len(SHARED_PYTHON) > 30 and len(SHARED_RUST) > 20


def test_the_shared_python_layers_name_no_game() -> None:
    found = [mention for path in SHARED_PYTHON for mention in python_mentions(path)]
    assert found == []


def test_the_shared_rust_code_names_no_game() -> None:
    found = [mention for path in SHARED_RUST for mention in rust_mentions(path)]
    assert found == []


def test_the_checks_see_a_game_named_in_code(tmp_path: Path) -> None:
    """The checks can fail: code naming a game is caught, a docstring or comment is not."""
    module = tmp_path / "module.py"
    module.write_text(
        '"""Plays connect4."""\n'
        "from perfectplay import connect4\n"
        'NAME = "mnk"\n'
        "def f():\n"
        '    """mnk in a docstring."""\n'
        "    return perfectplay.footholds.solve\n"
    )
    source = tmp_path / "lib.rs"
    source.write_text("// games::mnk in a comment\nuse crate::games::tictactoe::batch;\n")
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        words = [mention.split(": ", 1)[1] for mention in python_mentions(module)]
        assert words == ["'connect4'", "'mnk'", "'footholds'"]
        assert len(rust_mentions(source)) == 1
    finally:
        ROOT = saved
