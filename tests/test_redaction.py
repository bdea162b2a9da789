"""Tests of the secret-redaction engine (auditlog.redaction).

Every fake secret lives in tests/data/secrets_corpus.json (formats are real, values are random); this file
holds none, so the false-positive benchmark can scan it like any other source file.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from pathlib import Path

import pytest

from auditlog.redaction import KINDS, MARKER_PREFIX, RULES, Redactor, is_marker, secret_key_kind

CORPUS_PATH = Path(__file__).parent / "data" / "secrets_corpus.json"
CORPUS: list[dict[str, str]] = json.loads(CORPUS_PATH.read_text(encoding="utf-8"))["entries"]
KEY = b"per-store-test-key"
MARKER_RE = re.compile(r"\[REDACTED:([a-z0-9-]+):([0-9a-f]{12})\]")
CONTEXTS = {"prompt", "bash", "write", "edit", "tool_output", "preimage", "url", "env"}


@pytest.fixture(scope="module")
def red() -> Redactor:
    return Redactor(KEY)


def _ids(entry: dict[str, str]) -> str:
    return f"{entry['kind']}-{entry['context']}"


def _hmac12(key: bytes, secret: str) -> str:
    return hmac.new(key, secret.encode("utf-8"), hashlib.sha256).hexdigest()[:12]


def _payload(entry: dict[str, str]) -> dict[str, object]:
    """The hook payload shape in which this context reaches the redactor."""
    text, context = entry["text"], entry["context"]
    if context == "prompt":
        return {"hook_event_name": "UserPromptSubmit", "session_id": "s-1", "prompt": text}
    if context == "bash":
        return {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": text, "timeout": 120}}
    if context == "write":
        return {"tool_name": "Write", "tool_input": {"file_path": "/repo/app/settings.py", "content": text}}
    if context == "edit":
        return {
            "tool_name": "Edit",
            "tool_input": {"file_path": "/repo/x.py", "old_string": text, "new_string": text + "\n"},
        }
    if context == "tool_output":
        return {"tool_name": "Bash", "tool_response": {"stdout": text, "stderr": "", "interrupted": False}}
    if context == "preimage":
        return {"path": "/repo/config/app.env", "preimage": text, "lines": text.splitlines()}
    if context == "url":
        return {"tool_name": "WebFetch", "tool_input": {"url": text, "prompt": "summarise the page"}}
    if context == "env":
        return {"env": dict(line.split("=", 1) for line in text.splitlines() if "=" in line)}
    raise AssertionError(f"unknown context {context}")


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings(v)]
    return []


# -- the corpus itself ---------------------------------------------------------------------------------------


def test_corpus_is_large_varied_and_consistent() -> None:
    assert len(CORPUS) >= 60
    assert {e["context"] for e in CORPUS} == CONTEXTS
    kinds = {e["kind"] for e in CORPUS}
    assert len(kinds) >= 25
    assert kinds <= KINDS, kinds - KINDS
    for entry in CORPUS:
        assert entry["secret"] in entry["text"], entry
        assert len(entry["secret"]) >= 8, entry


def test_rule_table_covers_the_documented_kinds() -> None:
    import re as re_mod

    assert len(KINDS) >= 25
    for rule in RULES:
        assert rule.anchors, rule
        assert rule.pattern or rule.scan, rule
        if rule.pattern:
            re_mod.compile(rule.pattern)  # every pattern is valid
        assert rule.shape, f"{rule.kind} has no documented shape"
    required = (
        "anthropic-api-key", "openai-api-key", "github-pat", "github-fine-grained-pat", "github-app-token",
        "github-refresh-token", "github-oauth", "gitlab-token", "aws-access-key-id", "aws-secret-key",
        "gcp-service-account", "gcp-api-key", "azure-storage-key", "slack-token", "slack-webhook", "stripe-key",
        "twilio-auth-token", "twilio-api-key", "sendgrid-api-key", "npm-token", "pypi-token", "huggingface-token",
        "jwt", "private-key", "ssh-private-key", "basic-auth", "bearer", "url-credential", "db-credential",
        "connection-string-password", "generic-secret", "password",
    )  # fmt: skip
    for kind in required:
        assert kind in KINDS, kind


# -- every secret disappears, with the right kind -------------------------------------------------------------


@pytest.mark.parametrize("entry", CORPUS, ids=_ids)
def test_redact_text_removes_the_secret(red: Redactor, entry: dict[str, str]) -> None:
    out, count = red.redact_text(entry["text"])
    assert entry["secret"] not in out
    assert count >= 1
    assert count == len(MARKER_RE.findall(out))
    # Exactly the secret was replaced, under the expected kind, with the HMAC fingerprint of that value.
    assert f"[REDACTED:{entry['kind']}:{_hmac12(KEY, entry['secret'])}]" in out
    # What is not secret around it stays: the text before the secret's first occurrence is untouched.
    prefix = entry["text"][: entry["text"].index(entry["secret"])]
    assert out.startswith(prefix) or MARKER_PREFIX in out[: len(prefix)]


@pytest.mark.parametrize("entry", CORPUS, ids=_ids)
def test_redact_json_removes_the_secret(red: Redactor, entry: dict[str, str]) -> None:
    payload = _payload(entry)
    before = json.dumps(payload, sort_keys=True)
    out, count = red.redact_json(payload)
    assert count >= 1
    for s in _strings(out):
        assert entry["secret"] not in s
    assert entry["secret"] not in json.dumps(out)
    assert json.dumps(payload, sort_keys=True) == before, "the input must not be mutated"
    assert sum(len(MARKER_RE.findall(s)) for s in _strings(out)) == count


@pytest.mark.parametrize("entry", CORPUS, ids=_ids)
def test_redaction_is_idempotent(red: Redactor, entry: dict[str, str]) -> None:
    once, _ = red.redact_text(entry["text"])
    twice, count = red.redact_text(once)
    assert twice is once
    assert count == 0
    payload_once, _ = red.redact_json(_payload(entry))
    payload_twice, count = red.redact_json(payload_once)
    assert payload_twice is payload_once
    assert count == 0


def test_examples_keep_what_is_not_secret(red: Redactor) -> None:
    by_context = {(e["kind"], e["context"]): e for e in CORPUS}
    aws = by_context[("aws-secret-key", "bash")]
    out, _ = red.redact_text(aws["text"])
    assert re.fullmatch(r"export AWS_SECRET_ACCESS_KEY=\[REDACTED:aws-secret-key:[0-9a-f]{12}\]", out)
    url = by_context[("url-credential", "url")]
    out, _ = red.redact_text(url["text"])
    assert re.fullmatch(
        r"https://ci-user:\[REDACTED:url-credential:[0-9a-f]{12}\]@nexus\.acme\.dev/repository/pypi/simple", out
    )
    bearer = by_context[("bearer", "bash")]
    out, _ = red.redact_text(bearer["text"])
    assert re.fullmatch(
        r"curl -sS -H 'Authorization: Bearer \[REDACTED:bearer:[0-9a-f]{12}\]' https://api\.acme\.dev/v1/projects", out
    )
    db = by_context[("db-credential", "env")]
    out, _ = red.redact_text(db["text"])
    assert out.startswith("DATABASE_URL=postgres://app:[REDACTED:db-credential:")
    assert out.endswith("@db.internal:5432/app?sslmode=require")


# -- fingerprints -----------------------------------------------------------------------------------------------


def test_same_secret_same_marker_and_key_dependent_fingerprint() -> None:
    secret = next(e["secret"] for e in CORPUS if e["kind"] == "github-pat")
    a, b = Redactor(KEY), Redactor(KEY)
    out1, _ = a.redact_text(f"token {secret} in a prompt")
    out2, _ = b.redact_text(f"git push https://{secret}@github.com/o/r.git")
    m1, m2 = MARKER_RE.search(out1), MARKER_RE.search(out2)
    assert m1 and m2
    assert m1.group(0) == m2.group(0) == f"[REDACTED:github-pat:{_hmac12(KEY, secret)}]"
    other, _ = Redactor(b"another-store-key").redact_text(f"token {secret} in a prompt")
    m3 = MARKER_RE.search(other)
    assert m3 and m3.group(1) == "github-pat"
    assert m3.group(2) != m1.group(2)
    assert a.fingerprint(secret) == _hmac12(KEY, secret)
    # Two different secrets of the same kind get different markers.
    secrets = [e["secret"] for e in CORPUS if e["kind"] == "github-pat"]
    assert len({a.fingerprint(s) for s in secrets}) == len(secrets) >= 2


def test_repeated_secret_is_replaced_everywhere(red: Redactor) -> None:
    secret = next(e["secret"] for e in CORPUS if e["kind"] == "npm-token" and e["context"] == "bash")
    text = f"first {secret}\nsecond {secret}\n"
    out, count = red.redact_text(text)
    assert count == 2
    assert secret not in out
    assert len(set(MARKER_RE.findall(out))) == 1


def test_markers_are_recognised(red: Redactor) -> None:
    marker = red.marker("jwt", "x")
    assert is_marker(marker)
    assert not is_marker(marker[:-1])
    assert not is_marker("[REDACTED:Bad Kind:0123456789ab]")
    assert not is_marker("[REDACTED:jwt:0123456789]")


def test_redactor_needs_a_key() -> None:
    with pytest.raises(ValueError):
        Redactor(b"")
    with pytest.raises(ValueError):
        Redactor("text key")  # type: ignore[arg-type]


# -- identity when nothing changes ----------------------------------------------------------------------------


def test_clean_text_is_returned_as_the_same_object(red: Redactor) -> None:
    text = "".join(["Refactor the tokenizer so that every key in the cache maps to a token id.\n"] * 50)
    out, count = red.redact_text(text)
    assert out is text
    assert count == 0
    short = "ls -la"
    assert red.redact_text(short)[0] is short


def test_clean_json_is_returned_as_the_same_objects(red: Redactor) -> None:
    payload = {
        "session_id": "2f1c",
        "tool_name": "Edit",
        "tool_input": {"file_path": "/repo/a.py", "old_string": "key = item.key", "new_string": "key = item.name"},
        "usage": {"input_tokens": 1200, "output_tokens": 80, "max_tokens": 4096},
        "list": ["password_field", ("token_count", 3)],
        "token": "",
    }
    out, count = red.redact_json(payload)
    assert out is payload
    assert count == 0
    assert red.redact_json(payload["tool_input"])[0] is payload["tool_input"]


def test_changed_json_shares_untouched_branches(red: Redactor) -> None:
    secret = next(e["secret"] for e in CORPUS if e["kind"] == "slack-token")
    untouched = {"cwd": "/repo", "items": [1, 2, 3]}
    payload = {"meta": untouched, "prompt": f"post with {secret}"}
    out, count = red.redact_json(payload)
    assert count == 1
    assert out is not payload
    assert out["meta"] is untouched  # type: ignore[index]
    assert payload["prompt"].endswith(secret), "input left as it was"


# -- the key-name rule ------------------------------------------------------------------------------------------


def test_values_under_secret_key_names_are_redacted_whole(red: Redactor) -> None:
    words = " ".join(["correct", "horse", "battery", "staple"])  # no pattern could call this a secret
    payload = {
        "password": words,
        "db": {"client_secret": words, "API-Key": words, "Authorization": "Basic " + words},
        "auths": {"registry.example": {"auth": words}},
        "hashed_password": words,
    }
    out, count = red.redact_json(payload)
    assert count == 6
    assert words not in json.dumps(out)
    assert out["password"] == f"[REDACTED:password:{_hmac12(KEY, words)}]"  # type: ignore[index]
    assert out["db"]["client_secret"] == f"[REDACTED:generic-secret:{_hmac12(KEY, words)}]"  # type: ignore[index]
    assert out["db"]["Authorization"].startswith("[REDACTED:authorization:")  # type: ignore[index]
    assert is_marker(out["auths"]["registry.example"]["auth"])  # type: ignore[index]


def test_key_name_rule_prefers_the_specific_marker(red: Redactor) -> None:
    gcp = next(e for e in CORPUS if e["kind"] == "gcp-service-account")
    service_account = json.loads(gcp["text"])
    out, count = red.redact_json(service_account)
    assert count == 1
    assert re.fullmatch(r"\[REDACTED:private-key:[0-9a-f]{12}\]", out["private_key"])  # type: ignore[index]
    assert out["client_email"] == service_account["client_email"]  # type: ignore[index]
    token = next(e["secret"] for e in CORPUS if e["kind"] == "github-pat")
    out, _ = red.redact_json({"GITHUB_TOKEN": token})
    assert out == {"GITHUB_TOKEN": f"[REDACTED:github-pat:{_hmac12(KEY, token)}]"}


def test_key_name_rule_leaves_non_secret_names_and_values(red: Redactor) -> None:
    marker = red.marker("password", "whatever")
    payload = {
        "token": "",
        "max_tokens": 512,
        "next_page_token": "CAESBggCEAEYAQ",
        "eos_token": "</s>",
        "public_key": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHk0 dev@laptop",
        "password": marker,
        "token_type": "bearer",
        "has_password": True,
        "key": "user_id",
    }
    out, count = red.redact_json(payload)
    assert out is payload
    assert count == 0


@pytest.mark.parametrize(
    ("key", "kind"),
    [
        ("password", "password"), ("DB_PASSWORD", "password"), ("passwd", "password"), ("apiKey", "generic-secret"),
        ("client_secret", "generic-secret"), ("private_key", "private-key"), ("Authorization", "authorization"),
        ("AWS_SECRET_ACCESS_KEY", "aws-secret-key"), ("token", "generic-secret"), ("access_token", "generic-secret"),
        ("cwd", None), ("tokenizer", None), ("max_tokens", None), ("page_token", None), ("publicKey", None),
        ("secret_name", None), ("key", None),
    ],
)  # fmt: skip
def test_secret_key_kind(key: str, kind: str | None) -> None:
    assert secret_key_kind(key) == kind


# -- false positives ------------------------------------------------------------------------------------------

PYTHON_SNIPPET = '''\
import os
from django import forms

API_KEY = os.environ["API_KEY"]
SECRET_KEY = os.getenv("SECRET_KEY", "")
TOKEN_URL = "https://oauth2.googleapis.com/token"
PASSWORD_MIN_LENGTH = 12
ROOT_KEY = "__root__"


class LoginForm(forms.Form):
    username = forms.CharField(max_length=150)
    password_field = forms.CharField(widget=forms.PasswordInput)


def login(username: str, password: str, token: str | None = None) -> bool:
    """Check a password; keys that start with sk- are API keys, never passwords."""
    if password == confirm_password:
        return False
    token = tokens[0] if tokens else token
    headers = {"Authorization": f"Bearer {token}"}
    self.password = password
    secret = get_secret("db")
    cache_key = f"user:{username}"
    items.sort(key=lambda item: item[1])
    response = client.post(url, json={"password": password, "token": token}, headers=headers)
    return check(password=password, max_tokens=4096, api_key=api_key)
'''

JS_SNIPPET = """\
const token = req.headers.authorization?.split(" ")[1];
const schema = new Schema({
  email: { type: String, required: true },
  password: { type: String, required: true },
});
export const config = { apiKey: process.env.API_KEY, secret: process.env.SECRET };
for (const [key, value] of Object.entries(env)) console.log(key);
localStorage.setItem("token", token);
interface Credentials { password: string; token?: string; apiKey: ApiKey }
const authorization = `Bearer ${session.accessToken}`;
"""

SHELL_SNIPPET = """\
#!/usr/bin/env bash
set -euo pipefail
KEY=$KEY
export GITHUB_TOKEN=${GITHUB_TOKEN:-}
read -rs PASSWORD
PASSWORD=$(cat /run/secrets/db_password)
curl -H "Authorization: Bearer $TOKEN" https://api.github.com/user
curl -u "$USER:$PASS" https://example.com/api
echo "$API_KEY" | docker login -u ci --password-stdin registry.example.com
git push -u origin main
docker run -u 1000:1000 -e TOKEN="$TOKEN" image:latest
mysql -u root -p
cd "$PWD" && echo "$OLDPWD"
"""

YAML_SNIPPET = """\
name: ci
on: [push]
jobs:
  build:
    steps:
      - uses: actions/checkout@v4
        with:
          token: ${{ secrets.GITHUB_TOKEN }}
      - run: make test
        env:
          DB_PASSWORD: ${DB_PASSWORD}
          API_KEY: <your-api-key>
