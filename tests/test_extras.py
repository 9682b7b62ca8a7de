"""An integration whose framework is not installed says which extra installs it."""

from __future__ import annotations

import subprocess
import sys

import pytest

BLOCKED = """
import sys
sys.modules[{blocked!r}] = None  # what an uninstalled package looks like to an import
try:
    import perfectplay.{module}
except ImportError as error:
    print(error)
"""


@pytest.mark.parametrize(
    ("module", "blocked"),
    [
        ("gym", "gymnasium"),
        ("openspiel", "pyspiel"),
        ("textarena", "textarena"),
        ("dask", "dask.array"),
    ],
)
def test_a_missing_framework_names_the_extra(module: str, blocked: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", BLOCKED.format(module=module, blocked=blocked)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.startswith(f"perfectplay.{module} needs {blocked}, which is not installed")
    assert f"pip install 'perfectplay[{module}]'" in done.stdout


def test_the_board_without_starlette_names_the_extra() -> None:
    code = (
        "import sys\n"
        "sys.modules['starlette'] = sys.modules['starlette.applications'] = None\n"
        "from perfectplay import web\n"
        "try:\n    web.create_app()\nexcept ImportError as error:\n    print(error)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install 'perfectplay[web]'" in done.stdout
