"""The web page and the dashboard in headless Chromium (Debian's chromium + chromedriver, no browser
download), driven as an engineer uses them: a key, a session, questions sent with Enter, the answer
read without scrolling, a chart opened full size, the keyboard reaching every control, errors in
words, the dashboard's bars to scale with a drill-down, and /docs with the network cut off.
Screenshots go to test-output/ (kept as test artifacts; README's come from here)."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.auth import create_user
from assetops.db import migrate
from assetops.db.engine import Database
from fleet.loader import load_fleet
from fleet.synthetic import generate_fleet, small_config
from tests.conftest import IN_CI, make_settings

CHROMIUM, CHROMEDRIVER = shutil.which("chromium"), shutil.which("chromedriver")
OUTPUT = Path(__file__).resolve().parents[2] / "test-output"
QUESTIONS = ("What data do you have on Chiller 6?", "Show me Chiller 6 power and efficiency in June 2021.")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """`assetops serve` on a free port over a small SQLite fleet; yields (base URL, API key)."""
    root = tmp_path_factory.mktemp("browser")
    settings = make_settings(root)
    migrate.upgrade(settings)
    load_fleet(settings, generate_fleet(small_config("2021-06-01", "2021-06-30", assets=("Chiller 6", "Chiller 9"))))

    async def key() -> str:
        db = Database(settings)
        try:
            return (await create_user(db, "browser"))[1]
        finally:
            await db.close()

    api_key = asyncio.run(key())
    port = _free_port()
    env = {**os.environ, "ASSETOPS_DATA_DIR": str(settings.data_dir), "ASSETOPS_WORK_DIR": str(settings.work_dir),
           "ASSETOPS_MODELS_DIR": str(settings.models_dir), "ASSETOPS_DATABASE_URL": settings.database_url,
           "ASSETOPS_REDIS_URL": "", "ASSETOPS_LOG_LEVEL": "WARNING"}
    process = subprocess.Popen([sys.executable, "-m", "app.cli.main", "serve", "--port", str(port)], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.5)
            if process.poll() is not None:
                break
        else:
            process.terminate()
        if process.poll() is not None:
            raise RuntimeError(f"the service did not start: {process.stdout.read() if process.stdout else ''}")
        yield base, api_key
    finally:
        process.terminate()
        process.wait(timeout=20)


def _chrome(extra_flags: tuple[str, ...] = ()) -> Any:
    if CHROMIUM is None or CHROMEDRIVER is None:
        if IN_CI:
            pytest.fail("chromium and chromedriver must be installed in CI (make test installs them)")
        pytest.skip("Debian chromium / chromium-driver not installed (apt-get install chromium chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
                 "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--window-size=1400,900", *extra_flags):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)


@pytest.fixture
def browser() -> Iterator[Any]:
    driver = _chrome()
    try:
        yield driver
    finally:
        driver.quit()


def _wait(driver: Any, seconds: float = 120) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, seconds)


def _use_key(driver: Any, base: str, api_key: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec

    driver.get(base + "/")
    driver.find_element(By.ID, "api-key").send_keys(api_key)
    driver.find_element(By.CSS_SELECTOR, "#key-form button").click()
    _wait(driver, 30).until(ec.text_to_be_present_in_element((By.ID, "key-status"), "Key accepted"))


def _new_session(driver: Any, title: str, reference_date: str = "2021-07-01") -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec

    driver.execute_script("document.getElementById('ref-date').value = arguments[0];"
                          "document.getElementById('ref-date').dispatchEvent(new Event('change'));", reference_date)
    driver.find_element(By.ID, "session-name").send_keys(title)
    driver.find_element(By.CSS_SELECTOR, "#new-session button").click()
    _wait(driver).until(ec.text_to_be_present_in_element((By.ID, "session-title"), title))


def _ask(driver: Any, question: str) -> Any:
    """Type the question, press Enter, wait for the final answer; return its element."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    before = len(driver.find_elements(By.CSS_SELECTOR, ".msg.assistant[data-final='true']"))
    driver.find_element(By.ID, "message").send_keys(question, Keys.ENTER)
    _wait(driver, 240).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".msg.assistant[data-final='true']")) > before)
    _wait(driver, 30).until(lambda d: not d.find_element(By.ID, "send").get_attribute("disabled"))
    return driver.find_elements(By.CSS_SELECTOR, ".msg.assistant[data-final='true']")[-1]


