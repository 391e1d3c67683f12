"""The dataset card kept in the repository is the one the export writes."""

from pathlib import Path

from factory import card

ROOT = Path(__file__).resolve().parent.parent


def test_the_committed_card_is_current() -> None:
    committed = (ROOT / "trajectories" / "README.md").read_text(encoding="utf-8")
    assert committed == card.card_text(), "regenerate trajectories/README.md from factory.card"


def test_the_finished_filters_follow_each_card() -> None:
    # machinery: the probe must pass too; arcade: the reference has no probe, only the check.
    text = card.card_text()
    assert (
        'Finished machines: complete and machinery.outcome == "settled" and '
        'machinery.catalogue_check == "success" and machinery.probe == "success".'
    ) in text
    assert (
        'Finished games: complete and arcade.outcome == "settled" and '
        'arcade.catalogue_check == "success".'
    ) in text
