"""Texts the planner answers with directly: capabilities, questions back, and refusals with a way forward."""

from __future__ import annotations

from datetime import date, timedelta

from assetops.domain.catalog import FleetCatalog
from graph.understanding.assets import known_assets
from graph.understanding.vocabulary import vocabulary


def _names(assets: list[str] | tuple[str, ...]) -> str:
    return ", ".join(assets)


def coverage_text(catalog: FleetCatalog) -> str:
    """"2016-01-01 to 2021-12-31": the telemetry coverage, end inclusive."""
    if catalog.first_day is None or catalog.end_day is None:
        return "no dates (no telemetry is loaded)"
    return f"{catalog.first_day.isoformat()} to {(catalog.end_day - timedelta(days=1)).isoformat()}"


def fleet_text(catalog: FleetCatalog) -> str:
    """The site's chillers: which have telemetry, which only work orders (with equipment ids)."""
    site = vocabulary().site_name
    telemetry = _names([f"{a} ({catalog.equipment_id_of(a)})" for a in catalog.telemetry_assets])
    others = _names([f"{a} ({catalog.equipment_id_of(a)})" for a in known_assets(catalog)
                     if a not in catalog.telemetry_assets])
    return (f"Known chillers at site {site}: with telemetry (10 sensors each, {coverage_text(catalog)}) and work "
            f"orders: {telemetry}; with work orders, events and alerts only: {others}.")


def subset_text(with_telemetry: bool, catalog: FleetCatalog) -> str:
    """"Which chillers don't have sensors?": that side of the site named first, the other after it."""
    site = vocabulary().site_name
    sensed = [f"{a} ({catalog.equipment_id_of(a)})" for a in catalog.telemetry_assets]
    unsensed = [f"{a} ({catalog.equipment_id_of(a)})" for a in known_assets(catalog) if a not in catalog.telemetry_assets]
    if with_telemetry:
        return (f"{len(sensed)} chillers at site {site} report telemetry ({coverage_text(catalog)}): {_names(sensed)}. "
                f"The other {len(unsensed)} have work orders, events and alerts only: {_names(unsensed)}.")
    return (f"{len(unsensed)} chillers at site {site} have no sensor data, only work orders, events and alerts: "
            f"{_names(unsensed)}. Telemetry exists for {_names(sensed)}.")


def capabilities_text(catalog: FleetCatalog) -> str:
    """What each specialist does, plus the site and its assets (answered without any tool call)."""
    return "\n".join([
        "I am an O&M assistant for the chiller fleet. Four specialists work for me:",
        "- Data: sites, assets and sensors, data coverage, telemetry history for any window, point values, "
        "side-by-side comparisons of chillers.",
        "- Time series: anomaly detection, forecasting with time-series foundation models (TTM), fine-tuning "
        "and scoring a forecaster against actuals, sensor drift / missing-data checks, high- vs low-load "
        "behaviour, baseline ranges and alert thresholds.",
        "- Failure reasoning: failure modes of a chiller and the sensors that reveal them, ranked root-cause "
        "hypotheses with confidence and evidence, real process change vs sensor drift.",
        "- Maintenance: work-order history (corrective / preventive, failure-code distribution), visits that "
        "could have been bundled, the next likely work order, alert rules and whether alerts lead to "
        "maintenance, drafted work orders, restart checklists, post-repair validation, prioritisation and "
        "management reports.",
        fleet_text(catalog),
        "Ask e.g. \"Compare Chillers 3 and 4 in August 2020\" or \"Chiller 9 tripped, investigate\".",
    ])


def which_asset_question(intent: str, work_orders: bool, catalog: FleetCatalog) -> str:
    """The question to ask when a request needs a chiller and none was named or discussed."""
    candidates = known_assets(catalog) if work_orders else catalog.telemetry_assets
    kind = "chillers" if work_orders else "chillers with telemetry"
    return f"Which chiller do you mean? The {kind} at site {vocabulary().site_name} are: {_names(candidates)}."


def no_earlier_asset_question(catalog: FleetCatalog) -> str:
    """The question for "the one we talked about" when the conversation has no chiller yet."""
    return ("We have not discussed a chiller yet in this conversation, so I do not know which one you mean. "
            f"Which one? Chillers with telemetry: {_names(catalog.telemetry_assets)}; work orders only: "
            f"{_names([a for a in known_assets(catalog) if a not in catalog.telemetry_assets])}.")


def unknown_assets_text(unknown: list[str], catalog: FleetCatalog) -> str:
    """Refusal for assets the site does not have, with the ones it does have."""
    subject = " and ".join(unknown)
    verb = "is" if len(unknown) == 1 else "are"
    return f"{subject} {verb} not at site {vocabulary().site_name}. {fleet_text(catalog)}"