def _visible_in_pane(driver: Any, element: Any) -> bool:
    """The element's top lies inside the chat pane's visible area and inside the window."""
    return bool(driver.execute_script(
        "const r = arguments[0].getBoundingClientRect(), p = document.getElementById('messages').getBoundingClientRect();"
        "return r.height > 0 && r.top >= p.top - 1 && r.top < p.bottom - 20 && r.top < window.innerHeight;", element))


def _screenshot(driver: Any, name: str) -> Path:
    OUTPUT.mkdir(exist_ok=True)
    path = OUTPUT / name
    driver.save_screenshot(str(path))
    return path


def _rest_turns(base: str, api_key: str, title: str, messages: tuple[str, ...]) -> str:
    headers = {"Authorization": f"Bearer {api_key}"}
    with httpx.Client(base_url=base, headers=headers, timeout=240) as http:
        sid = http.post("/v1/sessions", json={"title": title, "reference_date": "2021-07-01"}).json()["id"]
        for message in messages:
            assert http.post(f"/v1/sessions/{sid}/messages", json={"content": message}).status_code == 200
    return str(sid)


def test_chat_answer_first_folded_progress_chart_full_size_and_reload(server: tuple[str, str], browser: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions as ec

    base, api_key = server
    _use_key(browser, base, api_key)
    _new_session(browser, "Chiller 6 review", "2021-07-01")
    _ask(browser, QUESTIONS[0])
    answer = _ask(browser, QUESTIONS[1])
    assert "Chiller 6" in answer.text
    assert _visible_in_pane(browser, answer), "the answer must be readable without scrolling"
    # progress is folded: one line per specialist, not one per tool call
    turn = answer.find_element(By.XPATH, "./ancestor::div[contains(@class,'turn')]")
    lines = turn.find_elements(By.CSS_SELECTOR, ".specialists > li")
    box = turn.find_element(By.CSS_SELECTOR, ".progress-box")
    assert 1 <= len(lines) <= 4, [line.text for line in lines]
    assert box.get_attribute("open") is None, "progress collapses once the answer is there"
    assert "tool call" in box.find_element(By.TAG_NAME, "summary").text
    # a chart renders, with descriptive alt text, and opens full size
    img = _wait(browser, 120).until(lambda d: next((i for i in d.find_elements(By.CSS_SELECTOR, "button.chart-open img")
                                                     if d.execute_script("return arguments[0].naturalWidth", i) > 0), None))
    assert "Chiller 6" in (img.get_attribute("alt") or "") and "chart" in (img.get_attribute("alt") or "")
    assert _visible_in_pane(browser, answer)
    _screenshot(browser, "web_chat.png")
    thumb_width = img.size["width"]
    img.find_element(By.XPATH, "..").click()
    dialog = _wait(browser, 10).until(ec.visibility_of_element_located((By.ID, "chart-dialog")))
    full = browser.find_element(By.ID, "chart-full")
    assert dialog.get_attribute("open") is not None
    assert full.size["width"] >= 2 * thumb_width, (full.size, thumb_width)
    _screenshot(browser, "web_chart_full_size.png")
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    _wait(browser, 10).until(lambda d: d.find_element(By.ID, "chart-dialog").get_attribute("open") is None)
    # a reload keeps the session and the reference date
    browser.refresh()
    _wait(browser).until(ec.text_to_be_present_in_element((By.ID, "session-title"), "Chiller 6 review"))
    assert browser.find_element(By.ID, "ref-date").get_attribute("value") == "2021-07-01"
    _wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".msg.assistant")) == 2)


