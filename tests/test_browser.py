"""Browser detection: a configured path first, then the system's Chromium, then Playwright's."""

from pathlib import Path

import pytest

from factory import browser


def test_configured_path_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "my-chrome"
    fake.write_text("")
    monkeypatch.setenv("PATH", "")
    assert browser.executable(str(fake)) == str(fake)
    assert browser.launch_options(str(fake))["executable_path"] == str(fake)


def test_missing_configured_path_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(browser.BrowserNotFound, match="does not exist"):
        browser.executable(str(tmp_path / "nope"))


def test_system_chromium_then_playwright_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("FACTORY_BROWSER", raising=False)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    chromium = bin_dir / "chromium"
    chromium.write_text("#!/bin/sh\n")
    chromium.chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    assert browser.executable() == str(chromium)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert browser.executable() is None
    assert "executable_path" not in browser.launch_options()
