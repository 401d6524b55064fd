"""Profiling over the real service: `GET /v1/sessions/{id}/profile` (owner only), the dashboard
summary's filters and coverage, `assetops profile`, charts cached once, 422 bodies that do not echo
long inputs, and /docs served without a CDN."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app.cli.profile import format_profile
from app.services.chart_cache import chart_key
from tests.integration.service.conftest import Api
from tests.integration.service.test_api import new_session, say
from tools.framework.cache import clear_result_cache

pytestmark = pytest.mark.integration


def test_session_profile_has_the_measured_split_and_the_calls(api: Api) -> None:
    clear_result_cache()  # earlier tests asked the same: this turn's calls must run, not hit the cache
    sid = new_session(api)
    say(api, sid, "What data do you have on Chiller 6?")
    say(api, sid, "What can you do?")
    response = api.client.get(f"/v1/sessions/{sid}/profile", headers=api.alice)
    assert response.status_code == 200, response.text
    profile = response.json()
    first, second = profile["turns"]
    assert [first["index"], second["index"]] == [1, 2]
    for turn in (first, second):
        split = turn["split_ms"]
        assert set(split) == {"llm", "tools", "db", "routing", "specialists", "answer", "other"}
        assert sum(split.values()) == pytest.approx(turn["wall_ms"], abs=0.1)  # a partition of the wall time
        assert split["routing"] > 0  # the supervisor's time, measured around the node
    assert first["split_ms"]["tools"] > 0 and first["calls"]
    call = first["calls"][0]
    assert call["name"].startswith("iot.") and call["latency_ms"] > 0 and call["start_ms"] >= 0
    assert not any(c["reused"] for c in first["calls"])
    assert sum(c["db_queries"] for c in first["calls"]) >= 1  # each call's own database work
    lines = format_profile(profile, calls=True)
    assert any(line.strip().startswith("1 ") for line in lines) and any("iot." in line for line in lines)
    assert lines[-1].startswith("2 turns")


def test_another_users_session_profile_is_404(api: Api) -> None:
    sid = new_session(api)
    assert api.client.get(f"/v1/sessions/{sid}/profile", headers=api.bob).status_code == 404
    assert api.client.get("/v1/sessions/nope/profile", headers=api.alice).status_code == 404


def test_summary_filters_and_says_what_it_covers(api: Api) -> None:
    one, two = new_session(api), new_session(api)
    say(api, one, "What can you do?")
    say(api, two, "What can you do?")
    say(api, two, "What data do you have on Chiller 9?")
    body = api.client.get("/v1/profiling/summary", params={"session_id": two}, headers=api.alice).json()
    assert body["matching"] == 2 and [t["session_id"] for t in body["turns"]] == [two, two]
    assert body["totals"]["turns_with_split"] == 2
    capped = api.client.get("/v1/profiling/summary", params={"limit": 1}, headers=api.alice).json()
    assert len(capped["turns"]) == 1 and capped["matching"] >= 3  # the page can say "1 of N"
    later = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    assert api.client.get("/v1/profiling/summary", params={"since": later}, headers=api.alice).json()["matching"] == 0
    assert api.client.get("/v1/profiling/summary", headers=api.bob).json()["matching"] == 0


def test_chart_is_rendered_once_then_served_from_the_cache(api: Api) -> None:
    sid = new_session(api)
    say(api, sid, "Show me Chiller 6 power in June 2021.")
    artifacts = api.client.get(f"/v1/sessions/{sid}/artifacts", headers=api.alice).json()
    charted = next(a for a in artifacts if a["data_ref"])
    assert isinstance(charted["observations"], list) and charted["data_format"] in ("csv", "json")
    first = api.client.get(f"/v1/artifacts/{charted['id']}/chart.png", headers=api.alice)
    assert first.status_code == 200 and first.content.startswith(b"\x89PNG")
    cached = list((api.settings.data_dir / "charts").glob(f"{charted['id']}-*.png"))
    assert len(cached) == 1 and cached[0].read_bytes() == first.content
    cached[0].write_bytes(b"\x89PNG-from-cache")  # a second request must read the file, not re-plot
    again = api.client.get(f"/v1/artifacts/{charted['id']}/chart.png", headers=api.alice)
    assert again.content == b"\x89PNG-from-cache"
    assert api.client.get(f"/v1/artifacts/{charted['id']}/chart.png", headers=api.bob).status_code == 404
    assert chart_key(charted["id"], cached[0]).startswith(charted["id"] + "-")


def test_422_does_not_echo_a_30k_message(api: Api) -> None:
    sid = new_session(api)
    response = api.client.post(f"/v1/sessions/{sid}/messages", json={"content": "x" * 30_000}, headers=api.alice)
    assert response.status_code in (413, 422)
    response = api.client.post("/v1/sessions", json={"title": "t" * 30_000}, headers=api.alice)
    assert response.status_code == 422 and len(response.text) < 2_000, len(response.text)
    body = response.json()
    assert body["detail"][0]["ctx"]["max_length"] == 200 and "30,000 characters" in body["detail"][0]["input"]
    assert body["message"].startswith("Invalid request: title")


def test_docs_load_swagger_from_this_service(api: Api) -> None:
    html = api.client.get("/docs").text
    assert "/docs-assets/swagger-ui-bundle.js" in html and "cdn" not in html.lower()
    assert api.client.get("/docs-assets/swagger-ui-bundle.js").status_code == 200
    assert api.client.get("/docs-assets/swagger-ui.css").status_code == 200


def test_401_names_the_key_file_in_words(api: Api) -> None:
    detail = api.client.get("/v1/sessions").json()["detail"]
    assert "local_api_key" in detail and "<" not in detail