def test_keyboard_reaches_every_control(server: tuple[str, str], browser: Any) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    base, api_key = server
    _use_key(browser, base, api_key)
    _new_session(browser, "Keyboard check")
    _wait(browser, 30).until(lambda d: d.execute_script("return !!document.querySelector('#sessions button.active')"
                                                        " && !!document.querySelector('#artifact-list .hint')"))
    controls: list[str] = browser.execute_script(
        "let n = 0; return [...document.querySelectorAll('a[href], button, input, textarea, select')]"
        ".filter(e => !e.disabled && e.offsetParent !== null && !e.closest('dialog'))"
        ".map(e => { if (!e.dataset.kb) e.dataset.kb = 'c' + (n++); return e.dataset.kb; });")
    assert len(controls) >= 10 and browser.execute_script("return document.querySelectorAll('#sessions button').length") >= 1
    reached: set[str] = set()
    browser.execute_script("document.activeElement && document.activeElement.blur()")
    for _ in range(3 * len(controls) + 10):
        ActionChains(browser).send_keys(Keys.TAB).perform()
        mark = browser.execute_script("return document.activeElement && document.activeElement.dataset.kb")
        if mark:
            reached.add(mark)
    missing = browser.execute_script(
        "return arguments[0].map(m => document.querySelector(`[data-kb='${m}']`)).map(e => e && (e.id || e.textContent.trim()))",
        sorted(set(controls) - reached))
    assert not missing, f"not reachable with Tab: {missing}"
    labelled = browser.execute_script(
        "return [...document.querySelectorAll('input, textarea, select')].filter(e => !e.labels || !e.labels.length)"
        ".map(e => e.id)")
    assert labelled == [], f"inputs without a label: {labelled}"


def test_errors_are_sentences_and_limits_are_enforced(server: tuple[str, str], browser: Any) -> None:
    from selenium.webdriver.common.by import By

    base, api_key = server
    _use_key(browser, base, api_key)
    _new_session(browser, "Error check")
    box = browser.find_element(By.ID, "message")
    assert box.get_attribute("maxlength") == "20000"
    # over the page's limit: refused in the page, in words
    browser.execute_script("const m = document.getElementById('message'); m.removeAttribute('maxlength');"
                           "m.value = 'x'.repeat(30000); document.getElementById('send').click();")
    status = _wait(browser, 10).until(lambda d: d.find_element(By.ID, "status").text.strip())
    assert "30,000 characters" in status and "20,000" in status, status
    # a field the page does not check itself reaches the server: its 422 is shown as a sentence
    browser.execute_script("const t = document.getElementById('session-name'); t.removeAttribute('maxlength');"
                           "t.value = 'T'.repeat(300); document.querySelector('#new-session button').click();")
    _wait(browser, 30).until(lambda d: "title" in d.find_element(By.ID, "status").text.lower())
    text = browser.find_element(By.ID, "status").text.strip()
    _screenshot(browser, "web_error_422.png")
    assert text == "The title is too long (at most 200 characters).", text
    # a year out of range is refused in the page, in words, before any request
    browser.execute_script("document.getElementById('ref-date').value = '9999-01-01';")
    browser.find_element(By.CSS_SELECTOR, "#new-session button").click()
    status = browser.find_element(By.ID, "status").text
    assert "reference date" in status and "2100" in status, status
    # the server's own 422 for that message does not echo 30,000 characters back
    response = httpx.post(f"{base}/v1/sessions", headers={"Authorization": f"Bearer {api_key}"},
                          json={"title": "t" * 30_000, "reference_date": "2021-07-01"}, timeout=30)
    assert response.status_code == 422 and len(response.text) < 2_000, len(response.text)
    assert "30,000 characters" in response.text


