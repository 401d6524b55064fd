"""The development dialogs of docs/DIALOGS.md as data: fleet window, reference date, turns, expectations.

Each dialog runs on its own small generated fleet (a short window around its dates, only the chillers
it needs) so the whole set stays fast. Expectations per turn: the specialists the supervisor must
plan, and strings the answer must mention (asset, window).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date


@dataclass(frozen=True)
class Turn:
    message: str
    specialists: tuple[str, ...] = ()  # planned (and run, reused or honestly unavailable)
    mentions: tuple[str, ...] = ()  # the answer contains each of these
    kind: str = "run"  # the supervisor's first decision kind


@dataclass(frozen=True)
class Dialog:
    name: str
    fleet_start: str
    fleet_end: str
    assets: tuple[str, ...]
    reference_date: date
    turns: tuple[Turn, ...] = field(default_factory=tuple)


DIALOGS: tuple[Dialog, ...] = (
    Dialog("D1", "2021-02-20", "2021-06-30", ("Chiller 4",), date(2021, 7, 1), (
        Turn("Chiller 4 at MAIN has been drawing more power than usual this spring. What's going on?",
             ("data", "timeseries"), ("Chiller 4", "2021-03")),
        Turn("Which failure modes could explain that?", ("failure",), ("Chiller 4",)),
        Turn("Rank them using the other sensors.", ("failure",), ()),
        Turn("Draft a work order for the most likely one.", ("maintenance",), ()),
    )),
    Dialog("D2", "2020-07-25", "2021-06-30", ("Chiller 3", "Chiller 4"), date(2021, 7, 1), (
        Turn("Compare how Chillers 3 and 4 performed in August 2020.", ("data",), ("Chiller 3", "Chiller 4", "2020-08")),
        Turn("Forecast both for the next two weeks.", ("timeseries",), ()),
        Turn("Which one needs attention first and why?", ("maintenance",), ()),
    )),
    Dialog("D3", "2019-01-01", "2019-01-15", ("Chiller 6",), date(2021, 7, 1), (
        Turn("Give me a summary of corrective maintenance on CWC04006 since 2018.", ("maintenance",), ("CWC04006",)),
        Turn("Any of those that should have been done in one visit?", ("maintenance",), ()),
        Turn("What is likely to come next?", ("maintenance",), ()),
    )),
    Dialog("D4", "2021-04-01", "2021-06-30", ("Chiller 3",), date(2021, 7, 1), (
        Turn("We keep getting alerts on Chiller 3. Which rules fire and how often?", ("maintenance",), ("Chiller 3",)),
        Turn("Do any of them actually lead to maintenance?", ("maintenance",), ()),
        Turn("Suggest better thresholds.", ("timeseries",), ()),
    )),
    Dialog("D5", "2019-07-10", "2019-07-31", ("Chiller 9",), date(2019, 7, 23), (
        Turn("Chiller 9 just tripped. Investigate.", ("data",), ("Chiller 9", "Condenser Water Flow")),
        Turn("What happened before the trip?", ("timeseries",), ()),
        Turn("Cause?", ("failure",), ()),
        Turn("How do we restart safely, and how do we know it's fixed?", ("maintenance",), ()),
    )),
    Dialog("D6", "2021-06-01", "2021-06-30", ("Chiller 3", "Chiller 4", "Chiller 6", "Chiller 9"), date(2021, 7, 1), (
        Turn("What can you do?", (), (), kind="answer"),
        Turn("What data do you have on Chiller 6?", ("data",), ("Chiller 6",)),
        Turn("And what models can I run on it?", ("timeseries",), ()),
    )),
    Dialog("D7", "2019-01-01", "2020-01-08", ("Chiller 3",), date(2021, 7, 1), (
        Turn("Fine-tune a forecaster for Chiller 3 tonnage on 2019 data.", ("data", "timeseries"),
             ("Chiller 3", "2019")),
        Turn("Use it to forecast the first week of 2020 and tell me how far off it was.", ("timeseries",), ()),
    )),
    Dialog("D8", "2021-03-25", "2021-06-30", ("Chiller 6",), date(2021, 7, 1), (
        Turn("Are any Chiller 6 sensors unreliable over the last quarter?", ("timeseries",), ("Chiller 6",)),
        Turn("Is the supply temperature drift real?", ("failure",), ()),
        Turn("Plan the fix.", ("maintenance",), ()),
    )),
    Dialog("D9", "2021-06-01", "2021-06-30", ("Chiller 3", "Chiller 4", "Chiller 6", "Chiller 9"), date(2021, 7, 1), (
        # Four chillers fit: a status of all four, ranked (issue 11); "the one" is then the one that stood out.
        Turn("Check the chiller.", ("data", "timeseries", "maintenance"), ("Chiller",), kind="run"),
        Turn("The one we talked about.", (), ("Chiller",), kind="run"),
        Turn("Show Chiller 99 data for 2035.", (), ("Chiller 99",), kind="reject"),
        Turn("ERROR 2021-06-03 chiller log line repeated\n" * 1200, (), (), kind="reject"),
    )),
    Dialog("D10", "2021-04-25", "2021-06-30", ("Chiller 9",), date(2021, 7, 1), (
        Turn("Review Chiller 9's last two months.", ("data",), ("Chiller 9", "2021-05")),
        Turn("Any anomalies or rule violations?", ("timeseries", "maintenance"), ()),
        Turn("Root cause and severity?", ("failure",), ()),
        Turn("Existing work orders for it?", ("maintenance",), ()),
        Turn("Summarise all of this for management.", ("maintenance",), ()),
    )),
)
