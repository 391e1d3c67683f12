"""Shared fixtures. Kept minimal: a fixture lives here only when several test modules use it."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from openai_server import OpenAIServer  # noqa: E402


@pytest.fixture
def openai_server() -> Iterator[OpenAIServer]:
    """A scripted OpenAI-compatible endpoint on 127.0.0.1 (the LLM cannot exist here)."""
    with OpenAIServer() as server:
        yield server