def no_telemetry_text(assets: list[str], catalog: FleetCatalog) -> str:
    """Refusal for telemetry requests on chillers that only have work-order data."""
    subject = " and ".join(assets)
    return (f"{subject} {'has' if len(assets) == 1 else 'have'} work orders, events and alerts but no telemetry. "
            f"Telemetry exists for {_names(catalog.telemetry_assets)}. I can summarise {subject}'s work orders or "
            "alerts instead.")


def outside_coverage_text(label: str, catalog: FleetCatalog) -> str:
    """Refusal for a period with no telemetry at all."""
    return (f"There is no telemetry for {label}: the fleet's telemetry covers {coverage_text(catalog)}. "
            "Pick a period inside it, e.g. \"June 2021\" or \"the last 30 days\".")


def too_far_ahead_text(label: str, last_day: date) -> str:
    """Refusal for a forecast horizon years ahead."""
    return (f"{label} is too far ahead to forecast: the models roll out from the last recorded data "
            f"({last_day.isoformat()}) and their error grows with every step, so they reach weeks ahead, not years. "
            "Ask e.g. \"forecast it for the next two weeks\".")


def future_period_text(label: str, reference: date, forecastable: bool) -> str:
    """Refusal for a past-looking request about a period after the session's reference date."""
    hint = " I can forecast it instead: ask e.g. \"forecast it for the next week\"." if forecastable else ""
    return f"{label} is after the reference date {reference.isoformat()}, so there is no recorded data for it yet.{hint}"


def invalid_date_question(problems: list[str]) -> str:
    """The question for a period with an impossible date in it: what is wrong, and a request for the right one."""
    return f"{' '.join(problems)} Which date did you mean? Please give the period again with valid dates."


def too_long_text(size: int, limit: int, assets: list[str]) -> str:
    """Refusal for an oversized message (a pasted log), pointing at what it could ask instead."""
    seen = f" It mentions {_names(assets)}." if assets else ""
    return (f"Your message is {size:,} characters; I read at most {limit:,} per turn.{seen} Paste only the "
            "relevant lines, or ask the question directly, e.g. \"Investigate Chiller 9 on 2021-06-14\".")


def not_understood_text() -> str:
    """The question for a message with no recognisable request."""
    return ("I could not tell what you would like me to do. I can review telemetry, detect anomalies, forecast, "
            "diagnose faults, and work with work orders and alerts for the chillers at site "
            f"{vocabulary().site_name}. For example: \"Review Chiller 9's last two months\".")


def acknowledged_text(focus_assets: list[str]) -> str:
    """The reply to a thank-you or an "ok, got it": short, with where the dialog stands."""
    on = f" on {_names(focus_assets)}" if focus_assets else ""
    return f"Glad it helps. Ask whenever you want to go further{on}, or on another chiller."


def off_topic_text(words: list[str], focus_assets: list[str]) -> str:
    """The refusal of a request about something else entirely; the dialog stays where it was."""
    about = f" ({', '.join(words[:3])})" if words else ""
    back = f" We can carry on with {', '.join(focus_assets)} whenever you like." if focus_assets else ""
    return (f"That is outside what I can help with{about}. I work on the chillers at site {vocabulary().site_name}: "
            "their telemetry, anomalies, forecasts, fault diagnosis, work orders and alerts." + back)


def read_only_records_text(focus_assets: list[str]) -> str:
    """The refusal of a request to delete or change the site's records: they are the evidence, read-only here."""
    back = f" We can carry on with {', '.join(focus_assets)}." if focus_assets else ""
    return ("I can't delete or edit the site's records: work orders, alerts and telemetry come from the site's "
            "systems and are read-only here. I can leave a period or a record out of an analysis if you tell me "
            "which, or list the ones that look wrong so they can be corrected at the source." + back)


def nothing_to_run_text(assets: list[str], catalog: FleetCatalog) -> str:
    """The question for a request that leaves nothing to do for the chillers in play."""
    subject = ", ".join(assets) or "the chillers"
    return (f"I found nothing I can run for {subject} with that request. Telemetry exists for "
            f"{_names(catalog.telemetry_assets)}; work orders and alerts for every chiller. What would you like to see?")


def declined_offer_text(offer: str) -> str:
    """The reply to "no, not now" after an offer: nothing is done, and how to ask for it later."""
    what = "a work order" if offer == "draft_wo" else offer.replace("_", " ")
    return (f"Understood: I have not drafted {what}. Say 'draft it' whenever you want one; "
            "meanwhile I can keep looking at the data or the work-order history.")
