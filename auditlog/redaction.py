"""Secret redaction: every text the hook records passes through here before it is hashed or written.

Why it is built the way it is
-----------------------------
The hook runs on *every* tool call of the agent, each time in a fresh interpreter, so what counts is
"import + first call", not steady-state throughput.  Compiling the ~40 regular expressions of the rule
table would alone cost several milliseconds, more than the whole budget.  So:

* Nothing is compiled at import time: the rule table holds pattern *sources*.
* Every rule names literal *anchors* (``"ghp_"``, ``"://"``, ``"password"`` ...).  ``str.find`` (C speed,
  no regex) looks for them; a cheap *guard* then checks the context (``Authorization`` followed by ``:``,
  ``-----BEGIN`` by ``PRIVATE KEY`` ...); only then is the rule's pattern compiled (once) and matched *at*
  the occurrence (``pattern.match(text, pos)``), never scanned over the whole text.  A text without
  anchors costs a few dozen ``find`` calls; ordinary source code compiles nothing.
* The generic ``NAME=value`` rule, whose anchors (``key``, ``token`` ...) occur in almost every source file,
  is a hand-written parser.
* Texts over 64 KiB find their anchors with a few compiled regexes instead (see ``_build_groups``).
* ``hmac``/``hashlib`` (which load OpenSSL) are imported only when a secret is actually found.
* All quantifiers are bounded, key bodies are read line by line with possessive repetitions, and context
  checks read at most a few hundred characters, so the cost stays linear even on hostile input.

A secret is replaced by ``[REDACTED:<kind>:<fp>]`` where ``<fp>`` is the first 12 hex characters of
HMAC-SHA256(store key, secret): equal secrets give equal markers, so a leak can be followed across events
without the value being stored, and without the per-store key the fingerprint cannot be brute-forced
offline.  Text around the secret (variable names, URL hosts, header names) is kept.  Markers are never
redacted again, which makes redaction idempotent.
"""

from __future__ import annotations

import sys

# ``typing`` costs milliseconds to import when nothing else has loaded it, so it is only for type checkers.
TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    import re
    from collections.abc import Callable
    from typing import Any

MARKER_PREFIX = "[REDACTED:"
FINGERPRINT_CHARS = 12

#: (start, end, kind) of one secret value inside a text.
Hit = tuple[int, int, str]

_ASCII_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_ALNUM = frozenset(_ASCII_LETTERS + "0123456789")
_HEX = frozenset("0123456789abcdef")
_KIND_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")

#: Texts longer than this find anchors with compiled regexes (see ``_build_groups``) instead of ``str.find``.
_BIG_TEXT = 64 * 1024


class Rule:
    """One detector.

    ``pattern`` is matched with ``re.match`` at ``anchor_position - offset`` for every occurrence of one of
    ``anchors`` (looked up in the lower-cased text when ``ci`` is true), so it must start with the anchor.
    The secret is ``group`` of the match unless ``check`` (which may also veto the match or change the kind)
    says otherwise.  ``scan`` replaces ``pattern`` for the one rule too irregular for a regex.  ``guard``, a
    cheap test of the text around the anchor, runs first: the pattern is compiled only once a guard passes,
    so ordinary code that merely says "authorization" or "-----BEGIN CERTIFICATE" compiles nothing.
    ``shape`` is the documented form of what the rule finds.

    A plain slotted class rather than a ``NamedTuple``: ``typing`` would cost more to import than the rest of
    this module.
    """

    __slots__ = ("anchors", "check", "ci", "group", "guard", "kind", "offset", "pattern", "scan", "shape")

    def __init__(
        self,
        kind: str,
        anchors: tuple[str, ...],
        pattern: str | None,
        group: int = 0,
        ci: bool = False,
        offset: int = 0,
        check: Callable[[str, re.Match[str]], Hit | None] | None = None,
        scan: Callable[[str, str, int, str], Hit | None] | None = None,
        shape: str = "",
        guard: Callable[[str, int, str], bool] | None = None,
    ) -> None:
        self.kind = kind
        self.anchors = anchors
        self.pattern = pattern
        self.group = group
        self.ci = ci
        self.offset = offset
        self.check = check
        self.scan = scan
        self.shape = shape
        self.guard = guard

    def __repr__(self) -> str:
        return f"Rule({self.kind!r}, {self.anchors!r})"


# --------------------------------------------------------------------------------------------------------
# Value heuristics shared by the contextual rules.
# --------------------------------------------------------------------------------------------------------

_PLACEHOLDER_WORDS = frozenset({
    "changeme", "change_me", "change-me", "changeit", "password", "passwd", "pass", "pwd", "secret", "secrets",
    "token", "key", "apikey", "api_key", "api-key", "none", "null", "nil", "undefined", "true", "false", "yes",
    "no", "on", "off", "redacted", "hidden", "masked", "todo", "tbd", "fixme", "required", "optional", "str",
    "string", "bytes", "int", "integer", "float", "number", "bool", "boolean", "any", "object", "unknown",
    "default", "empty", "value", "dummy", "fake", "test", "testing", "foo", "bar", "baz", "qux", "xxx",
    "secretstr", "secretbytes", "secret_key", "access_token", "token_here", "n/a", "na", "env", "environ",
    "bearer", "basic", "auth", "user", "username", "admin", "root",
})  # fmt: skip
_PLACEHOLDER_PARTS = (
    "example", "placeholder", "changeme", "xxxx", "redacted", "...", "***", "{{", "password", "passwd", "secret",
    "token",
)  # fmt: skip
#: Words that say "type annotation", not "value" (``password: str``).
_TYPE_WORDS = frozenset({
    "str", "string", "bytes", "int", "float", "bool", "boolean", "number", "any", "object", "optional", "secretstr",
})  # fmt: skip
#: A value starting with one of these is a reference, template, mask or expression, not a literal.
_REF_START = frozenset("$%{<[(*&@`#!|")
#: Where an unquoted value ends (``&`` too, but only in a URL query: elsewhere it may belong to a password).
_UNQUOTED_STOP = " \t\r\n\"'`,;)}]([<>|\\"
_NAME_CHARS = frozenset(_ASCII_LETTERS + "0123456789_.-")
_KEY_END = frozenset("\"'=: \t\\]")


def _is_placeholder(value: str) -> bool:
    """True for values that stand for a secret without being one (``$VAR``, ``<your-token>``, ``changeme``)."""
    v = value.strip().lower()
    if not v or v[0] in _REF_START or v in _PLACEHOLDER_WORDS:
        return True
    if v.startswith(("your", "insert", "enter", "replace", "process.env", "os.environ", "env.", "secrets.")):
        return True
    if len(v) > 2 and len(set(v[:32])) <= 2 and len(set(v)) <= 2:  # ******, xxxxxx, 000000, x-x-x
        return True
    # A value that names what it stands for ("role-secret-key", "mypassword", "REFRESH_TOKEN") is a
    # placeholder or a constant, not a credential; so is an ARN.
    if v.startswith("arn:"):
        return True
    for part in _PLACEHOLDER_PARTS:  # noqa: SIM110 - a plain loop is cheaper than any(<genexpr>) here
        if part in v:
            return True
    return False


