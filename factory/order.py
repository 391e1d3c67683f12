"""Standing orders: the YAML file a shift hands to the model, loaded and rendered.

An order is the same every shift; only the catalogue changes. This module
reads and validates one order and renders it as the text the model sees. It
never decides what a product is (that is the line's business) and never
touches the model.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

ORDERS_DIR = "orders"


class OrderError(ValueError):
    """One line naming the order file and what is wrong with it."""


class Order(BaseModel):
    model_config = ConfigDict(extra="forbid")

    objective: str = Field(min_length=1)
    """What to make, in prose."""
    acceptance: list[str] = Field(default_factory=list)
    """What a finished product must satisfy; rendered as a numbered list."""
    constraints: list[str] = Field(default_factory=list)
    """How the work must be done; rendered as bullets."""
    title: str | None = None
    """An optional heading for the rendered order."""
    name: str = Field(default="", exclude=True)
    """The order's name (`new-machine`): the file stem, not a YAML key."""

    def render(self) -> str:
        parts: list[str] = []
        if self.title:
            parts.append(f"# {self.title}")
        parts.append(self.objective.strip())
        if self.acceptance:
            numbered = [f"{i}. {item.strip()}" for i, item in enumerate(self.acceptance, 1)]
            parts.append("Acceptance criteria:\n" + "\n".join(numbered))
        if self.constraints:
            parts.append("Constraints:\n" + "\n".join(f"- {c.strip()}" for c in self.constraints))
        return "\n\n".join(parts) + "\n"


def order_path(workspace: Path, name_or_path: str) -> Path:
    """`NAME` means `orders/NAME.yaml` in the workspace; anything else is a path."""
    named = workspace / ORDERS_DIR / f"{name_or_path}.yaml"
    if "/" not in name_or_path and not name_or_path.endswith((".yaml", ".yml")):
        return named
    path = Path(name_or_path)
    return path if path.is_absolute() else workspace / path


def load_order(workspace: Path, name_or_path: str) -> Order:
    path = order_path(workspace, name_or_path)
    if not path.is_file():
        known = sorted(p.stem for p in (workspace / ORDERS_DIR).glob("*.yaml"))
        hint = f" (known: {', '.join(known)})" if known else ""
        raise OrderError(f"{path}: no such order{hint}")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" line {mark.line + 1}:" if mark else ""
        problem = getattr(error, "problem", None) or "bad YAML"
        raise OrderError(f"{path}:{where} not valid YAML ({problem})") from None
    except UnicodeDecodeError:
        raise OrderError(f"{path}: not UTF-8 text") from None
    if not isinstance(data, dict):
        raise OrderError(f"{path}: must be a mapping with objective, acceptance, constraints")
    if "name" in data:
        raise OrderError(f"{path}: unknown key 'name' (the order is named by its file)")
    try:
        order = Order.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "order"
        if first["type"] == "extra_forbidden":
            problem = f"unknown key {where!r}"
        elif first["type"] == "missing":
            problem = f"missing {where!r}"
        else:
            problem = f"{where}: {first['msg']}"
        raise OrderError(f"{path}: {problem}") from None
    order.name = path.stem
    return order
