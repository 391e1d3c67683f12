"""The tools: exact texts, confinement, the shell's limits and environment, images."""

import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from PIL import Image

from factory import imaging, session
from factory.tools import OUTPUT_HEAD, READ_WINDOW, ToolBox


@pytest.fixture
def box(tmp_path: Path) -> ToolBox:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    log = session.SessionLog.create(workspace, "s1")
    tools = ToolBox(
        workspace, workspace / ".factory" / "scratch" / "s1", secrets=["sk-sekrit-123456"], log=log
    )
    yield tools
    tools.close()
    log.close()


def call(box: ToolBox, name: str, **args: object):
    return box.run(name, json.dumps(args))


def test_read_numbers_lines_in_a_bounded_window_with_a_hint(box: ToolBox) -> None:
    (box.workspace / "big.txt").write_text("".join(f"line {i}\n" for i in range(1, 1001)))
    first = call(box, "read", path="big.txt").text
    assert first.splitlines()[0] == "     1  line 1"
    assert first.endswith(
        f"[lines 1-{READ_WINDOW} of 1000; read on with start_line={READ_WINDOW + 1}]"
    )
    assert (
        call(box, "read", path="big.txt", start_line=999).text
        == "   999  line 999\n  1000  line 1000\n[lines 999-1000 of 1000]"
    )
    assert call(box, "read", path="big.txt", start_line=5, end_line=5).text.startswith(
        "     5  line 5\n"
    )


def test_read_points_images_to_view(box: ToolBox) -> None:
    out = io.BytesIO()
    Image.new("RGB", (30, 20)).save(out, format="PNG")
    (box.workspace / "shot.png").write_bytes(out.getvalue())
    text = call(box, "read", path="shot.png").text
    assert "PNG image, 30x20 px" in text and "use view" in text


def test_write_whole_then_replace_and_insert_line_ranges(box: ToolBox) -> None:
    assert (
        call(box, "write", path="a/b/c.txt", content="one\ntwo\nthree\n").text
        == "wrote a/b/c.txt (3 lines, 14 bytes)"
    )
    target = box.workspace / "a/b/c.txt"
    assert call(box, "write", path="a/b/c.txt", content="TWO\n2b", start_line=2, end_line=2).ok
    assert target.read_text() == "one\nTWO\n2b\nthree\n"
    assert (
        call(box, "write", path="a/b/c.txt", content="zero", start_line=1).text
        == "inserted 1 lines before line 1 of a/b/c.txt (now 5 lines)"
    )
    assert target.read_text() == "zero\none\nTWO\n2b\nthree\n"
    bad = call(box, "write", path="a/b/c.txt", content="x", start_line=3, end_line=9)
    assert not bad.ok and "end_line must be 3..5" in bad.text