def test_markdown_is_rendered_safely(server: tuple[str, str], browser: Any) -> None:
    base, _ = server
    browser.get(base + "/")
    html = browser.execute_script(
        "return renderMarkdown('**Findings**\\n\\n- one\\n- two <b>x</b>\\n\\n| sensor | value |\\n|---|---|\\n"
        "| Power Input | 263.8 kW |\\n\\n<script>alert(1)</script> [bad](javascript:alert(1))');")
    assert "<table>" in html and "<td class=\"num\">263.8 kW</td>" in html
    assert "<ul><li>one</li><li>two &lt;b&gt;x&lt;/b&gt;</li></ul>" in html
    assert "<script>" not in html and "&lt;script&gt;" in html and "href=\"javascript" not in html


def test_dashboard_bars_to_scale_with_drill_down(server: tuple[str, str], browser: Any) -> None:
    from selenium.webdriver.common.by import By

    base, api_key = server
    _rest_turns(base, api_key, "Dashboard check", ("What data do you have on Chiller 9?",
                                                   "Show Chiller 9 supply temperature in June 2021.", "What can you do?"))
    _use_key(browser, base, api_key)
    browser.get(base + "/dashboard")
    _wait(browser, 60).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#turns .bar")) >= 3)
    coverage = browser.find_element(By.ID, "coverage").text
    assert "matching turns" in coverage and "measured split" in coverage, coverage
    rows = browser.execute_script(
        "return [...document.querySelectorAll('#turns tr')].slice(1).filter(r => r.querySelector('.bar'))"
        ".map(r => [r.querySelector('.bar').getBoundingClientRect().width, r.cells[4].textContent]);")
    walls = [(width, float(text.replace(",", "").split()[0]) * (1000 if text.endswith(" s") else 1))
             for width, text in rows]
    biggest = max(walls, key=lambda w: w[1])
    for width, wall in walls:  # width = 420 px x wall / max wall (1 px floor, rounding of the printed figure)
        assert abs(width - max(420 * wall / biggest[1], 1)) <= 3 + 0.02 * 420, (width, wall, biggest)
    assert len({round(w) for w, _ in walls}) > 1, "bars must differ when wall times differ"
    # drill into the first turn (it called tools): its calls with latency, database time and reuse
    browser.find_element(By.XPATH, "//button[contains(@class,'turn-link')][contains(., '#1')]").click()
    _wait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "tr.drill table.grid"))
    drill = browser.find_element(By.CSS_SELECTOR, "tr.drill").text
    assert "db time" in drill and "iot." in drill and "routing (supervisor)" in drill, drill
    browser.execute_script("window.scrollTo(0, 0)")
    _screenshot(browser, "dashboard.png")
    browser.execute_script("document.querySelector('tr.drill').scrollIntoView({block: 'center'})")
    _screenshot(browser, "dashboard_drill_down.png")


def _network_cut() -> Iterator[Any]:
    # every host name resolves to nothing and every proxied request goes to a closed port; only
    # 127.0.0.1 (the service under test) is reachable
    driver = _chrome(("--proxy-server=http://127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"))
    try:
        yield driver
    finally:
        driver.quit()


offline_browser: Callable[[], Iterator[Any]] = pytest.fixture(_network_cut)


def test_docs_render_with_the_network_cut_off(server: tuple[str, str], offline_browser: Any) -> None:
    from selenium.webdriver.common.by import By

    base, _ = server
    from selenium.common.exceptions import WebDriverException

    with pytest.raises(WebDriverException, match="ERR_"):  # the network really is cut off
        offline_browser.get("https://cdn.jsdelivr.net/npm/swagger-ui-dist@5/swagger-ui.css")
    offline_browser.get(base + "/docs")
    title = _wait(offline_browser, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".swagger-ui .info .title"))
    assert "AssetOps" in title[0].text
    assert offline_browser.find_elements(By.CSS_SELECTOR, ".opblock"), "the operations must be listed"
    hosts = offline_browser.execute_script(
        "return performance.getEntriesByType('resource').map(e => new URL(e.name).host)")
    assert hosts and all(h.startswith("127.0.0.1") for h in hosts), hosts
    _screenshot(offline_browser, "docs_offline.png")
