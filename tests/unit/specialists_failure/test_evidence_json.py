"""The evidence dict is stored as JSON (artifacts.results): every flag must be a plain Python bool."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from specialists.common.evidence import _load_line
from specialists.common.frames import LOAD


def test_interpolated_load_line_reports_a_plain_bool() -> None:
    # A winter lead machine: the baseline sits at one load, the recent window spans a wide range,
    # so the recent line is used and `matched` says whether the baseline load lies inside it.
    base = pd.DataFrame({LOAD: np.full(60, 40.0), "Power Input": np.full(60, 200.0)})
    now = pd.DataFrame({LOAD: np.linspace(20.0, 90.0, 60), "Power Input": np.linspace(100.0, 400.0, 60)})
    _, inside = _load_line(base, now, "Power Input", matched=False)
    assert type(inside) is bool and inside
    json.dumps({"matched": inside})  # numpy.bool_ here made the artifact insert fail
    _, outside = _load_line(base.assign(**{LOAD: 10.0}), now, "Power Input", matched=False)
    assert type(outside) is bool and not outside
