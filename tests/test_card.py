"""The dataset card kept in the repository is the one the export writes."""

from pathlib import Path

from factory import card

ROOT = Path(__file__).resolve().parent.parent


def test_the_committed_card_is_current() -> None:
    committed = (ROOT / "trajectories" / "README.md").read_text(encoding="utf-8")
    assert committed == card.card_text(), "regenerate trajectories/README.md from factory.card"
