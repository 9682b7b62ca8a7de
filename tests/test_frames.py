"""Labels into pandas and pyarrow (the ``frames`` extra): ``BatchSolution.columns()`` of one
dimension, ``to_pandas()`` and ``to_arrow()``, and the message that names the extra when
pandas is missing."""

from __future__ import annotations

import subprocess
import sys

import numpy as np


def test_labels_go_into_pandas_and_pyarrow_as_columns_of_one_dimension() -> None:
    """``columns()`` splits each per-move array into a column a move; pandas and pyarrow
    take them, and each column holds what the array holds."""
    import pandas as pd
    import pyarrow as pa

    from perfectplay import connect4, mnk

    for labels, moves in (
        (mnk.batch_solve(mnk.random_positions(3, 3, 3, 50, seed=2), 3, moves=True), 9),
        (connect4.batch_solve(["4453", "", "1"], moves=True), 7),
        (mnk.batch_solve(mnk.random_positions(3, 3, 3, 5, seed=2), 3), 9),
    ):
        columns = labels.columns()
        assert all(column.ndim == 1 and len(column) == len(labels) for column in columns.values())
        for name, array in labels.to_dict().items():
            if array.ndim == 1:
                assert columns[name] is array
            else:
                for move in range(moves):
                    assert np.array_equal(columns[f"{name}_{move}"], array[:, move])
        frame = labels.to_pandas()
        assert isinstance(frame, pd.DataFrame) and list(frame.columns) == list(columns)
        assert np.array_equal(frame["value"].to_numpy(), labels.value)
        table = labels.to_arrow()
        assert isinstance(table, pa.Table) and table.column_names == list(columns)
        assert table.num_rows == len(labels)


def test_without_pandas_the_message_names_the_extra() -> None:
    code = (
        "import sys\n"
        "sys.modules['pandas'] = None\n"
        "from perfectplay import mnk\n"
        "labels = mnk.batch_solve(['x../.../...'], 3)\n"
        "try:\n    labels.to_pandas()\nexcept ImportError as error:\n    print(error)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "pandas is not installed: pip install 'perfectplay[frames]'"
