"""A stand-in for the Hub's HTTP API on 127.0.0.1, as much as `HfApi(endpoint=...)`
needs to create a dataset repo, check files, preupload, commit and list files.

The real Hub cannot be reached from tests, so this is the one mock of the row's
tests; it speaks the same routes and headers `huggingface_hub` 2.x reads
(`X-Error-Code`, `X-Repo-Commit`, the ndjson commit payload). Every file is
answered as a regular (non-LFS, non-xet) upload; an `lfsFile` in a commit is
refused, so a test would notice if the client ever tried LFS. Faults are
injected per route: `hub.fail("commit", 500)` answers the next commit with 500.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote, urlparse

import yaml

REPO = r"(?P<repo>[\w.-]+/[\w.-]+)"
ROUTES = (
    ("POST", "create", re.compile(r"^/api/repos/create$")),
    ("POST", "validate", re.compile(r"^/api/validate-yaml$")),
    ("POST", "preupload", re.compile(rf"^/api/datasets/{REPO}/preupload/(?P<rev>[^/]+)$")),
    ("POST", "commit", re.compile(rf"^/api/datasets/{REPO}/commit/(?P<rev>[^/]+)$")),
    ("GET", "tree", re.compile(rf"^/api/datasets/{REPO}/tree/(?P<rev>[^/]+)(?:/(?P<path>.+))?$")),
    ("GET", "info", re.compile(rf"^/api/datasets/{REPO}(?:/revision/(?P<rev>[^/]+))?$")),
    ("GET", "resolve", re.compile(rf"^/datasets/{REPO}/resolve/(?P<rev>[^/]+)/(?P<path>.+)$")),
)


@dataclass
class Repo:
    files: dict[str, bytes] = field(default_factory=dict)
    commits: list[dict[str, Any]] = field(default_factory=list)

    @property
    def head(self) -> str:
        return self.commits[-1]["oid"] if self.commits else "0" * 40


class _Discard:
    """A request stand-in whose answer goes nowhere (for `lose_answer`)."""

    def __init__(self) -> None:
        self.wfile = io.BytesIO()

    def send_response(self, *args: Any) -> None:
        pass

    def send_header(self, *args: Any) -> None:
        pass

    def end_headers(self) -> None:
        pass


class FakeHub:
    """Run with `with FakeHub(token) as hub:`; `hub.endpoint` goes to `HfApi(endpoint=...)`."""

    def __init__(self, token: str = "hf_test_token_for_the_local_stand_in"):
        self.token = token
        self.repos: dict[str, Repo] = {}
        self.faults: dict[str, list[int]] = {}
        self.lost: dict[str, int] = {}
        self.requests: list[tuple[str, str]] = []
        self.lock = threading.Lock()
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output quiet
                pass

            def do_GET(self) -> None:
                hub._handle(self, "GET")

            def do_HEAD(self) -> None:
                hub._handle(self, "HEAD")

            def do_POST(self) -> None:
                hub._handle(self, "POST")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.endpoint = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    def __enter__(self) -> FakeHub:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def fail(self, route: str, *statuses: int) -> None:
        """Answer the next requests on `route` with these statuses, in order."""
        self.faults.setdefault(route, []).extend(statuses)

    def lose_answer(self, route: str) -> None:
        """Do the next request on `route`, then answer 502 as if the reply was lost."""
        self.lost[route] = self.lost.get(route, 0) + 1

    def count(self, route: str) -> int:
        return sum(1 for _, name in self.requests if name == route)

    # --- the server side ------------------------------------------------------------

    def _handle(self, request: BaseHTTPRequestHandler, method: str) -> None:
        url = urlparse(request.path)
        length = int(request.headers.get("Content-Length") or 0)
        body = request.rfile.read(length) if length else b""
        routed = [
            (name, match)
            for verb, name, pattern in ROUTES
            if (match := pattern.match(url.path))
            and verb in (method, "GET" if method == "HEAD" else "")
        ]
        if not routed:
            return self._send(request, 404, {"error": "no such route"}, error="EntryNotFound")
        name, match = routed[0]
        with self.lock:
            self.requests.append((method, name))
            fault = self.faults.get(name)
            status = fault.pop(0) if fault else None
            if status:
                return self._send(request, status, {"error": f"injected {status}"})
            if method == "POST" and request.headers.get("Authorization") != f"Bearer {self.token}":
                return self._send(request, 401, {"error": "Invalid credentials"})
            params = {k: unquote(v) if v else v for k, v in match.groupdict().items()}
            if self.lost.get(name):
                self.lost[name] -= 1
                getattr(self, f"_{name}")(_Discard(), params, body, method)
                return self._send(request, 502, {"error": "the answer was lost"})
            getattr(self, f"_{name}")(request, params, body, method)

    def _send(
        self,
        request: BaseHTTPRequestHandler,
        status: int,
        payload: Any = None,
        *,
        raw: bytes | None = None,
        headers: dict[str, str] | None = None,
        error: str | None = None,
        method: str = "GET",
    ) -> None:
        data = raw if raw is not None else json.dumps(payload).encode()
        request.send_response(status)
        request.send_header("Content-Type", "application/json")
        request.send_header("Content-Length", str(len(data)))
        if error:
            request.send_header("X-Error-Code", error)
        for key, value in (headers or {}).items():
            request.send_header(key, value)
        request.end_headers()
        if method != "HEAD":
            request.wfile.write(data)

    def _repo(self, request: BaseHTTPRequestHandler, repo: str, method: str) -> Repo | None:
        if repo not in self.repos:
            self._send(
                request, 404, {"error": "Repository not found"}, error="RepoNotFound", method=method
            )
            return None
        return self.repos[repo]

    def _create(self, request, params, body, method) -> None:
        asked = json.loads(body)
        repo_id = f"{asked['organization']}/{asked['name']}"
        if asked.get("type") != "dataset":
            return self._send(request, 400, {"error": "only dataset repos here"})
        if repo_id in self.repos:
            url = f"{self.endpoint}/datasets/{repo_id}"
            return self._send(request, 409, {"error": "You already created this repo", "url": url})
        self.repos[repo_id] = Repo()
        self._send(request, 200, {"url": f"{self.endpoint}/datasets/{repo_id}"})

    def _validate(self, request, params, body, method) -> None:
        content = json.loads(body)["content"]
        front = content.split("---")[1] if content.startswith("---") else ""
        try:
            yaml.safe_load(front)
        except yaml.YAMLError:
            return self._send(request, 400, {"errors": [{"message": "bad YAML"}]})
        self._send(request, 200, {"errors": [], "warnings": []})

    def _info(self, request, params, body, method) -> None:
        repo = self._repo(request, params["repo"], method)
        if repo is not None:
            siblings = [{"rfilename": path} for path in sorted(repo.files)]
            info = {"id": params["repo"], "sha": repo.head, "private": False, "siblings": siblings}
            self._send(request, 200, info, method=method)

    def _resolve(self, request, params, body, method) -> None:
        repo = self._repo(request, params["repo"], method)
        if repo is None:
            return
        data = repo.files.get(params["path"])
        if data is None:
            return self._send(
                request, 404, {"error": "Entry not found"}, error="EntryNotFound", method=method
            )
        etag = f'"{hashlib.sha1(data).hexdigest()}"'
        headers = {"X-Repo-Commit": repo.head, "ETag": etag}
        self._send(request, 200, raw=data, headers=headers, method=method)

    def _tree(self, request, params, body, method) -> None:
        repo = self._repo(request, params["repo"], method)
        if repo is None:
            return
        prefix = (params.get("path") or "").rstrip("/")
        entries = [
            {"type": "file", "path": path, "size": len(data), "oid": hashlib.sha1(data).hexdigest()}
            for path, data in sorted(repo.files.items())
            if not prefix or path.startswith(prefix + "/")
        ]
        if prefix and not entries:
            return self._send(request, 404, {"error": "Entry not found"}, error="EntryNotFound")
        self._send(request, 200, entries)

    def _preupload(self, request, params, body, method) -> None:
        if self._repo(request, params["repo"], method) is None:
            return
        files = json.loads(body)["files"]
        answer = [
            {"path": f["path"], "uploadMode": "regular", "shouldIgnore": False} for f in files
        ]
        self._send(request, 200, {"files": answer})

    def _commit(self, request, params, body, method) -> None:
        repo = self._repo(request, params["repo"], method)
        if repo is None:
            return
        lines = [json.loads(line) for line in body.decode().splitlines() if line.strip()]
        header = lines[0]["value"]
        added: dict[str, bytes] = {}
        for line in lines[1:]:
            if line["key"] != "file":
                return self._send(request, 400, {"error": f"{line['key']} is not served here"})
            added[line["value"]["path"]] = base64.b64decode(line["value"]["content"])
        oid = hashlib.sha1(f"{repo.head}{header['summary']}{sorted(added)}".encode()).hexdigest()
        repo.files.update(added)
        repo.commits.append(
            {
                "oid": oid,
                "summary": header["summary"],
                "parent": header.get("parentCommit"),
                "files": sorted(added),
            }
        )
        url = f"{self.endpoint}/datasets/{params['repo']}/commit/{oid}"
        self._send(request, 200, {"commitUrl": url, "commitOid": oid, "pullRequestUrl": None})