def _is_identifier_path(value: str) -> bool:
    """``name`` or ``obj.attr.attr``: in code this is a reference to a variable, not a literal."""
    return all(part.isidentifier() for part in value.split("."))


def _looks_random(value: str) -> bool:
    """Does a value under a weak name (bare ``key``/``token``) look machine-generated?"""
    if len(value) < 16 or any(c.isspace() or c in "/\\&" for c in value):
        return False  # object keys, paths (``my-app/build.zip``), escaped bytes: not credentials
    dot = value.rfind(".")
    if 0 < len(value) - dot - 1 <= 4 and value[dot + 1 :].isalpha():
        return False  # a file name: RHEL5export-i-fh8sjjsq.ova
    digits = sum(c.isdigit() for c in value)
    letters = sum(c.isalpha() for c in value)
    if digits < 2 or letters < 2:
        return False
    if all(c in _HEX for c in value.lower()):
        return len(value) >= 20
    has_upper = any(c.isupper() for c in value)
    has_lower = any(c.islower() for c in value)
    return (has_upper and has_lower) or len(set(value)) >= 12


def _looks_credential(value: str) -> bool:
    """A literal under a token/key/secret name (not a password): machine-made values have digits, mixed case or
    symbols; ``"__root__"`` or ``"default"`` are names, not credentials."""
    if len(value) < 8:
        return False
    return (
        any(c.isdigit() for c in value)
        or (any(c.isupper() for c in value) and any(c.islower() for c in value))
        or any(c in "!@#$%^&*+/=~" for c in value)
    )


def _looks_like_path(value: str) -> bool:
    if value.startswith(("~/", "./", "../", "file:")) or (len(value) > 2 and value[1] == ":" and value[2] in "\\/"):
        return True
    tail = value.rsplit("/", 1)[-1] if "/" in value else ""
    ext = tail.rsplit(".", 1)[-1] if "." in tail else ""
    if ext and 1 <= len(ext) <= 5 and ext.isalpha():
        return True  # my-app/build-42.war, keys/prod.pem
    if value.startswith("/") and "+" not in value and "=" not in value:
        return "." in value.rsplit("/", 1)[-1] or value.count("/") >= 2
    return False


def _line_of(text: str, pos: int, reach: int = 256) -> tuple[int, int]:
    """Bounds of the line around ``pos``, looking at most ``reach`` characters each way (a minified
    megabyte on one line must not make every check read the megabyte)."""
    floor = max(0, pos - reach)
    start = text.rfind("\n", floor, pos) + 1 or floor
    end = text.find("\n", pos, pos + reach)
    return start, (min(len(text), pos + reach) if end < 0 else end)


# --------------------------------------------------------------------------------------------------------
# Checks for the regex rules: veto, narrow the span, or pick the kind.
# --------------------------------------------------------------------------------------------------------


def _check_private_key(text: str, m: re.Match[str]) -> Hit | None:
    """PEM block: OPENSSH keys are ``ssh-private-key``; a block that is the value of a JSON ``private_key``
    (a GCP service-account file) is ``gcp-service-account``."""
    start, end = m.span()
    block = m.group(0)
    body = block[block.find("-----", 11) + 5 :]
    if not any(len(t) >= 40 for t in body.replace("\\n", " ").replace("\\r", " ").split()):
        return None  # prose or code naming the header ('-----BEGIN RSA PRIVATE KEY-----' and ...), no key
    label = m.group(1) or ""
    if "OPENSSH" in label:
        kind = "ssh-private-key"
    else:
        before = text[max(0, start - 48) : start]
        kind = "gcp-service-account" if "private_key" in before else "private-key"
    # Do not swallow the trailing separators of a truncated block (real or JSON-escaped newlines).
    while end > start:
        if text[end - 1] in " \t\r\n":
            end -= 1
        elif text[end - 2 : end] in ("\\n", "\\r") and end - 2 > start:
            end -= 2
            while end > start and text[end - 1] == "\\":
                end -= 1
        else:
            break
    return start, end, kind


def _check_url(text: str, m: re.Match[str]) -> Hit | None:
    """``scheme://user:password@host``: the password, unless it is a placeholder or a template."""
    pos = m.start()
    s = pos
    while s > 0 and pos - s < 40 and (text[s - 1] in _ALNUM or text[s - 1] in "+.-"):
        s -= 1
    scheme = text[s:pos].lower()
    if not scheme or not scheme[0].isalpha():
        return None
    pw_start, pw_end = m.span(2)
    password = text[pw_start:pw_end]
    if _is_placeholder(password) or password.startswith("%("):
        return None
    base = scheme.split("+", 1)[0]
    kind = "db-credential" if base in _DB_SCHEMES else "url-credential"
    return pw_start, pw_end, kind


_DB_SCHEMES = frozenset({
    "postgres", "postgresql", "mysql", "mariadb", "mongodb", "redis", "rediss", "amqp", "amqps", "mssql",
    "sqlserver", "oracle", "cockroachdb", "clickhouse", "cassandra", "couchdb", "neo4j", "memcached",
})  # fmt: skip


def _check_authorization(text: str, m: re.Match[str]) -> Hit | None:
    """``Authorization: <scheme> <credentials>``: the kind follows the scheme."""
    scheme = (m.group(1) or "").lower()
    creds = m.group(2)
    if scheme in ("digest", "negotiate") or scheme.startswith("aws4-") or _is_placeholder(creds):
        return None
    lead = text[m.start() + 13 : m.start(1) if m.group(1) else m.start(2)]
    if ":" not in lead and '"' not in lead and "'" not in lead:
        return None  # `authorization = request.headers[...]`: code, not a header
    if any(c in creds for c in "()[]{}<>") or (not scheme and _is_identifier_path(creds)):
        return None
    if not scheme and creds.lower() in ("bearer", "basic", "token"):
        return None
    if not any(c.isdigit() for c in creds) and len(creds) < 16:
        return None
    kind = {"bearer": "bearer", "basic": "basic-auth"}.get(scheme, "authorization")
    start, end = m.span(2)
    return start, end, kind


def _check_bearer(text: str, m: re.Match[str]) -> Hit | None:
    """A bare ``Bearer <token>``: require a token-looking value, so prose ("bearer tokens") passes."""
    token = m.group(1)
    if _is_placeholder(token) or (len(token) < 32 and not any(c.isdigit() for c in token)):
        return None
    start, end = m.span(1)
    return start, end, "bearer"


def _check_basic(text: str, m: re.Match[str]) -> Hit | None:
    """A bare ``Basic <base64>``: only if it decodes to ``user:password``."""
    value = m.group(1)
    if len(value) % 4:
        return None
    import binascii  # builtin module, imported only on this rare path

    try:
        decoded = binascii.a2b_base64(value).decode("utf-8")
    except (binascii.Error, ValueError):
        return None
    _user, sep, password = decoded.partition(":")
    if not sep or not password or not decoded.isprintable():
        return None
    start, end = m.span(1)
    return start, end, "basic-auth"