@pytest.mark.parametrize(
    "path",
    [
        "../outside.txt",
        "/etc/passwd-copy",
        "sub/../../x",
        "link/escaped.txt",
        ".git/config",
        ".factory/sessions/s1.jsonl",
    ],
)
def test_writes_outside_the_workspace_are_refused(box: ToolBox, path: str, tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    (box.workspace / "link").symlink_to(tmp_path / "elsewhere")
    result = call(box, "write", path=path, content="x")
    assert not result.ok and result.text.startswith("error: ")
    assert (
        not (tmp_path / "outside.txt").exists()
        and not (tmp_path / "elsewhere" / "escaped.txt").exists()
    )


def test_the_scratch_folder_is_writable_even_by_absolute_path(box: ToolBox) -> None:
    result = call(box, "write", path=str(box.scratch / "note.md"), content="hi")
    assert result.ok and (box.scratch / "note.md").read_text() == "hi"


def test_list_marks_folders_and_sizes(box: ToolBox) -> None:
    (box.workspace / "dir").mkdir()
    (box.workspace / "f.txt").write_text("12345")
    assert call(box, "list", path=".").text == ".factory/\ndir/\nf.txt  5"


def test_shell_combines_output_and_appends_the_status(box: ToolBox) -> None:
    result = call(box, "shell", command="echo out; echo err >&2; exit 3")
    assert result.text == "out\nerr\n[exit status 3]" and not result.ok
    assert call(box, "shell", command="pwd").text == f"{box.workspace}\n[exit status 0]"


def test_shell_env_has_no_secret_and_our_bin_first(
    box: ToolBox, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOME_PROVIDER_KEY", "sk-sekrit-123456")
    monkeypatch.setenv("WRAPPED", "prefix-sk-sekrit-123456-suffix")
    text = call(box, "shell", command="env").text
    assert "SOME_PROVIDER_KEY" not in text and "WRAPPED" not in text and "sekrit" not in text
    assert call(box, "shell", command="echo $PATH").text.startswith(
        str(Path(sys.executable).parent) + os.pathsep
    )


def test_shell_output_from_the_model_is_redacted(box: ToolBox) -> None:
    assert "sekrit" not in call(box, "shell", command="echo sk-sekrit-123456").text


def test_shell_timeout_kills_the_whole_process_group(box: ToolBox) -> None:
    began = time.monotonic()
    result = call(box, "shell", command="sleep 30 & echo $! > child.pid; sleep 30", timeout=1)
    assert time.monotonic() - began < 10
    assert result.text.endswith("[timed out after 1 s; the process group was killed]")
    child = int((box.workspace / "child.pid").read_text())
    time.sleep(0.3)
    assert not running(child)


def running(pid: int) -> bool:
    """Alive and not a zombie (an un-reaped zombie is dead for our purposes)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"


def test_long_output_keeps_head_and_tail(box: ToolBox) -> None:
    text = call(box, "shell", command="seq 1 200000").text
    assert text.startswith("1\n2\n3\n") and text.endswith("199999\n200000\n[exit status 0]")
    assert "bytes of output cut" in text and len(text) < 2 * OUTPUT_HEAD + 200


def test_view_stores_a_scaled_png_by_digest_and_limits_a_turn(box: ToolBox) -> None:
    out = io.BytesIO()
    Image.new("RGB", (3000, 1500), "#ff0000").save(out, format="JPEG")
    (box.workspace / "big.jpg").write_bytes(out.getvalue())
    box.begin_turn()
    results = [call(box, "view", path="big.jpg") for _ in range(imaging.MAX_PER_TURN + 1)]
    first = results[0]
    assert first.ok and "1568x784 px, scaled from 3000x1500" in first.text
    caption, image = first.image
    stored = box.log.blobs / image.split("/")[1]
    assert imaging.sniff(stored.read_bytes()) == "png" and len(list(box.log.blobs.iterdir())) == 1
    assert not results[-1].ok and "at most 8 images a turn" in results[-1].text
    box.begin_turn()
    assert call(box, "view", path="big.jpg").ok


@pytest.mark.parametrize(
    ("name", "arguments", "expected"),
    [
        ("read", "{not json", "error: the arguments are not valid JSON"),
        ("read", "[1, 2]", "error: the arguments must be one JSON object"),
        ("read", "{}", "error: read needs the argument 'path'"),
        ("shell", '{"command": "true", "timeout": "soon"}', "must be a integer"),
        ("teleport", "{}", "error: unknown tool 'teleport'"),
    ],
)
def test_bad_calls_come_back_as_text(
    box: ToolBox, name: str, arguments: str, expected: str
) -> None:
    result = box.run(name, arguments)
    assert not result.ok and expected in result.text


def test_lenient_types_and_terminal_tools(box: ToolBox) -> None:
    assert box.run("shell", '{"command": "exit 0", "timeout": "5"}').ok
    assert box.run("plan", '{"steps": "look\\nbuild"}').text == "plan recorded (2 steps)"
    assert call(box, "success", summary="made it").terminal == ("settled", "made it")
    assert call(box, "failure", reason="no way").terminal == ("failed", "no way")


def test_view_is_offered_only_to_a_model_that_sees(tmp_path: Path) -> None:
    blind = ToolBox(tmp_path, tmp_path / "scratch", vision=False)
    assert "view" not in blind.names()
    assert "view" not in [s["function"]["name"] for s in blind.schemas()]
    assert not blind.run("view", '{"path": "x.png"}').ok


PARENT_ENVIRON = """
import json, sys
from pathlib import Path
from factory import session
from factory.tools import ToolBox

workspace = Path(sys.argv[1])
log = session.SessionLog.create(workspace, "s1")
box = ToolBox(workspace, workspace / "scratch", secrets=["sk-sekrit-123456"], log=log)
text = box.run("shell", json.dumps({"command": "cat /proc/$PPID/environ; echo; echo done"})).text
print(json.dumps(text))
"""


def test_the_shell_cannot_read_the_key_from_the_factorys_own_environ() -> None:
    # The shell's env is clean, but /proc/<factory pid>/environ is the environment we were
    # started with. Only a non-root user is protected (root may read any process), so the
    # factory side runs as `nobody` when the tests run as root.
    prefix: list[str] = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv: cannot act as an ordinary user")
        prefix = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
        reach = subprocess.run(
            [*prefix, sys.executable, "-c", "import factory.tools"],
            capture_output=True, cwd="/", timeout=60,
        )  # fmt: skip
        if reach.returncode != 0:
            pytest.skip("this checkout is private to root: `nobody` cannot import factory")
    workspace = Path(tempfile.mkdtemp(prefix="factory-environ-"))
    try:
        workspace.chmod(0o777)
        env = {**os.environ, "SOME_PROVIDER_KEY": "sk-sekrit-123456", "HOME": str(workspace)}
        done = subprocess.run(
            [*prefix, sys.executable, "-c", PARENT_ENVIRON, str(workspace)],
            capture_output=True, text=True, timeout=60, env=env, cwd=workspace,
        )  # fmt: skip
    finally:
        shutil.rmtree(workspace, ignore_errors=True)
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    assert "done" in said and "Permission denied" in said and "sk-sekrit" not in said
