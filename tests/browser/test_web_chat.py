"""The web chat page in headless Chromium (Debian's chromium + chromedriver, no browser download):
open the page, use a key, start a session, send a message, see streamed progress and the answer."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

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


@pytest.fixture
def browser() -> Iterator[object]:
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
                 "--window-size=1400,900"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def test_chat_page_streams_progress_and_shows_the_answer(server: tuple[str, str], browser) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    base, api_key = server
    browser.get(base + "/")
    browser.find_element(By.ID, "api-key").send_keys(api_key)
    browser.find_element(By.CSS_SELECTOR, "#key-form button").click()
    browser.find_element(By.CSS_SELECTOR, "#new-session button").click()
    wait = WebDriverWait(browser, 120)
    wait.until(ec.text_to_be_present_in_element((By.ID, "session-title"), "reference date"))
    browser.find_element(By.ID, "message").send_keys("What data do you have on Chiller 6?")
    browser.find_element(By.ID, "send").click()
    wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, ".msg.assistant[data-final='true']")))
    progress = [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".progress")]
    answer = browser.find_element(By.CSS_SELECTOR, ".msg.assistant[data-final='true']").text
    wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, ".artifact")))
    OUTPUT.mkdir(exist_ok=True)
    browser.save_screenshot(str(OUTPUT / "web_chat.png"))
    assert any(p.startswith("✓") or "supervisor" in p for p in progress), progress
    assert any("iot." in p for p in progress), "tool progress must stream into the page"
    assert "Chiller 6" in answer
    assert browser.find_elements(By.CSS_SELECTOR, "#sessions li")