def _check_cli_user(text: str, m: re.Match[str]) -> Hit | None:
    """``curl -u user:password``: only on a line that is an HTTP client call (``docker -u 1000:1000`` is not)."""
    user, password = m.group(1), m.group(2)
    if len(password) < 3 or _is_placeholder(password) or (user.isdigit() and password.isdigit()):
        return None  # `-u a:b` in an example is not a credential; `-u 1000:1000` is a uid:gid
    ls, le = _line_of(text, m.start())
    line = text[ls:le].lower()
    if "curl" not in line and "wget" not in line and "http" not in line:
        return None
    start, end = m.span(2)
    return start, end, "basic-auth"


def _check_conn_string(text: str, m: re.Match[str]) -> Hit | None:
    """``Password=...;`` needs a ``;``-separated connection string around it (``PWD=/home/me`` is not one)."""
    value = m.group(1).strip()
    if not value or _is_placeholder(value) or _looks_like_path(value):
        return None
    end = m.end(1)
    ls, _le = _line_of(text, m.start())
    # Either the value is closed by ``;`` or it ends a string whose earlier part is ``;``-separated.
    if not text.startswith(";", m.end()) and ";" not in text[ls : m.start()]:
        return None
    start = m.start(1)
    return start, min(end, start + len(m.group(1).rstrip())), "connection-string-password"


def _check_azure(text: str, m: re.Match[str]) -> Hit | None:
    kind = "azure-storage-key" if m.group(0)[:1] in "aA" else "azure-shared-access-key"
    start, end = m.span(1)
    return start, end, kind


def _check_aws(text: str, m: re.Match[str]) -> Hit | None:
    """AWS documents its examples with ``EXAMPLE`` in the value (``AKIAIOSFODNN7EXAMPLE``): not secrets."""
    value = m.group(1) if m.lastindex else m.group(0)
    if "EXAMPLE" in value:
        return None
    start, end = m.span(1) if m.lastindex else m.span()
    return start, end, "aws-access-key-id" if value.startswith(("AKIA", "ASIA")) else "aws-secret-key"


def _check_putty(text: str, m: re.Match[str]) -> Hit | None:
    """A PuTTY key file: only with its private part (not a line that merely names the format)."""
    if "Private-" not in m.group(0):
        return None
    return m.start(), m.end(), "ssh-private-key"


def _check_discord(text: str, m: re.Match[str]) -> Hit | None:
    if "discord" not in text[max(0, m.start() - 40) : m.start()].lower():
        return None
    start, end = m.span(1)
    return start, end, "discord-webhook"


# Guards: (text, anchor position, anchor) -> may the pattern match here?  Pure string tests, no regex.


def _g_header(text: str, i: int, anchor: str) -> bool:
    """``Authorization`` followed (after quotes and blanks) by ``:`` or ``=``."""
    j = i + len(anchor)
    limit = min(len(text), j + 8)
    while j < limit and text[j] in "\"'\\ \t":
        j += 1
    return j < limit and text[j] in ":="


def _g_blank(text: str, i: int, anchor: str) -> bool:
    """``Bearer``/``Basic`` followed by a blank and a token-like word: at least 8 characters with a digit
    (or 32 without), which rules out prose ("bearer tokens", "basic usage") and templates (``Bearer $T``)."""
    j = i + len(anchor)
    if text[j : j + 1] not in (" ", "\t") or text[j + 1 : j + 2] not in _TOKEN_CHARS:
        return False
    word = text[j + 1 : j + 80].split(None, 1)[0]
    if len(word) < 8:
        return False
    if len(word) >= 32:
        return True
    for c in word:  # noqa: SIM110 - a plain loop is cheaper than any(<genexpr>) here
        if c.isdigit():
            return True
    return False


def _g_basic(text: str, i: int, anchor: str) -> bool:
    """``Basic`` followed by a blank and a word that could be base64 (length a multiple of 4)."""
    j = i + len(anchor)
    if text[j : j + 1] not in (" ", "\t") or text[j + 1 : j + 2] not in _TOKEN_CHARS:
        return False
    word = text[j + 1 : j + 80].split(None, 1)[0].rstrip("\"',;)")
    return len(word) >= 8 and len(word) % 4 == 0


def _g_private_key(text: str, i: int, anchor: str) -> bool:
    return text.find("PRIVATE KEY", i, i + 60) >= 0


def _g_userinfo(text: str, i: int, anchor: str) -> bool:
    """``scheme://`` with an ``@`` before the next blank or slash: there is a userinfo to look at."""
    at = text.find("@", i + 3, i + 520)
    if at < 0:
        return False
    for stop in (" ", "\n", "/"):
        j = text.find(stop, i + 3, at)
        if j >= 0:
            return False
    return True


def _g_connection_string(text: str, i: int, anchor: str) -> bool:
    return text.find(";", max(0, i - 256), i + 300) >= 0


def _g_http_client(text: str, i: int, anchor: str) -> bool:
    ls, le = _line_of(text, i)
    line = text[ls:le]
    return "curl" in line or "wget" in line or "http" in line or "CURL" in line


def _g_hex2(text: str, i: int, anchor: str) -> bool:
    """``AC``/``SK`` followed by hex digits (not ``ACCESS``, ``TASK``)."""
    pair = text[i + 2 : i + 4]
    return len(pair) == 2 and pair[0] in _HEX_ANY and pair[1] in _HEX_ANY


def _g_query(text: str, i: int, anchor: str) -> bool:
    return i > 0 and text[i - 1] in "?&;"


_HEX_ANY = frozenset("0123456789abcdefABCDEF")
_TOKEN_CHARS = frozenset(_ASCII_LETTERS + "0123456789-._~+/")


# --------------------------------------------------------------------------------------------------------
# The generic assignment rule: NAME=value, NAME: value, "name": "value", --name=value ...
# --------------------------------------------------------------------------------------------------------

#: Words glued in front of a keyword that still make a secret name (APIKEY, authtoken, PGPASSWORD).
_GLUE = (
    "api", "access", "secret", "private", "auth", "client", "refresh", "session", "bearer", "bot", "master",
    "signing", "encryption", "app", "db", "admin", "root", "user", "pg", "mysql", "redis", "id", "oauth",
)  # fmt: skip
#: ``<prefix>_key`` names that are secrets whatever their value looks like.
_STRONG_KEY_PREFIXES = (
    "api", "access", "secret", "private", "signing", "encryption", "master", "auth", "client", "license",
    "service", "account", "session", "webhook", "shared", "storage", "subscription", "consumer", "hmac", "jwt",
    "admin", "app", "deploy", "crypt", "cipher", "aes", "sign",
)  # fmt: skip
#: ``<prefix>_token`` names that are not credentials (pagination, tokenizers, counters).
_WEAK_TOKEN_PREFIXES = (
    "next", "page", "continuation", "pagination", "cancellation", "cancel", "sync", "resume", "start", "end",
    "eos", "bos", "pad", "unk", "sep", "cls", "mask", "special", "max", "min", "num", "total", "input",
    "output", "first", "last", "prev", "current", "cur", "stop", "split", "lexer", "parser", "word", "sub",
    "vocab", "bpe", "delimiter", "separator", "cursor", "marker", "starting", "change", "update", "action",
    "unit", "request", "idempotency", "state",
)  # fmt: skip
_LINE_PREFIXES = frozenset(("", "export", "-", "set", "env", "readonly", "declare -x", "local", "setenv"))
_CONTEXT_WORDS = frozenset({"password", "passwd", "passphrase", "pass", "pwd"})


