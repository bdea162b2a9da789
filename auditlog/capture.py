"""The capture pipeline: one observation becomes a journal line, Markdown, patches and
index rows. Shared by every agent adapter; standard library only (it runs in the hook).

Order matters for "nothing lost": the journal line is written first and alone decides
what happened; the conversation, the patches' index rows and the SQLite index follow and
can all be rebuilt from it.
"""

from __future__ import annotations

import os
import re

from auditlog import blobs, checkpoints, conversation, file_images, head_watch, journal, paths
from auditlog.digests import sha256_hex
from auditlog.errors_log import report
from auditlog.gitrefs import find_repo, relative_to_root
from auditlog.observation import MISSING, FileEdit, Observation, ShellFileDiff
from auditlog.patches import Patch, make_patch
from auditlog.record import RECORD_VERSION, encode_record, line_hash

PATCHES = "patches"
SHELL_REPORTED_MARK = "shell-diff-reported"
_NAME_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


class PendingChange:
    """A computed patch waiting for its event's sequence number (which names its file),
    with the whole file before and after (kept as blobs: net diffs and "the file as it
    stood after this step" are rebuilt from them)."""

    __slots__ = ("after", "before", "patch", "path", "via_git")

    def __init__(self, path: str, patch: Patch, before: bytes | None, after: bytes | None) -> None:
        self.path = path
        self.patch = patch
        self.before = before
        self.after = after
        self.via_git = False  # git made it, moving HEAD (checkout, rebase, pull …): not the session's work


class Draft:
    """One record waiting for its ``seq`` and ``prev``, which only the session lock can
    give: the fields it will hold, the file changes whose patches it will name, and
    whether it records the repository's state."""

    __slots__ = ("context_wanted", "fields", "from_shell", "pending")

    def __init__(
        self,
        fields: dict,
        pending: list[PendingChange] | None = None,
        context_wanted: bool = False,
        from_shell: bool = False,
    ) -> None:
        self.fields = fields
        self.pending = pending or []
        self.context_wanted = context_wanted
        self.from_shell = from_shell  # its changes were made by a shell command (any agent's)


def observed_fields(obs: Observation, ts: str, payload: object, redactions: int) -> dict:
    """A record's fields from an observation (all but seq, prev and the file changes)."""
    return {
        "v": RECORD_VERSION,
        "ts": ts,
        "agent": obs.agent,
        "session": obs.session_id,
        "event": obs.event,
        "kind": obs.kind,
        "origin": obs.origin,
        "cwd": obs.cwd,
        "tool": obs.tool,
        "tool_use_id": obs.tool_use_id,
        "turn": obs.turn,
        "subagent": obs.subagent,
        "summary": obs.summary,
        "failed": True if obs.failed else None,
        "redactions": redactions or None,
        "payload": payload,
    }


