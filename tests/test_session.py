"""The session log: durable appends, a torn tail tolerated, compaction replayed."""

import time
from pathlib import Path

import pytest

from factory import messages, session


def test_records_round_trip_and_compaction_keeps_snapshots(tmp_path: Path) -> None:
    log = session.SessionLog.create(tmp_path, "s1")
    log.append("meta", id="s1", order="new-machine", started=session.now())
    for i in range(4):
        log.message(messages.user(f"turn {i}"))
    log.append("compaction", checkpoint=messages.checkpoint("summary"), keep=1)
    log.event("nudge", why="empty")
    log.append("outcome", reason="settled", iterations=3)
    log.close()

    loaded = session.load(log.path)
    assert [m["content"] for m in loaded.messages] == ["summary", "turn 3"]
    assert [len(s) for s in loaded.snapshots] == [4]
    assert loaded.events == {"nudge": 1}
    assert loaded.outcome["reason"] == "settled"


def test_torn_last_line_is_skipped_but_torn_middle_is_an_error(tmp_path: Path) -> None:
    log = session.SessionLog.create(tmp_path, "s2")
    log.append("meta", id="s2")
    log.message(messages.user("kept"))
    log.close()
    with open(log.path, "a") as f:
        f.write('{"kind": "message", "mess')
    assert [m["content"] for m in session.load(log.path).messages] == ["kept"]

    with open(log.path, "a") as f:
        f.write('\n{"kind": "event", "event": "x"}\n')
    with pytest.raises(ValueError, match="line 3 is not JSON"):
        session.load(log.path)


def test_images_are_stored_once_by_digest(tmp_path: Path) -> None:
    log = session.SessionLog.create(tmp_path, "s3")
    first = log.store_image(b"\x89PNG fake")
    second = log.store_image(b"\x89PNG fake")
    assert first == second and first.startswith("images/")
    assert len(list(log.blobs.iterdir())) == 1


def test_find_by_prefix_and_last(tmp_path: Path) -> None:
    for sid in ("20260101T000000Z-aaaaaa", "20260102T000000Z-bbbbbb"):
        session.SessionLog.create(tmp_path, sid).append("meta", id=sid)
    assert session.find(tmp_path, "last").stem.endswith("bbbbbb")
    assert session.find(tmp_path, "20260101").stem.endswith("aaaaaa")
    with pytest.raises(LookupError):
        session.find(tmp_path, "2026")


def test_batch_flushes_each_record_and_syncs_once(tmp_path: Path, monkeypatch) -> None:
    synced: list[int] = []
    real_fsync = session.os.fsync
    monkeypatch.setattr(session.os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd)))
    log = session.SessionLog.create(tmp_path, "s4")
    log.append("meta", id="s4")
    assert len(synced) == 1
    with log.batch():
        log.message(messages.user("a"))
        log.event("tool", name="read")
        # flushed already: another reader sees both records before the sync
        assert len(session.read_records(log.path)) == 3
        assert len(synced) == 1
    assert len(synced) == 2


def test_ids_sort_in_start_order_within_one_second() -> None:
    ids = []
    for _ in range(20):
        ids.append(session.new_id())
        time.sleep(0.002)
    assert sorted(ids) == ids and len(set(ids)) == 20