def _assignment_kind(name_norm: str, password_like: bool) -> str:
    """Specific kinds for well-known variable names, so markers say what leaked."""
    if "secretaccesskey" in name_norm or "awssecretkey" in name_norm:
        return "aws-secret-key"
    if "twilio" in name_norm and "authtoken" in name_norm:
        return "twilio-auth-token"
    return "password" if password_like else "generic-secret"


def _scan_assignment(text: str, low: str, i: int, anchor: str) -> Hit | None:
    """Find the value assigned to a secret-looking name whose keyword is at ``low[i]``.

    Hand-written rather than a regex so that ordinary source files (which all say ``key`` or ``token``
    somewhere) never pay for compiling one; each occurrence is rejected after a character or two.
    """
    n = len(text)
    if anchor == "passw":
        if low.startswith("password", i):
            ks, ke = i, i + 8
        elif low.startswith("passwd", i):
            ks, ke = i, i + 6
        else:
            return None
        word = "password"
    elif anchor in ("_pass", "_pwd"):
        ks, ke, word = i + 1, i + len(anchor), anchor[1:]
    else:
        ks, ke, word = i, i + len(anchor), anchor
    if ke >= n or text[ke] not in _KEY_END:
        return None
    # The keyword must start a word: FOO_TOKEN, apiKey, APIKEY, PGPASSWORD; not monkey or turkey.
    if ks > 0 and text[ks - 1] in _ALNUM:
        prev = text[ks - 1]
        camel = text[ks].isupper() and (prev.islower() or prev.isdigit())
        caps = prev.isupper() and text[ks:ke].isupper() and word in ("password", "secret", "token")
        if not (camel or caps or any(low.endswith(g, 0, ks) for g in _GLUE)):
            return None
    ns = ks
    floor = ks - 80 if ks > 80 else 0
    while ns > floor and text[ns - 1] in _NAME_CHARS:
        ns -= 1
    before = text[ns - 1] if ns > 0 else "\n"
    if before == "$" or (before == "{" and ns > 1 and text[ns - 2] == "$") or before == "%":
        return None  # $FOO_TOKEN, ${FOO_TOKEN:-x}, %FOO_TOKEN%: a reference, not an assignment
    if before == "/" and text.endswith("://", 0, ns):
        return None  # https://x-access-token:<secret>@host: the URL rule owns the userinfo
    if before == ":" and text[ke] == ":":
        return None  # arn:aws:secretsmanager:*:*:secret:name, a:token:b: a path, not an assignment
    raw_name = text[ns:ke]
    cli = raw_name.startswith("-")
    name = low[ns:ke].lstrip("-.")
    password_like = word in _CONTEXT_WORDS or anchor == "passphrase"
    head = low[ns:ks].rstrip("_.-")
    weak_key = word == "key" and not head.endswith(_STRONG_KEY_PREFIXES)

    # -- separator ---------------------------------------------------------------------------------------
    p = ke
    quoted_key = before in "\"'"
    if text[p] in "\"'":
        if not quoted_key:
            return None
        p += 1
    elif text[p] == "\\":
        if p + 1 < n and text[p + 1] in "\"'" and quoted_key:
            p += 2
        else:
            return None
    elif quoted_key:
        return None  # "passwd:dir": a string that merely starts with the word
    if quoted_key and p < n and text[p] == "]":
        p += 1  # os.environ["API_KEY"] = ...
    p0 = p
    while p < n and p - p0 < 8 and text[p] in " \t":
        p += 1
    gap_before = p - p0
    if p >= n:
        return None
    c = text[p]
    nxt = text[p + 1] if p + 1 < n else "\n"
    if c == "=":
        if nxt in "=~":
            return None  # comparison or regex match
        sep = "=>" if nxt == ">" else "="
        p += len(sep)
    elif c == ":":
        if nxt == ":":
            return None
        sep = "=" if nxt == "=" else ":"
        p += 2 if nxt == "=" else 1
    elif gap_before and (cli or (name == "password" and c == "'")):
        sep = " "  # a CLI flag and its value; SQL's PASSWORD '...'
    else:
        return None
    p1 = p
    while p < n and p - p1 < 8 and text[p] in " \t":
        p += 1
    gap_after = p - p1
    if p >= n:
        return None

    # -- value -------------------------------------------------------------------------------------------
    c = text[p]
    if c in "\"'`" or (c == "\\" and p + 1 < n and text[p + 1] in "\"'"):
        q = c if c != "\\" else text[p : p + 2]
        vs = p + len(q)
        ve = text.find(q, vs, min(n, vs + 2048))
        while ve > vs and len(q) == 1 and text[ve - 1] == "\\":
            ve = text.find(q, ve + 1, min(n, vs + 2048))
        if ve < 0 or text.find("\n", vs, ve) >= 0:
            return None
        quoted = True
        after = ve + len(q)
    else:
        if sep == "=" and gap_before == 0 and gap_after:
            return None  # shell: FOO_TOKEN= cmd  (empty assignment)
        vs = p
        seg = text[p : p + 512]
        cut = len(seg)
        for ch in _UNQUOTED_STOP + "&" if before in "?&" else _UNQUOTED_STOP:  # C-speed finds, not a loop
            j = seg.find(ch, 0, cut)
            if j >= 0:
                cut = j
        ve = p + cut
        quoted = False
        after = ve
    value = text[vs:ve]
    if weak_key and (len(value) < 16 or "/" in value):
        return None  # "Key": "logs/2026/11/x.json": S3 listings carry thousands of these
    if len(value) < 4 or " " in value or "\t" in value or _is_placeholder(value):
        return None
    if word == "key" and "key" in value.lower():
        return None  # "S3Key": "my-key-name"
    if value.isdigit() and not (password_like and len(value) >= 4):
        return None
    if _looks_like_path(value) or "://" in value:
        return None

    # -- the name: how much does it vouch for the value? (after the cheap rejections: this costs more) -----
    norm = "".join(c for c in name if c in _ALNUM)
    if "public" in norm or not norm:
        return None
    env_style = raw_name.upper() == raw_name and any(c.isalpha() for c in raw_name)
    if password_like or word == "secret":
        strong = True
    elif word == "token":
        if head.endswith(_WEAK_TOKEN_PREFIXES):
            return None  # NextToken, page_token, eos_token, ClientRequestToken: not credentials
        strong = bool(head.lstrip("-.")) or env_style
    else:  # key
        strong = not weak_key
    if quoted:
        if not password_like and not _looks_credential(value):
            return None
    else:
        follow = text[after] if after < n else "\n"
        if follow in "([":
            return None  # a call or a subscript
        ident = _is_identifier_path(value)
        ls, le = _line_of(text, ns)
        lead = text[ls:ns].strip()
        rest = text[after:le].strip()
        line_start = lead in _LINE_PREFIXES
        if sep == ":":
            if rest and not rest.startswith("#") and follow not in "\"'":
                return None  # JS object (`key: value,`) or annotation with default (`x: str = ...`)
            if ident and (
                "." in value
                or value.lower() in _TYPE_WORDS
                or (value[0].isupper() and not any(ch.isdigit() for ch in value))
            ):
                return None  # password: str ; token: Token ; KEY: module.Type
            if ident and not line_start and follow not in "\"'":
                return None
        elif sep == " ":
            if value.startswith("-") or (value.isalpha() and (value.islower() or value.isupper())):
                return None  # "--password options", "--token TOKEN": prose and placeholders
        else:
            url_query = before in "?&;"
            shellish = gap_before == 0 and gap_after == 0 and (env_style or cli or url_query)
            ini = line_start and (not rest or rest.startswith("#"))
            if not shellish:
                if ini and gap_before == 0 and gap_after == 0:
                    pass  # .env / properties line: db_password=hunter2
                elif ini and ident:
                    if not (any(ch.isdigit() for ch in value) and len(value) >= 6):
                        return None  # `password = other_variable`
                elif ident or not _looks_random(value):
                    return None
    if not strong and not _looks_random(value):
        return None
    return vs, ve, _assignment_kind(norm, password_like)


