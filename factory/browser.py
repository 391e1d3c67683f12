"""Which Chromium to drive, and how to start it on a machine with no network.

Fallback order: a configured path (argument or FACTORY_BROWSER), the system's
Chromium, then Playwright's own download. This module only finds and
describes; callers launch with the sync or async Playwright API as they need.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

SYSTEM_CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

# Without the background-networking flags Chromium tries to reach Google at
# start and its refused connections slow every launch on a closed network.
ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--mute-audio",
    "--hide-scrollbars",
    "--font-render-hinting=none",
)


class BrowserNotFound(RuntimeError):
    pass


def executable(configured: str | None = None) -> str | None:
    """The Chromium binary to use, or None to let Playwright use its own."""
    configured = configured or os.environ.get("FACTORY_BROWSER")
    if configured:
        path = Path(configured)
        if not path.is_file():
            raise BrowserNotFound(f"configured browser {configured} does not exist")
        return str(path)
    for name in SYSTEM_CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


def launch_options(configured: str | None = None) -> dict[str, Any]:
    """Keyword arguments for `playwright.chromium.launch` (sync or async)."""
    options: dict[str, Any] = {"headless": True, "args": list(ARGS)}
    path = executable(configured)
    if path:
        options["executable_path"] = path
    return options
