"""The read API's git questions: which commits a session made, which sessions a commit,
a branch or a range holds. Mixed into :class:`auditlog.query.Store`.

Two sources, joined by content: the ``commits`` and ``commit_files`` rows of commits a
session saw being made (index only, no repository needed), and commits read from the
repository with read-only ``git log`` (any commit, made by anyone, whenever). A recorded
change is *in* a commit when the commit leaves its path with the change's post-image
(the same blob id), so the link survives amends, rebases, squashes and cherry-picks.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable

from auditlog import git_log
from auditlog.gitrefs import RepoInfo, find_repo
from auditlog.migrations import CONTAINS_DELETE, CONTAINS_WRITE
from auditlog.models import Commit, CommitFile, SessionSummary

MAX_BRANCH_COMMITS = 5000  # a default branch is read this far back
DEFAULT_BRANCHES = ("main", "master", "trunk", "develop")
_ENTRIES = (
    "WITH f(sha, path, status, oid, pre_oid) AS (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'),"
    " json_extract(value, '$[2]'), json_extract(value, '$[3]'), json_extract(value, '$[4]') FROM json_each(?))"
)


def _git_error(message: str) -> Exception:
    from auditlog.query import QueryError  # query imports this module: resolved at call time

    return QueryError(message)


def commit_from_log(entry: dict, recorded: dict | None = None) -> Commit:
    """A :class:`Commit` from a parsed ``git log`` entry (a ``commit`` event's payload)."""
    files = tuple(
        CommitFile(f["path"], f.get("status") or "M", f.get("oid") or "", f.get("pre_oid") or "", f.get("old_path"))
        for f in entry.get("files") or []
    )
    recorded = recorded or {}
    return Commit(
        entry["sha"],
        tuple(entry.get("parents") or ()),
        entry.get("subject") or "",
        entry.get("author") or "",
        entry.get("author_email") or "",
        entry.get("author_time") or "",
        entry.get("committer_time") or "",
        files,
        recorded.get("session"),
        recorded.get("seq"),
        recorded.get("ts"),
        recorded.get("branch"),
        bool(recorded.get("by_agent")),
    )


class GitQueries:
    """Store methods about commits. Needs the Store's ``home`` and ``_rows``."""

    home: str
    _rows: Callable[..., list[dict]]

    # -- the repository --------------------------------------------------------------
    def repository(self, where: str | None = None) -> RepoInfo | None:
        """The git repository holding ``where`` (default: the current folder), if any."""
        return find_repo(os.path.abspath(os.path.expanduser(where or os.getcwd())))

    def _need_repository(self, where: str | None) -> RepoInfo:
        repo = self.repository(where)
        if repo is None:
            raise _git_error(f"{os.path.abspath(where or os.getcwd())} is not inside a git repository")
        return repo

    # -- commits a session recorded ---------------------------------------------------
    def _recorded(self, where_sql: str, params: list) -> list[Commit]:
        rows = self._rows(f"SELECT * FROM commits WHERE {where_sql} ORDER BY ts, seq", params)
        if not rows:
            return []
        keys = json.dumps([[r["session"], r["sha"]] for r in rows])
        files: dict[tuple[str, str], list[dict]] = {}
        for f in self._rows(
            "SELECT cf.* FROM json_each(?) k JOIN commit_files cf ON cf.session = json_extract(k.value, '$[0]')"
            " AND cf.sha = json_extract(k.value, '$[1]') ORDER BY cf.path",
            [keys],
        ):
            files.setdefault((f["session"], f["sha"]), []).append(f)
        out = []
        for r in rows:
            entry = {**r, "parents": (r["parents"] or "").split(), "files": files.get((r["session"], r["sha"]), [])}
            out.append(commit_from_log(entry, r))
        return out

    def commits(self, session: str) -> list[Commit]:
        """The commits made while ``session`` ran (HEAD moves it recorded), oldest first."""
        return self._recorded("session = ?", [session])

    # -- any commit --------------------------------------------------------------------
    def commit(self, ref: str, where: str | None = None) -> Commit:
        """One commit by id, prefix or any revision git understands: from the repository
        at ``where`` (default: the current folder) when it has it, else from the index."""
        repo = self.repository(where)
        full = git_log.resolve(repo, self.home, ref) if repo else None
        if full:
            found = git_log.log(repo, self.home, [full], 1)
            recorded = self._recorded("sha = ?", [full])
            if found:
                return commit_from_log(found[0], vars(recorded[0]) if recorded else None)
        escaped = ref.strip().lower().replace("%", "").replace("_", "")
        recorded = self._recorded("sha LIKE ?", [escaped + "%"]) if len(escaped) >= 4 else []
        shas = {c.sha for c in recorded}
        if len(shas) == 1:
            return recorded[0]
        if shas:
            raise _git_error(f"{ref!r} matches {len(shas)} recorded commits; give more of the id")
        raise _git_error(f"no commit {ref!r} in the repository here, nor among the recorded commits")

    def log(self, revs: list[str], where: str | None = None, max_count: int | None = None) -> list[Commit]:
        """``git log REVS`` in the repository at ``where`` (newest first), as commits."""
        repo = self._need_repository(where)
        if any(r.startswith("-") and r != "--not" for r in revs):
            raise _git_error(f"not a revision: {revs}")
        try:
            entries = git_log.log(repo, self.home, revs, max_count)
        except OSError as exc:
            raise _git_error(str(exc)) from None
        recorded = {
            c.sha: c
            for c in self._recorded(
                "sha IN (SELECT value FROM json_each(?))", [json.dumps([e["sha"] for e in entries])]
            )
        }
        return [commit_from_log(e, vars(recorded[e["sha"]]) if e["sha"] in recorded else None) for e in entries]

    def range_commits(self, spec: str, where: str | None = None) -> list[Commit]:
        """The commits of ``BASE..HEAD`` (``BASE`` alone means ``BASE..HEAD``), oldest first."""
        spec = spec.strip()
        if ".." not in spec:
            spec += "..HEAD"
        return list(reversed(self.log([spec], where)))

    def branch_commits(self, name: str, where: str | None = None) -> list[Commit]:
        """The commits of branch ``name``: those not on the default branch (``origin/HEAD``,
        else main, master, trunk or develop); for the default branch itself, its history
        (the newest 5,000). Plus commits recorded while a session was on ``name``, which
        count even after the branch is merged, rebased or deleted."""
        repo = self.repository(where)
        commits: list[Commit] = []
        tip = git_log.resolve(repo, self.home, name) if repo is not None else None
        if tip:
            base = self._default_branch(repo, tip)
            commits = self.log([name, "--not", base] if base else [name], where, None if base else MAX_BRANCH_COMMITS)
        seen = {c.sha for c in commits}
        for recorded in self._recorded("branch = ?", [name]):
            if recorded.sha not in seen:
                seen.add(recorded.sha)
                commits.append(recorded)
        return commits

    def _default_branch(self, repo: RepoInfo, tip: str) -> str | None:
        """The ref a branch at ``tip`` is measured against; ``None`` when it is that ref."""
        for candidate in ("refs/remotes/origin/HEAD", *(f"refs/heads/{b}" for b in DEFAULT_BRANCHES)):
            sha = git_log.resolve(repo, self.home, candidate)
            if sha:
                return None if sha == tip else candidate
        return None

    # -- lines ---------------------------------------------------------------------------
    def change_images(self, paths: list[str]) -> list[dict]:
        """Every recorded change to any of ``paths``, in time order, with its image ids
        and blobs, session folder and project, tool, and the prompt before it (for blame)."""
        return self._rows(
            "SELECT c.session, c.seq, c.ts, c.path, c.pre_oid, c.post_oid, c.pre_blob, c.post_blob, c.via, s.folder,"
            " s.project, e.tool, (SELECT p.text FROM prompts p WHERE p.session = c.session AND p.seq < c.seq"
            "  ORDER BY p.seq DESC LIMIT 1) AS prompt"
            " FROM changes c JOIN sessions s ON s.id = c.session"
            " LEFT JOIN events e ON e.session = c.session AND e.seq = c.seq"
            " WHERE c.path IN (SELECT value FROM json_each(?)) ORDER BY c.ts, c.session, c.seq, c.path",
            [json.dumps(paths)],
        )

    # -- sessions behind commits ----------------------------------------------------------
    def contained_changes(self, commits: Iterable[Commit]) -> list[dict]:
        """``{session, seq, path, op, sha}`` for every recorded change a commit contains."""
        entries = json.dumps([[c.sha, f.path, f.status, f.oid, f.pre_oid] for c in commits for f in c.files])
        select = "SELECT c.session, c.seq, c.path, c.op, f.sha FROM f JOIN changes c ON"
        return self._rows(f"{_ENTRIES} {select} {CONTAINS_WRITE} UNION {select} {CONTAINS_DELETE}", [entries])

    def sessions_by_commit(self, commits: list[Commit]) -> dict[str, set[str]]:
        """Per commit id, the sessions that made it or whose changes it contains."""
        found: dict[str, set[str]] = {}
        made = self._rows(
            "SELECT DISTINCT sha, session FROM commits WHERE sha IN (SELECT value FROM json_each(?))",
            [json.dumps([c.sha for c in commits])],
        )
        for row in [*made, *self.contained_changes(commits)]:
            found.setdefault(row["sha"], set()).add(row["session"])
        return found

    def session_ids(self, commits: list[Commit]) -> set[str]:
        """Sessions that made any of ``commits``, or whose changes they contain."""
        return set().union(*self.sessions_by_commit(commits).values())

    def sessions_by_id(self, ids: set[str]) -> list[SessionSummary]:
        """These sessions, newest first."""
        from auditlog.models import session_from_row

        rows = self._rows(
            "SELECT * FROM sessions WHERE id IN (SELECT value FROM json_each(?)) ORDER BY started DESC",
            [json.dumps(sorted(ids))],
        )
        return [session_from_row(r) for r in rows]

    def sessions_for_commit(self, ref: str, where: str | None = None) -> list[SessionSummary]:
        """The sessions that made commit ``ref`` or whose changes it contains, newest first."""
        return self.sessions_by_id(self.session_ids([self.commit(ref, where)]))

    def sessions_for_branch(self, name: str, where: str | None = None) -> list[SessionSummary]:
        """The sessions behind the commits of branch ``name`` (see :meth:`branch_commits`)."""
        return self.sessions_by_id(self.session_ids(self.branch_commits(name, where)))

    def git_filter_ids(self, commit: str | None, branch: str | None, where: str | None) -> set[str]:
        """Session ids for the ``--commit``/``--branch`` filters (both: sessions in both)."""
        found: set[str] | None = None
        if commit:
            found = self.session_ids([self.commit(commit, where)])
        if branch:
            by_branch = self.session_ids(self.branch_commits(branch, where))
            found = by_branch if found is None else found & by_branch
        return found or set()