# --------------------------------------------------------------------------------------------------------
# The rule table.  Order is priority: when two hits overlap, the earlier rule names the kind.
# --------------------------------------------------------------------------------------------------------

_B = r"(?<![A-Za-z0-9_])"  # token start: not in the middle of an identifier
_BH = r"(?<![A-Za-z0-9_-])"  # ... nor of a dashed word
_E = r"(?![A-Za-z0-9_])"
# A PEM body is read line by line (real, ``\n``-escaped or double-escaped newlines; header lines such as
# ``Proc-Type: 4,ENCRYPTED``; base64 lines), never with an open-ended ``.*?``: each line either continues the
# block or ends the match, so text full of BEGIN lines costs linear time.  The END line is optional, so a
# truncated key (``head -5 id_rsa``) is still redacted.
_NL = r"(?:\r?\n|\\r\\n|\\n|\\\\n)"
_PEM_END = r"-----END (?:[A-Z0-9]{1,20} ){0,3}PRIVATE KEY(?: BLOCK)?-----"
_PEM_BODY = (
    r"(?:(?: [A-Za-z0-9+/=]{16,256}){1,512}+ "
    + _PEM_END
    + r"|(?:"
    + _NL
    + r"[ \t]*(?:[A-Za-z][A-Za-z-]{0,30}: ?[^\r\n\\]{0,160}|[A-Za-z0-9+/=]{1,256}+)?){0,4096}+"
    + r"(?:"
    + _NL
    + r"?[ \t]*"
    + _PEM_END
    + r")?)"
)