---
apiVersion: v1
kind: Pod
spec:
  containers:
    - env:
        - name: DB_PASSWORD
          valueFrom:
            secretKeyRef:
              name: db-secret
              key: password
  volumes:
    - secret:
        secretName: tls-secret
"""

PROSE_SNIPPET = """\
# Configuration

Set the `OPENAI_API_KEY` environment variable. OpenAI keys start with sk- and Anthropic keys with sk-ant-.
Use Bearer tokens for authentication; Basic authentication is disabled. Pass the token with
`--token TOKEN` or put `API_KEY=your-api-key-here` in `.env`. The password: at least 12 characters.
PostgreSQL: `postgres://user:password@localhost:5432/app`, or `postgresql://{user}:{password}@{host}/db`.
A PEM file starts with '-----BEGIN RSA PRIVATE KEY-----' and ends with '-----END RSA PRIVATE KEY-----'.
The key id looks like AKIAIOSFODNN7EXAMPLE in the AWS documentation.
"""

ENV_EXAMPLE = """\
API_KEY=your-api-key
SECRET_KEY=changeme
DATABASE_URL=postgres://user:password@localhost/db
STRIPE_SECRET=xxx
GITHUB_TOKEN=
TOKEN=<token>
PWD=/home/dev/project
"""

JSON_SNIPPET = """\
{"model": "claude", "max_tokens": 1024, "token_type": "bearer", "password_policy": {"min_length": 12},
 "properties": {"password": {"type": "string"}, "api_key": {"type": "string", "writeOnly": true}},
 "NextToken": "eyJOZXh0VG9rZW4iOiBudWxsfQ==", "S3Key": "builds/app-1.2.3.zip"}
