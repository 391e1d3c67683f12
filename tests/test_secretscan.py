"""Secret scanning: configured values and credential shapes are found, named by
JSON path and kind; ordinary product text is left alone."""

from __future__ import annotations

import pytest

from factory.config import Settings, secret_values
from factory.secretscan import Finding, SecretFound, scan

# Built from pieces so this file itself does not look like it holds credentials.
OPENAI = "sk-" + "proj-" + "Ab3" * 10
OPENROUTER = "sk-or-v1-" + "0f9e" * 16
HUB = "hf_" + "aB1cD2eF3g" * 4
AWS = "AKIA" + "IOSFODNN7EXAMPLE"
GITHUB = "ghp_" + "x1Y2z3" * 7
PAT = "github_pat_" + "11AB" * 8
PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIB...\n-----END RSA PRIVATE KEY-----"
BEARER = "Authorization: Bearer " + "eyJhbGciOi" * 3
GOOGLE = "AIza" + "Sy" + "B1c2D3e4F5" * 3 + "g6h"
STRIPE = "sk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc"
JWT = "eyJ" + "hbGciOiJIUzI1NiJ9" + ".eyJ" + "zdWIiOiIxMjM0In0" + "." + "SflKxwRJSMeKKF2QT4f"
GITLAB = "glpat-" + "x1Y2z3A4b5C6d7E8f9G0"
NPM = "npm_" + "a1B2c3D4e5" * 3 + "F6g7H8"
URL_PASSWORD = "postgres://admin:" + "S3cretP4ss" + "@db.internal:5432/rows"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (f"key={OPENAI}", "openai key"),
        (f"export OPENROUTER_API_KEY={OPENROUTER}", "openrouter key"),
        (f"token {HUB} here", "hub token"),
        (f"aws {AWS}", "aws access key"),
        (f"git {GITHUB}", "github token"),
        (PAT, "github token"),
        (PEM, "private key"),
        (BEARER, "bearer token"),
        (f"maps key {GOOGLE}", "google api key"),
        (f"stripe {STRIPE}", "stripe key"),
        (f"cookie={JWT}", "json web token"),
        (f"GITLAB_TOKEN={GITLAB}", "gitlab token"),
        (f"//registry/:_authToken={NPM}", "npm token"),
        (f"DATABASE_URL={URL_PASSWORD}", "password in a url"),
        # ordinary text that only resembles a credential
        ("task-manager-for-the-coolant-loop-12", None),
        ("const hf_button_handler = 1;", None),
        ("sk-short", None),
        ("the bearer of bad news", None),
        ("ASKIA0123 is not a key", None),
        ("see https://example.com/docs and mailto:crew@example.com", None),
        ("ssh git@github.com:owner/repo.git", None),
        ("the AIza prefix, sk_live_ and eyJ are only mentioned here", None),
    ],
)
def test_credential_shapes(text: str, kind: str | None) -> None:
    found = scan({"messages": [{"content": text}]}, [])
    assert found == ([Finding("messages[0].content", kind)] if kind else [])


def test_configured_values_are_found_anywhere_and_named_by_path() -> None:
    row = {
        "id": "s1",
        "messages": [
            {"content": "ok"},
            {"content": [{"type": "text", "text": "v=plain-value-123"}]},
        ],
        "machinery": {"files": {"machine.js": "// clean"}},
    }
    found = scan(row, ["plain-value-123"])
    assert found == [Finding("messages[1].content[0].text", "configured secret")]


def test_short_configured_values_and_bytes_are_ignored() -> None:
    assert scan({"a": "abc", "b": b"plain-value-123"}, ["abc", "plain-value-123"]) == []


def test_a_plain_text_is_scanned_as_text() -> None:
    assert scan(f"card {HUB}", []) == [Finding("text", "hub token")]


def test_the_refusal_names_where_and_kind_but_never_the_secret() -> None:
    findings = scan({"x": [OPENAI, "ok", HUB, AWS, GITHUB]}, [])
    message = str(SecretFound("row s1", findings))
    assert message.startswith("row s1: refused") and "x[0]" in message and "1 more" in message
    assert all(secret not in message for secret in (OPENAI, HUB, AWS, GITHUB))


def test_settings_name_the_secrets_to_scan_for() -> None:
    environ = {"OPENROUTER_API_KEY": "provider-key-1", "MY_SECRET": "xyzxyzxyz", "PATH": "/bin"}
    values = secret_values(Settings(), environ)
    assert scan({"t": "use provider-key-1"}, values) == [Finding("t", "configured secret")]
    assert "/bin" not in values


def test_dict_keys_are_scanned_and_never_shown() -> None:
    # A product's JSON (a state dump, a probe detail) can carry a credential as a key.
    found = scan({"probe_details": {OPENROUTER: 1, "plain": "ok"}}, [])
    assert found == [Finding("probe_details.{key 0}", "openrouter key")]
    assert OPENROUTER not in str(SecretFound("row s1", found))
    assert scan({"probe_details": {"plain-value-123": 1}}, ["plain-value-123"]) == [
        Finding("probe_details.{key 0}", "configured secret")
    ]