RULES: tuple[Rule, ...] = (
    Rule("private-key", ("-----BEGIN ",),
         r"-----BEGIN ((?:[A-Z0-9]{1,20} ){0,3})PRIVATE KEY( BLOCK)?-----" + _PEM_BODY,
         check=_check_private_key, guard=_g_private_key,
         shape="-----BEGIN [RSA|EC|DSA|OPENSSH|ENCRYPTED|PGP] PRIVATE KEY----- ... -----END ... -----"),
    Rule("ssh-private-key", ("PuTTY-User-Key-File-",),
         r"PuTTY-User-Key-File-\d{1,2}: [^\r\n]{0,100}"
         r"(?:\r?\n(?:[A-Za-z-]{1,30}: [^\r\n]{0,200}|[A-Za-z0-9+/=]{1,128}+)){1,400}+",
         check=_check_putty, shape="PuTTY-User-Key-File-3: ssh-ed25519 ... Private-MAC: <hex>"),
    Rule("anthropic-api-key", ("sk-ant-",), _BH + r"sk-ant-[A-Za-z0-9_-]{20,300}",
         shape="sk-ant-api03-<95 base64url chars>"),
    Rule("openai-api-key", ("sk-",),
         _BH + r"sk-(?!ant-)(?:(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,300}"
         r"|[A-Za-z0-9]{20,64}T3BlbkFJ[A-Za-z0-9_-]{20,64}|[A-Za-z0-9]{32,100}(?![A-Za-z0-9_-]))",
         shape="sk-proj-<~150 chars> | sk-<48 alphanumerics>"),
    Rule("github-pat", ("ghp_",), _B + r"ghp_[A-Za-z0-9]{36,251}" + _E,
         shape="ghp_<36 alphanumerics>"),
    Rule("github-oauth", ("gho_",), _B + r"gho_[A-Za-z0-9]{36,251}" + _E,
         shape="gho_<36 alphanumerics>"),
    Rule("github-app-token", ("ghu_", "ghs_"), _B + r"gh[us]_[A-Za-z0-9]{36,251}" + _E,
         shape="ghs_<36> (server-to-server) | ghu_<36> (user-to-server)"),
    Rule("github-refresh-token", ("ghr_",), _B + r"ghr_[A-Za-z0-9]{36,251}" + _E,
         shape="ghr_<36 alphanumerics>"),
    Rule("github-fine-grained-pat", ("github_pat_",), _B + r"github_pat_[A-Za-z0-9_]{50,251}" + _E,
         shape="github_pat_<22>_<59>"),
    Rule("gitlab-token",
         ("glpat-", "gldt-", "glrt-", "glrtr-", "glptt-", "glcbt-", "glft-", "glimt-", "gloas-", "glsoat-",
          "glagent-", "glwt-", "glffct-"),
         _BH + r"gl(?:pat|dt|rt|rtr|ptt|cbt|ft|imt|oas|soat|agent|wt|ffct)-[A-Za-z0-9_.-]{20,255}(?<![.-])",
         shape="glpat-<20+ chars> (also gldt-, glrt-, glptt-, glcbt-, glft-, ...)"),
    Rule("gitlab-token", ("GR1348941",), _B + r"GR1348941[A-Za-z0-9_-]{20,64}" + _E,
         shape="GR1348941<20 chars> (runner registration)"),
    Rule("aws-secret-key", ("AKIA", "ASIA"),
         r"(?<![A-Za-z0-9])A(?:KIA|SIA)[A-Z0-9]{16}(?:[\"']?[ \t]*[,:;|=][ \t]*[\"']?|[ \t]+)"
         r"([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])", group=1, check=_check_aws,
         shape="<key id>, <40 base64 chars> (CSV / credentials next to the key id)"),
    Rule("aws-access-key-id", ("AKIA", "ASIA"), r"(?<![A-Za-z0-9])A(?:KIA|SIA)[A-Z0-9]{16}(?![A-Za-z0-9])",
         check=_check_aws, shape="AKIA<16 upper-case alphanumerics> | ASIA<16> (temporary)"),
    Rule("aws-secret-key", ("secret_access_key", "secretaccesskey"),
         r"(?i:secret_?access_?key)\\?[\"']?[ \t]*(?:[:=][ \t]*|[ \t]+)\\?[\"']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])",
         group=1, ci=True, check=_check_aws, shape="aws_secret_access_key = <40 base64 chars>"),
    Rule("gcp-api-key", ("AIza",), r"(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])",
         shape="AIza<35 chars>"),
    Rule("google-oauth-client-secret", ("GOCSPX-",), _BH + r"GOCSPX-[A-Za-z0-9_-]{24,40}(?![A-Za-z0-9_-])",
         shape="GOCSPX-<28 chars>"),
    Rule("google-oauth-token", ("ya29.",), _B + r"ya29\.[0-9A-Za-z_-]{30,2048}", shape="ya29.<token>"),
    Rule("azure-storage-key", ("accountkey=", "sharedaccesskey="),
         r"(?i:accountkey|sharedaccesskey)=([A-Za-z0-9+/]{20,200}={0,2})", group=1, ci=True, check=_check_azure,
         shape="AccountKey=<88 base64 chars> (connection string)"),
    Rule("azure-sas-token", ("sig=",), r"(?<=[?&;])sig=([A-Za-z0-9%+/=]{20,256})", group=1, guard=_g_query,
         shape="...?sv=...&sig=<url-encoded base64>"),
    Rule("slack-token", ("xox", "xapp-"),
         r"(?<![A-Za-z0-9-])(?:xox[abposre]-[A-Za-z0-9-]{10,300}|xoxe\.xox[bp]-[A-Za-z0-9-]{10,300}"
         r"|xapp-\d-[A-Za-z0-9-]{10,300})", shape="xoxb-<digits>-<digits>-<24> | xoxp-... | xapp-1-..."),
    Rule("slack-webhook", ("hooks.slack.com/",),
         r"hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9_/-]{20,300})", group=1,
         shape="https://hooks.slack.com/services/T.../B.../<24 chars>"),
    Rule("discord-webhook", ("/api/webhooks/",), r"/api/webhooks/\d{5,30}/([A-Za-z0-9_-]{40,100})",
         group=1, check=_check_discord, shape="https://discord.com/api/webhooks/<id>/<68 chars>"),
    Rule("stripe-key", ("k_live_", "k_test_"), _B + r"[sr]k_(?:live|test)_[A-Za-z0-9]{16,255}" + _E, offset=1,
         shape="sk_live_<24+> | rk_live_<24+> | sk_test_<24+>"),
    Rule("stripe-webhook-secret", ("whsec_",), _B + r"whsec_[A-Za-z0-9+/=]{24,100}", shape="whsec_<32+ chars>"),
    Rule("twilio-auth-token", ("AC",),
         r"(?<![A-Za-z0-9])AC[0-9a-f]{32}(?:[\"']?[ \t]*[:,|;=][ \t]*[\"']?|[ \t]+)([0-9a-f]{32})(?![A-Za-z0-9])",
         group=1, guard=_g_hex2, shape="AC<32 hex> next to <32 hex auth token> (e.g. curl -u AC...:token)"),
    Rule("twilio-api-key", ("SK",), r"(?<![A-Za-z0-9])SK[0-9a-fA-F]{32}(?![A-Za-z0-9])", guard=_g_hex2,
         shape="SK<32 hex>"),
    Rule("sendgrid-api-key", ("SG.",), r"(?<![A-Za-z0-9])SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])",
         shape="SG.<22>.<43>"),
    Rule("npm-token", ("npm_",), _B + r"npm_[A-Za-z0-9]{36}" + _E, shape="npm_<36 alphanumerics>"),
    Rule("pypi-token", ("pypi-AgE",), r"pypi-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)[A-Za-z0-9_-]{50,1000}",
         shape="pypi-AgEIcHlwaS5vcmc<macaroon>"),
    Rule("huggingface-token", ("hf_", "api_org_"), _B + r"(?:hf_|api_org_)[A-Za-z0-9]{30,40}" + _E,
         shape="hf_<34 alphanumerics>"),
    Rule("jwt", ("eyJ",),
         r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,8192}\.eyJ[A-Za-z0-9_-]{8,65536}\.[A-Za-z0-9_-]{0,8192}",
         shape="eyJ<header>.eyJ<payload>.<signature>"),
    Rule("digitalocean-token", ("dop_v1_", "doo_v1_", "dor_v1_"), _B + r"do[opr]_v1_[a-f0-9]{64}" + _E,
         shape="dop_v1_<64 hex>"),
    Rule("shopify-token", ("shpat_", "shpss_", "shpca_", "shppa_"), _B + r"shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}" + _E,
         shape="shpat_<32 hex>"),
    Rule("url-credential", ("://",),
         r"://([^\s:/?#@'\"\\<>\[\]]{0,256}):([^\s/?#'\"\\<>]{1,256})@", group=2, check=_check_url,
         guard=_g_userinfo,
         shape="scheme://user:<password>@host (db-credential for postgres/mysql/mongodb/redis/amqp...)"),
    Rule("authorization", ("authorization",),
         r"(?<![A-Za-z])(?i:authorization)\\?[\"']?[ \t]*[:=][ \t]*\\?[\"']?(?:([A-Za-z][A-Za-z0-9_-]{0,30})[ \t]+)?"
         r"([^\s\"'\\,;]{4,4096})", group=2, ci=True, check=_check_authorization, guard=_g_header,
         shape="Authorization: <scheme> <credentials> (bearer / basic-auth / authorization)"),
    Rule("bearer", ("bearer",),
         r"(?<![A-Za-z0-9_])(?i:bearer)[ \t]+([A-Za-z0-9._~+/-]{8,4096}=*)(?![A-Za-z0-9._~+/=-])",
         group=1, ci=True, check=_check_bearer, guard=_g_blank, shape="Bearer <token>"),
    Rule("basic-auth", ("basic",),
         r"(?<![A-Za-z0-9_])(?i:basic)[ \t]+([A-Za-z0-9+/]{6,4096}={0,2})(?![A-Za-z0-9+/=])",
         group=1, ci=True, check=_check_basic, guard=_g_basic, shape="Basic <base64 of user:password>"),
    Rule("basic-auth", ("-u", "--user"),
         r"(?:(?<![A-Za-z0-9_-])-u|(?<![A-Za-z0-9_-])--user)(?:[ \t]*=|[ \t]+|)[\"']?"
         r"([^\s:'\"`]{1,128}):([^\s'\"`)]{1,256})",
         group=2, check=_check_cli_user, guard=_g_http_client, shape="curl -u user:<password>"),
    Rule("connection-string-password", ("password=", "password =", "pwd=", "pwd ="),
         r"(?<![A-Za-z0-9_])(?i:password|pwd)[ \t]*=[ \t]*([^;'\"`\r\n]{1,256}+)(?=;|['\"]|\r|\n|$)",
         group=1, ci=True, check=_check_conn_string, guard=_g_connection_string,
         shape="Server=...;User Id=...;Password=<value>;"),
    Rule("generic-secret", ("passw", "_pass", "_pwd", "passphrase", "secret", "token", "key"), None, ci=True,
         scan=_scan_assignment,
         shape="NAME=value / NAME: value / \"name\": \"value\" / --name=value, NAME ending in "
               "PASSWORD, PASSWD, SECRET, TOKEN, *_KEY ..."),
)  # fmt: skip

KINDS: frozenset[str] = frozenset(
    [r.kind for r in RULES]
    + [
        "ssh-private-key", "gcp-service-account", "db-credential", "azure-shared-access-key", "password",
        "twilio-auth-token", "aws-secret-key",
    ]
)  # fmt: skip


