"""``auditlog review --range BASE..HEAD``: the pull-request view of a branch.

Which recorded sessions went into the range (they made one of its commits, their changes
are in one, or they wrote lines of its diff), each summarised as ``auditlog review SESSION``
does; the commits with the sessions behind each; and the lines the branch adds that no
recorded session wrote (a person's edits, or an agent auditlog did not capture).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from auditlog import git_log
from auditlog.blame import file_authors
from auditlog.line_history import match, split_lines
from auditlog.models import Commit
from auditlog.query import QueryError, Store
from auditlog.review import _code, _fence, session_review

MAX_SHOWN_LINES = 12  # of each unexplained run, in the Markdown


@dataclass
class FileAccount:
    """One file of the branch's diff: the sessions that wrote its added lines, and the
    runs of added lines no recorded session wrote."""

    path: str
    status: str
    added: int = 0
    sessions: set[str] = field(default_factory=set)
    unexplained: list[tuple[int, list[str]]] = field(default_factory=list)  # (first line, lines)


def _runs(numbers: list[int], lines: list[str]) -> list[tuple[int, list[str]]]:
    runs: list[tuple[int, list[str]]] = []
    for n in numbers:
        if runs and runs[-1][0] + len(runs[-1][1]) == n:
            runs[-1][1].append(lines[n - 1])
        else:
            runs.append((n, [lines[n - 1]]))
    return runs


def account_for_diff(store: Store, where: str | None, base: str, head: str, deleted_ok: set[str]) -> list[FileAccount]:
    """Every file the range changes, with who wrote its added lines. A deleted file is
    explained when a recorded change deleted it (``deleted_ok``)."""
    repo = store.repository(where)
    entries = git_log.diff_files(repo, store.home, base, head)
    wanted = [f"{head}:{e['path']}" for e in entries if e["status"] != "D"]
    wanted += [f"{base}:{e.get('old_path') or e['path']}" for e in entries if e["status"] not in ("A", "D")]
    images = git_log.blobs(repo, store.home, wanted)
    accounts = []
    for entry in entries:
        path, status = entry["path"], entry["status"]
        account = FileAccount(path, status)
        accounts.append(account)
        if status == "D":
            if path not in deleted_ok:
                account.unexplained.append((0, []))
            continue
        data = images.get(f"{head}:{path}", b"")
        lines = split_lines(data)
        before = split_lines(images.get(f"{base}:{entry.get('old_path') or path}")) if status != "A" else []
        added = [i + 1 for i, j in enumerate(match(before, lines)) if j is None]
        account.added = len(added)
        if not added:
            continue
        authors = file_authors(store, repo, path, data, head)
        account.sessions = {authors[n - 1]["session"] for n in added if authors[n - 1] is not None}
        account.unexplained = _runs([n for n in added if authors[n - 1] is None], lines)
    return accounts


def _commit_rows(commits: list[Commit], by_commit: dict[str, set[str]]) -> list[str]:
    rows = ["| Commit | Subject | Author | Sessions |", "|---|---|---|---|"]
    for c in commits:
        ids = sorted(by_commit.get(c.sha, set()))
        who = ", ".join(f"`{i[:8]}`" for i in ids) if ids else "**no recorded session**"
        subject = c.subject.replace("|", "\\|")[:80]
        rows.append(f"| `{c.sha[:10]}` | {subject} | {c.author.replace('|', '/')} | {who} |")
    return rows


def _unexplained_section(accounts: list[FileAccount]) -> list[str]:
    flagged = [a for a in accounts if a.unexplained]
    lines = ["## Not explained by any recorded session", ""]
    if not flagged:
        return [*lines, "Every line this range adds was written by a recorded session.", ""]
    total = sum(len(r[1]) for a in flagged for r in a.unexplained)
    lines += [
        f"{total} added line(s) in {len(flagged)} file(s) were written by no recorded session "
        "(a person's edit, or an agent auditlog did not capture):",
        "",
    ]
    for account in flagged:
        if account.status == "D":
            lines += [f"- `{account.path}`: deleted, and no recorded session deleted it", ""]
            continue
        for start, run in account.unexplained:
            span = f"line {start}" if len(run) == 1 else f"lines {start}–{start + len(run) - 1}"
            body = "\n".join("+" + ln for ln in run[:MAX_SHOWN_LINES])
            more = f"\n… {len(run) - MAX_SHOWN_LINES} more" if len(run) > MAX_SHOWN_LINES else ""
            fence = _fence(body)
            lines += [f"- `{account.path}` {span}:", "", f"{fence}diff", body + more, fence, ""]
    return lines


def range_review(store: Store, spec: str, where: str | None = None) -> str:
    """The Markdown for the commits of ``spec`` (``BASE..HEAD``) in the repository at
    ``where`` (default: the current folder)."""
    commits = store.range_commits(spec, where)
    if not commits:
        raise QueryError(f"{spec}: the range holds no commits")
    repo = store.repository(where)
    base_ref, _, head_ref = spec.partition("..")
    base = git_log.resolve(repo, store.home, base_ref)
    head = git_log.resolve(repo, store.home, head_ref.lstrip(".") or "HEAD")
    if not base or not head:
        raise QueryError(f"{spec}: give the range as BASE..HEAD (two revisions this repository has)")
    by_commit = store.sessions_by_commit(commits)
    deleted_ok = {link["path"] for link in store.contained_changes(commits) if link["op"] == "delete"}
    accounts = account_for_diff(store, where, base, head, deleted_ok)
    ids = set().union(*by_commit.values(), *(a.sessions for a in accounts))
    sessions = sorted(store.sessions_by_id(ids), key=lambda s: s.started)
    title = f"# Review of {_code(spec)}: {len(commits)} commit(s), {len(sessions)} AI session(s)"
    out = [title, "", f"*{repo.root} · {base[:10]} → {head[:10]}*", "", "## Commits", ""]
    out += [*_commit_rows(commits, by_commit), ""]
    out += _unexplained_section(accounts)
    out += ["## AI sessions", ""]
    if not sessions:
        out += ["No recorded session went into this range.", ""]
    for s in sessions:
        landed = [c.sha[:10] for c in commits if s.id in by_commit.get(c.sha, set())]
        note = [f"Landed in {', '.join(f'`{x}`' for x in landed)}"] if landed else ["Wrote lines of this range"]
        out.append(session_review(store, s, heading_level=3, net_diff=False, notes=note))
    return "\n".join(out)
