"""Settings, layered: defaults < `factory.yaml` in the workspace < FACTORY_* env < flags.

One pydantic model whose field docstrings are the documentation. Secrets are
never stored here: only the *names* of the environment variables that hold
them, so a printed config can never leak a key.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    NonNegativeFloat,
    PositiveFloat,
    PositiveInt,
    ValidationError,
)

CONFIG_FILE = "factory.yaml"
ENV_PREFIX = "FACTORY_"


class ConfigError(ValueError):
    """A one-line, file-naming problem with the configuration."""


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    provider: str = "auto"
    """`openai`, `builtin`, `replay`, or `auto`: openai when its key is present or a base
    URL or model is set (a local server needs no key), else the built-in designer."""
    base_url: str = "https://openrouter.ai/api/v1"
    """Any OpenAI-compatible endpoint (OpenRouter, OpenAI, vLLM, llama.cpp, Ollama)."""
    model: str = ""
    """The model id the endpoint knows. Empty with the builtin designer."""
    api_key_env: str = "OPENROUTER_API_KEY"
    """The NAME of the environment variable holding the provider key."""
    vision: bool = True
    """Whether the model can see images; the `view` tool is offered only then."""
    max_iterations: PositiveInt = 400
    """Model calls allowed in one session before it stops with `iterations`."""
    max_calls: PositiveInt = 2000
    """Tool calls allowed in one session before it stops with `calls`."""
    max_minutes: PositiveFloat = 25.0
    """Wall-clock minutes for one session (a shift must end before the next cron tick)."""
    max_cost: NonNegativeFloat = 0.0
    """Dollars per session; 0 means no limit."""
    max_output_tokens: PositiveInt = 16000
    """Output tokens asked for per model call."""
    context_tokens: PositiveInt = 128000
    """The model's input budget; compaction starts near it."""
    prices: dict[str, tuple[float, float]] = Field(default_factory=dict)
    """Per model id: (dollars per million input tokens, per million output tokens)."""
    request_timeout: PositiveFloat = 600.0
    """Seconds one model request may take before it counts as a cut stream."""
    browser: str | None = None
    """A Chromium binary to use before the system's and Playwright's own."""
    replay: str | None = None
    """For the replay driver: a session id/path or an exported row to re-issue."""
    seed: str | None = None
    """The builtin designer's seed; default: the session id."""
    hf_dataset: str | None = None
    """Default Hub dataset repo (OWNER/NAME) for `factory ship`; also HF_DATASET."""
    hf_token_env: str = "HF_TOKEN"
    """The NAME of the environment variable holding the Hub token."""
    hf_endpoint: str | None = None
    """A Hub endpoint other than the public one (tests use a local server)."""
    trajectories: str = "trajectories"
    """The local rows folder (the default ship target), relative to the workspace."""
    snapshot_minutes: PositiveFloat = 5.0
    """How often the shift commits the working tree to its shift branch."""
    branch: str = "main"
    """The branch shifts land on."""
    remote: str = "origin"
    """The remote to push to, when it exists."""
    resume_limit: PositiveInt = 3
    """After this many unfinished sessions in a row, a shift starts clean."""


def _env_layer(environ: dict[str, str]) -> dict[str, Any]:
    layer: dict[str, Any] = {}
    for name in Settings.model_fields:
        value = environ.get(ENV_PREFIX + name.upper())
        if value is not None:
            layer[name] = yaml.safe_load(value) if name in ("prices",) else value
    if "hf_dataset" not in layer and environ.get("HF_DATASET"):
        layer["hf_dataset"] = environ["HF_DATASET"]
    return layer


def load_settings(
    workspace: Path,
    flags: dict[str, Any] | None = None,
    environ: dict[str, str] | None = None,
) -> Settings:
    """Resolve the layers. Flags whose value is None were not given and do not override."""
    environ = dict(os.environ if environ is None else environ)
    merged: dict[str, Any] = {}
    path = workspace / CONFIG_FILE
    if path.is_file():
        try:
            loaded = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as error:
            mark = getattr(error, "problem_mark", None)
            where = f" line {mark.line + 1}:" if mark else ""
            problem = getattr(error, "problem", None) or "unreadable"
            raise ConfigError(f"{path}:{where} not valid YAML ({problem})") from None
        if not isinstance(loaded, dict):
            raise ConfigError(f"{path}: must be a mapping of settings")
        merged.update(loaded)
        _validate(merged, lambda key: f"{path}: {key}")
    merged.update(_env_layer(environ))
    _validate(merged, lambda key: ENV_PREFIX + key.upper())
    merged.update({k: v for k, v in (flags or {}).items() if v is not None})
    return _validate(merged, lambda key: "--" + key.replace("_", "-"))


def _validate(values: dict[str, Any], named: Callable[[str], str]) -> Settings:
    """Each layer is checked as it is added, so a problem is the newest layer's: `named`
    says a setting as that layer spells it (file key, variable, flag)."""
    try:
        return Settings.model_validate(values)
    except ValidationError as error:
        first = error.errors()[0]
        key, *inner = [str(part) for part in first["loc"]] or ["settings"]
        where = ".".join([named(key), *inner])
        given = first.get("input")
        shown = f" (got {given!r})" if isinstance(given, str | int | float) else ""
        raise ConfigError(f"{where}: {first['msg']}{shown}") from None


def secret_values(settings: Settings, environ: dict[str, str] | None = None) -> list[str]:
    """Every configured secret's value: the provider key, the Hub token, and any
    environment variable whose name says KEY, TOKEN or SECRET (8+ characters)."""
    environ = dict(os.environ if environ is None else environ)
    values = {environ.get(settings.api_key_env, ""), environ.get(settings.hf_token_env, "")}
    for name, value in environ.items():
        upper = name.upper()
        if any(word in upper for word in ("KEY", "TOKEN", "SECRET")) and len(value) >= 8:
            values.add(value)
    return sorted(v for v in values if v)


def masked(settings: Settings, environ: dict[str, str] | None = None) -> dict[str, Any]:
    """The resolved settings for printing, with whether each secret is present."""
    environ = dict(os.environ if environ is None else environ)
    shown = settings.model_dump()
    for field in ("api_key_env", "hf_token_env"):
        name = shown[field]
        value = environ.get(name, "")
        shown[field] = f"{name} ({'set' if value else 'not set'})"
    return shown