class _Anchor:
    """One literal looked up in the text (or its lower-cased copy) and the rules that start at it."""

    __slots__ = ("ci", "end", "entries", "follow", "text")

    def __init__(self, text: str, ci: bool, entries: tuple[tuple[int, Rule], ...]) -> None:
        self.text = text
        self.ci = ci
        self.entries = entries  # (priority, rule) of every rule behind this anchor
        self.end = len(text)
        # When only the assignment rule starts here (``key``, ``token``...), the next character must end a
        # name (``=``, ``:``, a quote, a blank); checking it inline saves a call for ``keys``, ``token_id``.
        only_names = len(entries) == 1 and entries[0][1].scan is not None and text != "passw"
        self.follow = _KEY_END if only_names else None


#: Shorter literals shared by several anchors: on small texts one ``find`` pass per base, and each hit is
#: checked against the anchors built on it with ``startswith`` (no regex, nothing compiled).
_BASES = {False: ("gh", "gl", "shp", "_v1_", "k_", "sk-", "-u"), True: ("pass", "pwd", "secret", "key")}


def _build_index() -> tuple[tuple[_Anchor, ...], tuple[tuple[str, bool, tuple[tuple[_Anchor, int], ...]], ...]]:
    """Group rules by anchor (one search per anchor whatever the number of rules behind it), and anchors by
    the base literal they contain (one ``find`` pass per base on small texts)."""
    table: dict[tuple[str, bool], list[tuple[int, Rule]]] = {}
    for prio, rule in enumerate(RULES):
        for a in rule.anchors:
            table.setdefault((a, rule.ci), []).append((prio, rule))
    index = []
    groups: dict[tuple[str, bool], list[tuple[_Anchor, int]]] = {}
    for (a, ci), entries in table.items():
        anc = _Anchor(a, ci, tuple(entries))
        index.append(anc)
        base, k = a, 0
        for b in _BASES[ci]:
            j = a.find(b)
            if j >= 0:
                base, k = b, j
                break
        groups.setdefault((base, ci), []).append((anc, k))
    return tuple(index), tuple((b, ci, tuple(members)) for (b, ci), members in groups.items())


_INDEX, _SMALL_GROUPS = _build_index()

#: Characters from rarest to most common in source code and prose (rough).  On large texts each anchor is
#: searched from its rarest character, because a regex whose first op is one literal character is scanned
#: by a tight C loop, about twice as fast as ``str.find`` of a short needle.
_RARITY = "QZJXqjzVKYWUHGBOFxLMNRDIPCTSAE|~^`<>{}!?;@#$%&*+9876543210kvwybgfmpucdlhrsnioate()[]\"'/:,=_-. \t\n"