class Capture:
    """Records observations into the store at ``home`` (one instance per hook call)."""

    def __init__(self, home: str, redactor: object | None = None, key: bytes | None = None) -> None:
        self.home = home
        self.redactor = redactor
        self.key = key  # signs checkpoints (auditlog.checkpoints); None: no checkpoints
        self.redactions = 0
        # An index connection kept open by a caller that records many sessions (import):
        # opening and closing one per session would cost more than indexing it.
        self.index = None

    # -- redaction -------------------------------------------------------------------
    def _redact_json(self, value: object) -> object:
        if self.redactor is None:
            return value
        value, count = self.redactor.redact_json(value)
        self.redactions += count
        return value

    def _redact_text(self, text: str) -> tuple[str, int]:
        redacted = self.redactor.redact_text(text)
        self.redactions += redacted[1]
        return redacted

    def _redact_bytes(self, data: bytes | None) -> bytes | None:
        if data is None or self.redactor is None:
            return data
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return data  # binary content is kept as it is (see docs/redaction.md)
        redacted, count = self._redact_text(text)
        return data if count == 0 else redacted.encode("utf-8")

    # -- the pipeline ----------------------------------------------------------------
    def session_folder(self, session_id: str) -> str:
        """The session's folder, created (with the store) when it is not there yet."""
        folder = os.path.join(paths.sessions_root(self.home), paths.session_folder_name(session_id))
        paths.ensure_dir(self.home)
        paths.ensure_dir(paths.sessions_root(self.home))
        paths.ensure_dir(folder)
        return folder

    def prepared_payload(self, value: object, folder: str) -> tuple[object, int]:
        """A payload as records keep it: redacted, long strings moved to blobs; and how
        many secrets were replaced in it."""
        before = self.redactions
        payload = blobs.externalize(self._redact_json(value), folder)
        return payload, self.redactions - before

    def record(self, obs: Observation, received: str) -> dict:
        """Write one observation, after the records the transcript adds to it (Stop and
        the other join events); returns the hook's own record."""
        folder = self.session_folder(obs.session_id)
        repo = find_repo(obs.cwd) if obs.cwd else None
        root = repo.root if repo else obs.cwd
        self._before_event(obs, folder, repo)
        pending = self._after_event(obs, folder, repo, root)
        payload = blobs.externalize(self._redact_json(obs.payload), folder)
        hook = Draft(
            observed_fields(obs, received, payload, self.redactions),
            pending,
            obs.context_wanted,
            from_shell=obs.diff_tree or obs.shell_diffs is not None,
        )
        with journal.SessionLock(folder):
            joined = self._join(obs, folder, received) if obs.transcripts else None
            before = list(joined.drafts) if joined else []
            move = self._look_at_head(obs, folder, repo, pending) if repo is not None else None
            after = self._move_drafts(obs, move, received) if move is not None else []
            written = self.append(folder, [*before, hook, *after], repo)
            if joined is not None:
                joined.done()
            self._checkpoint(folder, written, received)
            self.after_journal(folder, written)  # under the lock: conversation.md stays in journal order
        return written[len(before)][2]

    def _checkpoint(self, folder: str, written: list[tuple[int, bytes, dict]], received: str) -> None:
        """Sign a checkpoint when one of the records just written is due one."""
        if self.key is None:
            return
        for _offset, line, record, _texts in written:
            if checkpoints.due(record["seq"], record["kind"]):
                checkpoints.write(
                    self.home,
                    self.key,
                    os.path.basename(folder),
                    record["session"],
                    record["seq"],
                    line_hash(line),
                    received,
                )

    def _look_at_head(
        self, obs: Observation, folder: str, repo: object, pending: list[PendingChange]
    ) -> head_watch.Move | None:
        """Whether HEAD moved since this session last looked (under the session lock, so
        two parallel hooks never record one move twice); if it did during a shell
        command, the file changes git made with it are marked as git's, not the session's."""
        try:
            move = head_watch.check(folder, self.home, repo, obs.event, obs.kind, obs.tool, obs.tool_use_id)
            if move is not None and pending and not obs.file_edits:
                found = [(p.path, p.patch.pre_oid, p.patch.post_oid) for p in pending]
                brought = head_watch.brought_by_git(move, self.home, repo, found)
                for item in pending:
                    item.via_git = item.path in brought
            return move
        except Exception as exc:  # never lose the event over this
            report(self.home, "git", f"{type(exc).__name__}: {exc}")
            return None

    def _move_drafts(self, obs: Observation, move: head_watch.Move, received: str) -> list[Draft]:
        """The move's records (new commits, or HEAD moving), after the event that noticed it."""
        drafts = []
        for partial in move.records:
            before = self.redactions
            payload = self._redact_json(partial["payload"])
            fields = {
                "v": RECORD_VERSION,
                "ts": received,
                "agent": obs.agent,
                "session": obs.session_id,
                "event": partial["event"],
                "kind": partial["kind"],
                "cwd": obs.cwd,
                "summary": partial["summary"],
                "context": partial["context"],
                "redactions": (self.redactions - before) or None,
                "payload": payload,
            }
            drafts.append(Draft(fields))
        return drafts

    def history_draft(self, obs: Observation, ts: str, folder: str, root: str | None) -> Draft:
        """A past event (``import``, ``backfill``) as a draft. Its files' images come from
        what the transcript says (``originalFile`` and the edit), never from the disk,
        which holds what the files became since."""
        pending: list[PendingChange] = []
        for edit in obs.file_edits:
            if edit.after is MISSING:
                if edit.after_fallback is MISSING:
                    continue
                edit.after = self._redact_bytes(edit.after_fallback)
            pending += self._edit_change(edit, {}, root, obs.cwd)
        payload, redactions = self.prepared_payload(obs.payload, folder)
        return Draft(observed_fields(obs, ts, payload, redactions), pending)

    def _join(self, obs: Observation, folder: str, received: str):
        """The transcript's new lines as drafts; any failure is reported and costs the
        hook's own record nothing."""
        try:
            from auditlog import transcript_join

            return transcript_join.join(self, obs, folder, received)
        except Exception as exc:
            report(self.home, "transcript", f"{type(exc).__name__}: {exc} (the hook's record is kept)")
            return None

    def append(self, folder: str, drafts: list[Draft], repo: object | None = None) -> list[tuple]:
        """Append drafts in order as consecutive, chained records (the caller holds the
        session lock); returns ``(offset, line, record, patch_texts)`` for each."""
        written = []
        fd, tail = journal.open_for_append(folder)
        try:
            seq, prev, offset = tail.last_seq + 1, tail.prev, tail.size
            for draft in drafts:
                changes, patch_texts = self._write_patches(folder, seq, draft, draft.pending)
                record = dict(draft.fields, seq=seq, prev=prev)
                record.update(
                    files=[c["path"] for c in changes],
                    patches=[c["patch"] for c in changes],
                    changes=changes,
                    summary=self._redacted_summary(draft, changes),
                )
                if repo is not None and (draft.context_wanted or seq == 1):
                    record["context"] = repo.as_context()
                line = encode_record(record)
                journal.append_line(fd, line)
                written.append((offset, line, record, patch_texts))
                seq, prev, offset = seq + 1, line_hash(line), offset + len(line) + 1
        finally:
            os.close(fd)
        return written

    def after_journal(self, folder: str, written: list[tuple]) -> None:
        """Everything rebuildable from the journal: a failure here is reported, not fatal."""
        if not written:
            return
        try:
            conversation.append_many(folder, [(record, texts) for _o, _l, record, texts in written])
        except Exception as exc:
            report(self.home, "conversation", f"{type(exc).__name__}: {exc}")
        try:
            from auditlog import index_schema, indexer

            conn = self.index or index_schema.connect(self.home)
            try:
                batch = [(offset, line, record) for offset, line, record, _t in written]
                indexer.catch_up(conn, folder, written[0][2]["session"], batch)
            finally:
                if conn is not self.index:
                    conn.close()
        except Exception as exc:
            report(self.home, "index", f"{type(exc).__name__}: {exc} (it catches up on the next event)")

    # -- file changes ----------------------------------------------------------------
    def _before_event(self, obs: Observation, folder: str, repo: object) -> None:
        if not obs.state_key:
            return
        if obs.snapshot_paths:
            file_images.keep_pre_images(folder, obs.state_key, obs.snapshot_paths, self._redact_bytes)
        if obs.snapshot_tree and repo is not None:
            if os.path.exists(os.path.join(folder, file_images.STATE, SHELL_REPORTED_MARK)):
                return  # this agent reports what shell commands change: no snapshot needed
            from auditlog import tree_snapshot

            objects = self._snapshot_objects(folder, obs.state_key)
            tree = tree_snapshot.snapshot(repo, objects)
            file_images.save_state(folder, "tree", obs.state_key, {"tree": tree, "root": repo.root})

    def _after_event(self, obs: Observation, folder: str, repo: object, root: str | None) -> list[PendingChange]:
        if not obs.state_key or obs.kind not in ("tool_result", "tool_error"):
            return []
        pending: list[PendingChange] = []
        pre_images = file_images.load_pre_images(folder, obs.state_key)
        for edit in obs.file_edits:
            pending += self._edit_change(edit, pre_images, root, obs.cwd)
        tree_state = file_images.take_state(folder, "tree", obs.state_key)
        objects = self._snapshot_objects(folder, obs.state_key)
        if obs.shell_diffs is not None:
            self._mark_shell_reported(folder)
        try:
            if obs.diff_tree and tree_state and repo is not None:
                pending += self._tree_changes(repo, tree_state["tree"], objects)
            elif obs.shell_diffs:
                for diff in obs.shell_diffs:
                    pending += self._shell_change(diff, root, obs.cwd)
        finally:
            if tree_state:
                from auditlog import tree_snapshot

                tree_snapshot.discard(objects)
        return pending

    @staticmethod
    def _snapshot_objects(folder: str, key: str) -> str:
        return os.path.join(folder, file_images.STATE, f"objects-{key}")

    def _mark_shell_reported(self, folder: str) -> None:
        mark = os.path.join(folder, file_images.STATE, SHELL_REPORTED_MARK)
        if not os.path.exists(mark):
            paths.ensure_dir(os.path.dirname(mark))
            paths.write_private_file(mark, b"")

    def _edit_change(self, edit: FileEdit, pre_images: dict, root: str | None, cwd: str | None) -> list[PendingChange]:
        before, old_mode = edit.before, "100644"
        if edit.path in pre_images:
            before, old_mode = pre_images[edit.path]  # the snapshot is the exact bytes
        else:
            before = self._redact_bytes(before) if before is not MISSING else MISSING
        after, new_mode = edit.after, old_mode
        if after is MISSING and file_images.on_this_machine(edit.path):
            after, new_mode = file_images.read_disk(edit.path)
            after = self._redact_bytes(after)
        if after is MISSING:
            after = self._redact_bytes(edit.after_fallback) if edit.after_fallback is not MISSING else MISSING
        if before is MISSING or after is MISSING:
            return []  # not enough to make a patch: the event is still recorded
        rel = relative_to_root(edit.path, root, cwd)
        patch = make_patch(rel, before, after, old_mode=old_mode, new_mode=new_mode if after is not None else old_mode)
        return [PendingChange(rel, patch, before, after)] if patch else []

    def _shell_change(self, diff: ShellFileDiff, root: str | None, cwd: str | None) -> list[PendingChange]:
        rel = relative_to_root(diff.path, root, cwd)
        after, mode = (None, "100644") if diff.deleted else file_images.read_disk(diff.path)
        after = self._redact_bytes(after)
        if diff.created:
            before = None
        elif after is None:
            removed = [
                ln[1:] for h in diff.hunks if isinstance(h, dict) for ln in h.get("lines") or [] if ln[:1] in "- "
            ]
            before = ("\n".join(removed) + "\n").encode() if removed else b""
        else:
            text = file_images.reverse_hunks(after.decode("utf-8", "surrogateescape"), diff.hunks)
            if text is None:
                report(self.home, "patch", f"{rel}: the reported shell diff no longer matches the file; not patched")
                return []
            before = text.encode("utf-8", "surrogateescape")
        patch = make_patch(rel, before, after, old_mode=mode, new_mode=mode)
        return [PendingChange(rel, patch, before, after)] if patch else []

    def _tree_changes(self, repo: object, tree_before: str, objects: str) -> list[PendingChange]:
        from auditlog import tree_snapshot

        tree_after = tree_snapshot.snapshot(repo, objects)
        pending = []
        for change in tree_snapshot.diff(repo, objects, tree_before, tree_after):
            before, after = self._redact_bytes(change.before), self._redact_bytes(change.after)
            patch = make_patch(change.path, before, after, old_mode=change.old_mode, new_mode=change.new_mode)
            if patch:
                pending.append(PendingChange(change.path, patch, before, after))
        return pending

    def _write_patches(
        self, folder: str, seq: int, draft: Draft, pending: list[PendingChange]
    ) -> tuple[list[dict], dict[str, str]]:
        changes, texts = [], {}
        used: set[str] = set()
        for item in pending:
            tool_part = _NAME_UNSAFE.sub("_", draft.fields.get("tool") or draft.fields["event"])
            name_part = _NAME_UNSAFE.sub("_", item.path.rsplit("/", 1)[-1])[:60]
            stem = f"{seq:04d}-{tool_part}-{name_part}"
            name, n = f"{stem}.patch", 2
            while name in used:
                name, n = f"{stem}-{n}.patch", n + 1
            used.add(name)
            rel = f"{PATCHES}/{name}"
            data = item.patch.text.encode("utf-8", "surrogateescape")
            paths.ensure_dir(os.path.join(folder, PATCHES))
            paths.write_private_file(os.path.join(folder, rel), data)
            change = {
                "path": item.path,
                "op": item.patch.op,
                "added": item.patch.added,
                "removed": item.patch.removed,
                "patch": rel,
                "patch_sha256": sha256_hex(data),
                "pre_blob": blobs.put_blob(folder, item.before) if item.before is not None else None,
                "post_blob": blobs.put_blob(folder, item.after) if item.after is not None else None,
                "pre_oid": item.patch.pre_oid,
                "post_oid": item.patch.post_oid,
            }
            if item.patch.binary:
                change["binary"] = True
            if item.via_git:
                change["via"] = "git"
            changes.append(change)
            texts[rel] = item.patch.text
        return changes, texts

    def _redacted_summary(self, draft: Draft, changes: list[dict]) -> str:
        """The summary is built from the raw payload (a prompt's first line, a command),
        so it is redacted like the payload."""
        summary = self._summary(draft, changes)
        return self._redact_text(summary)[0] if self.redactor is not None else summary

    @staticmethod
    def _summary(draft: Draft, changes: list[dict]) -> str:
        summary = draft.fields.get("summary") or ""
        if not changes:
            return summary
        added = sum(c["added"] for c in changes)
        removed = sum(c["removed"] for c in changes)
        if draft.from_shell or draft.fields.get("tool") in ("Bash", "PowerShell") or len(changes) > 1:
            # a shell command's changes: name the files
            names = ", ".join(c["path"] for c in changes[:3]) + (
                f" and {len(changes) - 3} more" if len(changes) > 3 else ""
            )
            return f"{summary} → {names} (+{added} −{removed})"
        return f"{summary} (+{added} −{removed})"