"""

PUBLIC_MATERIAL = """\
-----BEGIN CERTIFICATE-----
MIIBszCCAVmgAwIBAgIUPq3dG1b9kKk0cYkqY8vYQ0b3cV8wCgYIKoZIzj0EAwIwGzEZMBcGA1UEAwwQYXVkaXRsb2ctdGVz
dC1jYTAeFw0yNjExMjkwMDAwMDBaFw0zNjExMjcwMDAwMDBaMBsxGTAXBgNVBAMMEGF1ZGl0bG9nLXRlc3QtY2E=
-----END CERTIFICATE-----
-----BEGIN PUBLIC KEY-----
MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEq3dG1b9kKk0cYkqY8vYQ0b3cV8wCgYIKoZIzj0EAwIwGzEZMBcGA1UE
-----END PUBLIC KEY-----
ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHk0q3dG1b9kKk0cYkqY8vYQ0b3cV8wCgYIKoZIzj0EAwI dev@laptop
sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08  dist/auditlog-0.1.0.tar.gz
commit 2f1c9b7e4d3a5b6c7d8e9f00112233445566778899aabbcc
"""

SQL_SNIPPET = """\
SELECT password_hash, api_key_id FROM users WHERE token_id = $1 AND password_changed_at > now();
UPDATE sessions SET token = :token WHERE id = :id;
"""


@pytest.mark.parametrize(
    "snippet",
    [
        PYTHON_SNIPPET,
        JS_SNIPPET,
        SHELL_SNIPPET,
        YAML_SNIPPET,
        PROSE_SNIPPET,
        ENV_EXAMPLE,
        JSON_SNIPPET,
        SQL_SNIPPET,
        PUBLIC_MATERIAL,
    ],
    ids=["python", "js", "shell", "yaml", "prose", "env-example", "json", "sql", "public-material"],
)
def test_ordinary_code_is_left_unchanged(red: Redactor, snippet: str) -> None:
    out, count = red.redact_text(snippet)
    assert out == snippet, [m.group(0) for m in MARKER_RE.finditer(out)]
    assert count == 0
    assert out is snippet


def test_this_repository_sources_are_clean(red: Redactor) -> None:
    """The engine's own source and these tests mention every rule's anchor; none of it is a secret."""
    for path in (Path(__file__), Path(__file__).parents[1] / "auditlog" / "redaction.py"):
        text = path.read_text(encoding="utf-8")
        out, _count = red.redact_text(text)
        assert out is text, [m.group(0) for m in MARKER_RE.finditer(out)]


# -- contexts that need more than a pattern --------------------------------------------------------------------


def test_basic_credentials_are_recognised_by_decoding(red: Redactor) -> None:
    import base64

    creds = base64.b64encode(b"ci:" + b"qwertyuiop").decode()  # no digit in it: the decoding is the proof
    out, count = red.redact_text(f"Proxy-Authorization: Basic {creds}\nvia: basic {creds}")
    assert count == 2
    assert creds not in out
    not_creds = base64.b64encode(b"just some bytes without a colon").decode()
    assert red.redact_text(f"encoded as basic {not_creds} here")[1] == 0


def test_truncated_private_key_is_still_redacted(red: Redactor) -> None:
    key = next(e["secret"] for e in CORPUS if e["kind"] == "private-key" and e["context"] == "tool_output")
    head = "\n".join(key.splitlines()[:3])  # `head -3 id_rsa`
    out, count = red.redact_text(f"$ head -3 id_rsa\n{head}\n$ ls\n")
    assert count == 1
    for line in head.splitlines()[1:]:
        assert line not in out
    assert out.startswith("$ head -3 id_rsa\n[REDACTED:private-key:")
    assert out.endswith("\n$ ls\n")


def test_secret_spans_reports_what_is_replaced() -> None:
    from auditlog.redaction import secret_spans

    entry = next(e for e in CORPUS if e["kind"] == "stripe-key" and e["context"] == "write")
    spans = secret_spans(entry["text"])
    assert spans == [
        (
            entry["text"].index(entry["secret"]),
            entry["text"].index(entry["secret"]) + len(entry["secret"]),
            "stripe-key",
        )
    ]
    assert secret_spans("nothing to see here") == []


def test_env_value_keeps_its_ampersand_but_a_query_parameter_stops_there(red: Redactor) -> None:
    pw = "Tr0ub4dor" + "&3"
    out, count = red.redact_text(f"DB_PASS={pw}\n")
    assert (count, out) == (1, f"DB_PASS={red.marker('password', pw)}\n")
    value = "abc123XYZ" + "789qwe"
    out, count = red.redact_text(f"GET https://api.example/v1?access_token={value}&page=2")
    assert out.endswith(f"access_token={red.marker('generic-secret', value)}&page=2")


def test_tuples_and_scalars_in_json(red: Redactor) -> None:
    secret = next(e["secret"] for e in CORPUS if e["kind"] == "sendgrid-api-key")
    value = ("ok", 1, None, 2.5, True, ["x", secret])
    out, count = red.redact_json(value)
    assert count == 1
    assert isinstance(out, tuple)
    assert out[:5] == value[:5]  # type: ignore[index]
    assert secret not in out[5][1]  # type: ignore[index]


# -- robustness -------------------------------------------------------------------------------------------------


def test_large_text_finds_the_same_secrets(red: Redactor) -> None:
    """Texts over 64 KiB take the regex-anchored path; it must find exactly what the small path finds."""
    filler = PYTHON_SNIPPET + JS_SNIPPET + SHELL_SNIPPET
    parts, expected = [], 0
    while sum(map(len, parts)) < 200_000:
        for entry in CORPUS:
            parts.append(filler)
            parts.append(entry["text"])
            expected += red.redact_text(entry["text"])[1]
    big = "\n".join(parts)
    out, count = red.redact_text(big)
    assert count == expected
    for entry in CORPUS:
        assert entry["secret"] not in out


def test_non_ascii_text_keeps_positions(red: Redactor) -> None:
    secret = next(e["secret"] for e in CORPUS if e["kind"] == "huggingface-token" and e["context"] == "bash")
    text = f"İstanbul ÅÄÖ ß 🙂 token: {secret} — fin"
    out, count = red.redact_text(text)
    assert count == 1
    assert out == f"İstanbul ÅÄÖ ß 🙂 token: {red.marker('huggingface-token', secret)} — fin"


def test_lone_surrogates_do_not_break_fingerprints(red: Redactor) -> None:
    text = "PASSWORD=ab\udcffcd1234"
    out, count = red.redact_text(text)
    assert count == 1
    assert "\udcff" not in out


def test_pathological_inputs_stay_linear(red: Redactor) -> None:
    """Inputs built to make a backtracking engine explode (long runs of almost-matches)."""
    cases = [
        "-----BEGIN RSA PRIVATE KEY-----\n" + "A" * 200_000,
        "https://" + "a:" * 50_000 + "b",
        "eyJ" + "a" * 100_000 + "." + "eyJ" + "b" * 100_000,
        "password=" * 20_000,
        "key: " + "x" * 200_000,
        "Authorization: " * 10_000,
        "ghp_" * 50_000,
    ]
    for text in cases:
        start = time.perf_counter()
        red.redact_text(text)
        assert time.perf_counter() - start < 1.0, text[:40]


def test_one_mebibyte_of_source_is_fast(red: Redactor) -> None:
    """The budget is 30 ms; the bound here is loose so that a busy CI machine does not flake."""
    text = ((PYTHON_SNIPPET + JS_SNIPPET + YAML_SNIPPET + PROSE_SNIPPET) * 2000)[: 1 << 20]
    red.redact_text(text)  # compile once
    best = min(_timed(red, text) for _ in range(3))
    assert best < 0.3


def _timed(red: Redactor, text: str) -> float:
    start = time.perf_counter()
    red.redact_text(text)
    return time.perf_counter() - start