def _build_groups() -> tuple[tuple[bool, str, tuple[tuple[_Anchor, int], ...]], ...]:
    """For large texts: one regex per (case mode, entry character), ``c(?=rest1|rest2...)``."""
    import re

    rank = {c: i for i, c in enumerate(_RARITY)}
    groups: dict[tuple[bool, str], list[tuple[_Anchor, int]]] = {}
    for anc in _INDEX:
        # The rarest character that still leaves something for the lookahead to check (else every
        # occurrence of the character would reach Python).
        last = max(1, len(anc.text) - 1)
        k = min(range(last), key=lambda j: (rank.get(anc.text[j], len(_RARITY) // 2), j))
        groups.setdefault((anc.ci, anc.text[k]), []).append((anc, k))
    out = []
    for (ci, c), members in groups.items():
        rests = sorted({re.escape(a.text[k + 1 :]) for a, k in members}, key=len, reverse=True)
        look = "" if "" in rests else "(?=" + "|".join(rests) + ")"
        out.append((ci, re.escape(c) + look, tuple(members)))
    return tuple(out)


_GROUPS: list[tuple[bool, re.Pattern[str], tuple[tuple[_Anchor, int], ...]]] = []
_COMPILED: dict[int, re.Pattern[str]] = {}
_ASCII_LOWER = {c: c + 32 for c in range(65, 91)}


def _pattern(prio: int) -> re.Pattern[str]:
    pat = _COMPILED.get(prio)
    if pat is None:
        import re  # already imported by site/json in practice; free if so

        pat = _COMPILED[prio] = re.compile(RULES[prio].pattern or "")
    return pat


def _lower(text: str) -> str:
    """Lower-case with positions preserved (``str.lower`` lengthens a few non-ASCII letters)."""
    low = text.lower()
    if len(low) != len(text):
        low = text.translate(_ASCII_LOWER)
    return low


def _dispatch(text: str, low: str, anc: _Anchor, i: int, hits: list[tuple[int, int, int, str]]) -> None:
    """Run every rule behind ``anc`` at the anchor occurrence ``i``."""
    for prio, rule in anc.entries:
        if rule.scan is not None:
            hit = rule.scan(text, low, i, anc.text)
        else:
            start = i - rule.offset
            if start < 0 or (rule.guard is not None and not rule.guard(text, i, anc.text)):
                continue
            m = _pattern(prio).match(text, start)
            if m is None:
                continue
            hit = rule.check(text, m) if rule.check else (m.start(rule.group), m.end(rule.group), rule.kind)
        if hit is not None and hit[1] > hit[0]:
            hits.append((hit[0], hit[1], prio, hit[2]))


def _dispatch_members(text: str, low: str, hay: str, at: int, members: tuple, hits: list) -> None:
    """Run the rules of every anchor in a group that really stands at ``at`` (the group's
    shared base was found there; each member sits ``k`` characters into its anchor)."""
    for anc, k in members:
        s = at - k
        if (
            s >= 0
            and hay.startswith(anc.text, s)
            and (anc.follow is None or hay[s + anc.end : s + anc.end + 1] in anc.follow)
        ):
            _dispatch(text, low, anc, s, hits)


def find_secrets(text: str) -> list[tuple[int, int, int, str]]:
    """Every candidate ``(start, end, priority, kind)`` in ``text``, overlapping and unsorted."""
    hits: list[tuple[int, int, int, str]] = []
    low = _lower(text)
    if len(text) <= _BIG_TEXT:
        # Small text: compiling anything would cost more than all these C-speed ``find`` passes.
        for base, ci, members in _SMALL_GROUPS:
            hay = low if ci else text
            i = hay.find(base)
            while i >= 0:
                _dispatch_members(text, low, hay, i, members, hits)
                i = hay.find(base, i + 1)
        return hits
    if not _GROUPS:
        import re

        _GROUPS.extend((ci, re.compile(src), members) for ci, src, members in _build_groups())
    for ci, pat, members in _GROUPS:
        hay = low if ci else text
        for m in pat.finditer(hay):
            _dispatch_members(text, low, hay, m.start(), members, hits)
    return hits


def secret_spans(text: str) -> list[tuple[int, int, str]]:
    """The ``(start, end, kind)`` spans that ``redact_text`` replaces, sorted and non-overlapping.

    Overlapping hits are merged into one span named by the highest-priority rule among them (``Bearer
    <jwt>`` is a ``jwt``); hits inside existing markers are dropped, which makes redaction idempotent.
    """
    if len(text) < 6:
        return []
    hits = find_secrets(text)
    if not hits:
        return []
    markers = _marker_spans(text)
    if markers:
        hits = [h for h in hits if not any(h[0] < me and ms < h[1] for ms, me in markers)]
    hits.sort()
    merged: list[list[Any]] = []
    for start, end, prio, kind in hits:
        if merged and start < merged[-1][1]:
            last = merged[-1]
            last[1] = max(last[1], end)
            if prio < last[2]:
                last[2], last[3] = prio, kind
        else:
            merged.append([start, end, prio, kind])
    return [(start, end, kind) for start, end, _prio, kind in merged]


def _marker_spans(text: str) -> list[tuple[int, int]]:
    """Spans of markers already in ``text``; nothing inside them is redacted again (idempotence)."""
    spans = []
    i = text.find(MARKER_PREFIX)
    while i >= 0:
        end = text.find("]", i, i + 80)
        if end > 0 and is_marker(text[i : end + 1]):
            spans.append((i, end + 1))
        i = text.find(MARKER_PREFIX, i + 1)
    return spans


def is_marker(value: str) -> bool:
    """Is ``value`` exactly one ``[REDACTED:<kind>:<12 hex>]`` marker?"""
    if not (value.startswith(MARKER_PREFIX) and value.endswith("]")):
        return False
    kind, sep, fp = value[len(MARKER_PREFIX) : -1].partition(":")
    return bool(sep and kind and len(fp) == FINGERPRINT_CHARS and set(fp) <= _HEX and set(kind) <= _KIND_CHARS)


# --------------------------------------------------------------------------------------------------------
# JSON key names whose string values are secrets whatever they look like.
# --------------------------------------------------------------------------------------------------------

_SECRET_KEY_SUFFIXES = (
    "password", "passwd", "passphrase", "secret", "token", "apikey", "accesskey", "privatekey", "secretkey",
    "clientsecret", "authorization", "signingkey", "encryptionkey", "masterkey",
)  # fmt: skip


def secret_key_kind(key: str) -> str | None:
    """The marker kind for a value under the JSON key ``key``, or None if the name is not secret-looking."""
    k = key.lower()
    norm = "".join(c for c in k if c in _ALNUM)
    if not norm or "public" in norm:
        return None
    if norm == "auth" or k.endswith(("_auth", "-auth")):
        return "authorization"
    if not norm.endswith(_SECRET_KEY_SUFFIXES):
        return None
    if norm.endswith("token"):
        head = k[: k.rfind("token")].rstrip("_-. ")
        if head.endswith(_WEAK_TOKEN_PREFIXES):
            return None  # next_page_token, eos_token: not credentials
    if norm.endswith("authorization"):
        return "authorization"
    if norm.endswith("privatekey"):
        return "private-key"
    return _assignment_kind(norm, norm.endswith(("password", "passwd", "passphrase")))


MEMO_MIN_CHARS = 1024  # shorter texts are cheaper to redact again than to remember
MEMO_MAX_CHARS = 64 * 1024 * 1024


class Redactor:
    """Replaces secret values by ``[REDACTED:<kind>:<fingerprint>]`` markers.

    ``key`` is the per-store secret for the HMAC fingerprints: the same secret gets the same marker within a
    store (so it can be recognised across events) but the marker cannot be checked against guesses without it.
    """

    __slots__ = ("_fps", "_key", "_memo", "_memo_chars")

    def __init__(self, key: bytes) -> None:
        if not isinstance(key, bytes | bytearray) or not key:
            raise ValueError("Redactor needs a non-empty bytes key")
        self._key = bytes(key)
        self._fps: dict[str, str] = {}
        # Long texts often come twice in one hook call (a payload's originalFile and the
        # file's pre-image; a Write's content and the post-image): redact each once.
        self._memo: dict[str, tuple[str, int]] = {}
        self._memo_chars = 0

    def fingerprint(self, secret: str) -> str:
        """First 12 hex chars of HMAC-SHA256(key, secret) (UTF-8, lone surrogates kept)."""
        fp = self._fps.get(secret)
        if fp is None:
            from auditlog.digests import hmac_sha256  # built-in SHA-256: no OpenSSL import in the hook

            digest = hmac_sha256(self._key, secret.encode("utf-8", "surrogatepass"))
            fp = self._fps[secret] = digest.hex()[:FINGERPRINT_CHARS]
        return fp

    def marker(self, kind: str, secret: str) -> str:
        return f"{MARKER_PREFIX}{kind}:{self.fingerprint(secret)}]"

    def redact_text(self, text: str) -> tuple[str, int]:
        """Return ``(text with every secret replaced, number of replacements)``.

        When nothing is found the very same ``text`` object is returned, so ``out is text`` tells the
        caller that nothing changed without comparing strings.
        """
        spans = secret_spans(text)
        if not spans:
            return text, 0
        parts: list[str] = []
        pos = 0
        for start, end, kind in spans:
            parts.append(text[pos:start])
            parts.append(self.marker(kind, text[start:end]))
            pos = end
        parts.append(text[pos:])
        return "".join(parts), len(spans)

    def redact_json(self, value: object) -> tuple[object, int]:
        """Redact every string in a JSON-like value (dicts, lists, tuples, strings).

        Dict keys are kept.  A non-empty string under a key whose name says it is a secret (``password``,
        ``api_key``, ``client_secret``, ``authorization`` ...) is replaced whole, since no pattern can tell
        that an arbitrary string is a password.  Unchanged containers and strings are returned as the same
        objects.
        """
        return self._walk(value, None)

    def _walk(self, value: object, key: object) -> tuple[object, int]:
        if isinstance(value, str):
            kind = secret_key_kind(key) if isinstance(key, str) and value else None
            if kind is None or is_marker(value):
                return self.redact_text(value)
            if MARKER_PREFIX in value:  # partly redacted by an earlier pass: keep it stable
                return self.redact_text(value)
            red, count = self.redact_text(value)
            stripped = red.strip()
            if count == 1 and is_marker(stripped):
                return stripped, 1
            return self.marker(kind, value), 1
        if isinstance(value, dict):
            total = 0
            out: dict[Any, Any] | None = None
            for k, v in value.items():
                nv, c = self._walk(v, k)
                if c:
                    if out is None:
                        out = dict(value)
                    out[k] = nv
                    total += c
            return (value if out is None else out), total
        if isinstance(value, list | tuple):
            total = 0
            items: list[Any] | None = None
            for idx, v in enumerate(value):
                nv, c = self._walk(v, None)
                if c:
                    if items is None:
                        items = list(value)
                    items[idx] = nv
                    total += c
            if items is None:
                return value, 0
            return (tuple(items) if isinstance(value, tuple) else items), total
        return value, 0


def _main(argv: list[str]) -> int:
    """``python -m auditlog.redaction FILE...``: print each file redacted with a throwaway key (for humans)."""
    red = Redactor(b"auditlog-redaction-cli")
    for path in argv or ["-"]:
        if path == "-":
            data = sys.stdin.read()
        else:
            with open(path, encoding="utf-8", errors="surrogateescape") as f:
                data = f.read()
        out, n = red.redact_text(data)
        sys.stdout.write(out)
        sys.stderr.write(f"{path}: {n} redaction(s)\n")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(_main(sys.argv[1:]))
