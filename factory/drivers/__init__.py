"""Model drivers: one class per way of getting replies, all behind `factory.model.Model`.

`make_model` is the only place that chooses between them, by `settings.provider`.
Nothing here runs tools or decides policy; that is the loop's business.
"""

from __future__ import annotations

import os
from pathlib import Path

from factory.config import Settings
from factory.model import Model

PROVIDERS = ("openai", "replay", "builtin", "auto")


class DriverError(ValueError):
    """A one-line reason no model could be built."""


def resolve_provider(settings: Settings, environ: dict[str, str] | None = None) -> str:
    """`auto` is openai when its key is present or an endpoint of our own is named (a local
    server needs no key), else the built-in designer: a model named on the default
    endpoint, which always needs a key, cannot take a shift without one."""
    if settings.provider != "auto":
        return settings.provider
    environ = dict(os.environ if environ is None else environ)
    return "openai" if environ.get(settings.api_key_env) or own_endpoint(settings) else "builtin"


def own_endpoint(settings: Settings) -> bool:
    """Whether the base URL was set away from the default (a local or private server)."""
    return settings.base_url != Settings.model_fields["base_url"].default


def make_model(settings: Settings, workspace: Path, session_id: str) -> Model:
    provider = resolve_provider(settings)
    if provider == "openai":
        from factory.drivers.openai import OpenAIModel

        if not settings.model:
            raise DriverError(
                "the openai provider needs a model: --model, FACTORY_MODEL or model: in factory.yaml"
            )

        return OpenAIModel(settings)
    if provider == "replay":
        from factory.drivers.replay import Replay

        if not settings.replay:
            raise DriverError(
                "the replay provider needs a recording: FACTORY_REPLAY=ID|PATH or replay: in factory.yaml"
            )
        return Replay.load(workspace, settings.replay)
    if provider == "builtin":
        from factory.designer.driver import Designer

        return Designer(workspace=workspace, seed=settings.seed or session_id)
    if provider == "scripted":
        raise DriverError("the scripted driver is built by tests (factory.drivers.scripted)")
    raise DriverError(f"unknown provider {provider!r} (known: {', '.join(PROVIDERS)})")
