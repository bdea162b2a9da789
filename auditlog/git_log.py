"""Commits as auditlog records them: sha, parents, author, times, subject, and every file
with the blob id it has in the commit (what links a commit to the recorded changes).

Shared by the hook (HEAD moved: which commits are new) and the queries (which files a
commit holds). Only read-only git commands, run as :mod:`auditlog.tree_snapshot` runs
them (objects the store's own), so the user's repository is never written to.
"""

from __future__ import annotations

from auditlog.gitrefs import RepoInfo
from auditlog.patches import NULL_OID
from auditlog.record import utc_timestamp

# One record separator before each commit, NUL between fields (subjects hold anything else).
FORMAT = "%x1e%H%x00%P%x00%an%x00%ae%x00%at%x00%ct%x00%s"
MAX_FILES = 2000  # per commit; a larger commit (a vendored tree) keeps the first ones and says so
SUBMODULE = "160000"


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")


def raw_files(tokens: list[bytes]) -> list[dict]:
    """``--raw -z`` entries: ``:<modes> <oids> <status>``, then one path (two for renames
    and copies). Merges are diffed against their first parent."""
    files, i = [], 0
    while i < len(tokens):
        meta = tokens[i].lstrip(b"\n")
        if not meta.startswith(b":"):
            i += 1
            continue
        old_mode, new_mode, old_oid, new_oid, status = meta[1:].decode("ascii").split(" ")
        if status[:1] in ("R", "C"):
            old_path, path = _text(tokens[i + 1]), _text(tokens[i + 2])
            i += 3
        else:
            old_path, path = None, _text(tokens[i + 1])
            i += 2
        if SUBMODULE in (old_mode, new_mode):
            continue  # a submodule pointer is not file content
        entry = {"path": path, "status": status[:1], "oid": new_oid, "pre_oid": old_oid}
        if old_path is not None:
            entry["old_path"] = old_path
        files.append(entry)
    return files


def parse_log(raw: bytes) -> list[dict]:
    """Commits from ``git log`` run with :data:`FORMAT` and ``-z --raw --no-abbrev``."""
    commits = []
    for chunk in raw.split(b"\x1e")[1:]:
        fields = chunk.split(b"\0")
        sha, parents, author, email, authored, committed, subject = (_text(f) for f in fields[:7])
        files = raw_files(fields[7:])
        commit = {
            "sha": sha,
            "parents": parents.split(),
            "subject": subject,
            "author": author,
            "author_email": email,
            "author_time": utc_timestamp(int(authored)),
            "committer_time": utc_timestamp(int(committed)),
            "files": files[:MAX_FILES],
        }
        if len(files) > MAX_FILES:
            commit["files_total"] = len(files)
        commits.append(commit)
    return commits


def log(repo: RepoInfo, home: str, revs: list[str], max_count: int | None = None) -> list[dict]:
    """``git log REVS`` (newest first), each commit with its files (renames detected)."""
    from auditlog.tree_snapshot import reader_env, run_git

    args = ["log", "-z", "--raw", "--no-abbrev", "-M", "--diff-merges=first-parent", f"--format={FORMAT}"]
    if max_count:
        args.append(f"--max-count={max_count}")
    return parse_log(run_git(repo, reader_env(repo, home), *args, *revs, "--"))


def resolve(repo: RepoInfo, home: str, rev: str) -> str | None:
    """The full id of the commit ``rev`` names in ``repo`` (``None``: it names none)."""
    from auditlog.tree_snapshot import reader_env, run_git

    if not rev or rev.startswith("-"):
        return None
    try:
        out = run_git(
            repo, reader_env(repo, home), "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"
        )
    except OSError:
        return None
    return out.decode().strip() or None


def is_deletion(entry: dict) -> bool:
    return entry.get("status") == "D" or entry.get("oid") == NULL_OID


def former_names(repo: RepoInfo, home: str, path: str, rev: str = "HEAD") -> list[str]:
    """``path`` and every name git's rename detection finds it had before (``--follow``),
    newest first; just ``path`` when git knows no history of it."""
    from auditlog.tree_snapshot import reader_env, run_git

    names = [path]
    try:
        out = run_git(
            repo, reader_env(repo, home), "log", "--follow", "-z", "--name-only", "--format=", rev, "--", path
        )
    except OSError:
        return names
    for raw in out.split(b"\0"):
        name = _text(raw.strip(b"\n"))
        if name and name not in names:
            names.append(name)
    return names


def diff_files(repo: RepoInfo, home: str, base: str, head: str) -> list[dict]:
    """The files that differ between two commits (renames detected), as in :func:`log`."""
    from auditlog.tree_snapshot import reader_env, run_git

    out = run_git(repo, reader_env(repo, home), "diff", "--raw", "-z", "-M", "--no-abbrev", base, head, "--")
    return raw_files(out.split(b"\0"))


def blobs(repo: RepoInfo, home: str, names: list[str]) -> dict[str, bytes]:
    """Objects by id or ``REV:PATH`` (those git has), in one ``cat-file --batch``."""
    from auditlog.tree_snapshot import cat_blobs, reader_env

    return cat_blobs(repo, reader_env(repo, home), names)


def blob_ids(repo: RepoInfo, home: str, names: list[str]) -> dict[str, str]:
    """Object ids of ``REV:PATH`` names (those that exist), in one ``cat-file --batch-check``."""
    from auditlog.tree_snapshot import reader_env, run_git

    if not names:
        return {}
    out = run_git(
        repo,
        reader_env(repo, home),
        "cat-file",
        "--batch-check=%(objectname) %(objecttype)",
        stdin="".join(n + "\n" for n in names).encode("utf-8", "surrogateescape"),
    )
    found = {}
    for name, line in zip(names, out.decode("utf-8", "replace").splitlines(), strict=False):
        oid, _, kind = line.partition(" ")
        if kind == "blob":
            found[name] = oid
    return found
