"""Standing orders: loaded through pydantic, rendered for the model, bad files named in one line."""

from pathlib import Path

import pytest

from factory.order import OrderError, load_order

GOOD = """\
title: New thing
objective: Make one new thing.
acceptance:
  - it works
  - it is new
constraints:
  - no network
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / "orders" / f"{name}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_a_named_order_renders_objective_numbered_criteria_and_bullets(tmp_path: Path) -> None:
    write(tmp_path, "new-thing", GOOD)
    order = load_order(tmp_path, "new-thing")
    assert order.name == "new-thing"
    assert order.render() == (
        "# New thing\n\nMake one new thing.\n\n"
        "Acceptance criteria:\n1. it works\n2. it is new\n\n"
        "Constraints:\n- no network\n"
    )


def test_a_path_works_as_well_as_a_name(tmp_path: Path) -> None:
    path = write(tmp_path, "elsewhere", "objective: Do it.\n")
    order = load_order(tmp_path / "somewhere-else", str(path))
    assert order.name == "elsewhere" and order.acceptance == [] and order.title is None


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("objective: [unclosed\n", "not valid YAML"),
        ("objective: x\ncolour: red\n", "unknown key 'colour'"),
        ("acceptance: [a]\n", "missing 'objective'"),
        ("- just\n- a list\n", "must be a mapping"),
        ("objective: x\nacceptance: nope\n", "acceptance"),
        ("objective: x\nname: y\n", "unknown key 'name'"),
    ],
)
def test_bad_orders_are_one_line_naming_the_file(tmp_path: Path, text: str, problem: str) -> None:
    path = write(tmp_path, "bad", text)
    with pytest.raises(OrderError) as caught:
        load_order(tmp_path, "bad")
    message = str(caught.value)
    assert message.startswith(str(path)) and problem in message and "\n" not in message


def test_an_unknown_name_lists_the_known_orders(tmp_path: Path) -> None:
    write(tmp_path, "new-thing", GOOD)
    with pytest.raises(OrderError, match=r"orders/nope.yaml: no such order \(known: new-thing\)"):
        load_order(tmp_path, "nope")
