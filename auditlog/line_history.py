"""Which recorded change last wrote each line of a file: the recorded changes replayed
in order, carrying every line's author through each step by content.

Content-addressed, so git's history does not matter: a step starts from the image its
pre-image id names (wherever in the replay that image was made: another branch, before
an amend or a rebase), and a pre-image nobody recorded making (an edit outside any
session) is reached from the latest image by a diff whose new lines are "not recorded".
A file is then mapped onto the nearest images the same way. Pure: images come from a
reader, so the engine neither knows nor cares where blobs live.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

NULL_OID = "0" * 40
MAX_LEAVES = 8  # images other than the latest tried for lines it does not explain (merges)


@dataclass(frozen=True)
class Step:
    """One recorded change to the file (under any of its names)."""

    key: object  # what the caller gets back for lines this step wrote
    pre_oid: str | None
    post_oid: str | None
    pre_blob: str | None
    post_blob: str | None
    authored: bool = True  # False: git made it moving HEAD; its new lines stay "not recorded"


Reader = Callable[[Step, str], "bytes | None"]  # (step, "pre" | "post") -> the image's bytes


def split_lines(data: bytes | None) -> list[str]:
    """Lines as the patches count them (a last line without newline is a line)."""
    if not data:
        return []
    return data.decode("utf-8", "surrogateescape").splitlines()


CHUNK = 64


def _run(old: Sequence[str], new: Sequence[str], limit: int, from_end: bool) -> int:
    """How many lines ``old`` and ``new`` share at the start (or the end), up to ``limit``.
    Compared a chunk of lines at a time as list slices (in C), then line by line only in
    the chunk that differs: most of blame's time on long files is spent here."""
    n_old, n_new = len(old), len(new)
    done = 0
    while done < limit:
        size = min(CHUNK, limit - done)
        if from_end:
            same = old[n_old - done - size : n_old - done] == new[n_new - done - size : n_new - done]
        else:
            same = old[done : done + size] == new[done : done + size]
        if not same:
            break
        done += size
    while done < limit and (old[n_old - 1 - done] == new[n_new - 1 - done] if from_end else old[done] == new[done]):
        done += 1
    return done


def _trim(old: Sequence[str], new: Sequence[str]) -> tuple[int, int]:
    """How many lines both start with, and then end with (edits are local, so the middle
    left for difflib is small)."""
    limit = min(len(old), len(new))
    head = _run(old, new, limit, False)
    return head, _run(old, new, limit - head, True)


def _middle_blocks(old: Sequence[str], new: Sequence[str], head: int, tail: int) -> list[tuple[int, int, int]]:
    """Matching runs (old index, new index, length) inside the middle, by difflib."""
    mid_old, mid_new = old[head : len(old) - tail], new[head : len(new) - tail]
    if not mid_old or not mid_new:
        return []
    import difflib

    matcher = difflib.SequenceMatcher(None, mid_old, mid_new, autojunk=False)
    return [(head + a, head + b, size) for a, b, size in matcher.get_matching_blocks() if size]


def match(old: Sequence[str], new: Sequence[str]) -> list[int | None]:
    """For each line of ``new``, the index of the line of ``old`` it is (``None``: new)."""
    head, tail = _trim(old, new)
    out: list[int | None] = [*range(head), *[None] * (len(new) - head - tail), *range(len(old) - tail, len(old))]
    for a, b, size in _middle_blocks(old, new, head, tail):
        out[b : b + size] = range(a, a + size)
    return out


def carry(old_lines: Sequence[str], old_attr: Sequence[object], new_lines: Sequence[str], fill: object) -> list:
    """``new_lines``' authors: those of the lines they match in the old image, else ``fill``."""
    attr = list(old_attr[: len(old_lines)]) + [fill] * (len(old_lines) - len(old_attr))
    head, tail = _trim(old_lines, new_lines)
    out = attr[:head] + [fill] * (len(new_lines) - head - tail) + attr[len(attr) - tail :]
    for a, b, size in _middle_blocks(old_lines, new_lines, head, tail):
        out[b : b + size] = attr[a : a + size]
    return out


class Replay:
    """The steps replayed: for every post-image id, each line's author (a step key, or
    ``None`` for "not recorded")."""

    def __init__(self, steps: Sequence[Step], read: Reader) -> None:
        self.read = read
        self.authors: dict[str, list] = {}
        self.leaves: list[str] = []  # post-images no later step started from, newest last
        self._lines: dict[str, list[str]] = {}  # images kept as lines: the leaves only
        latest: str | None = None
        for step in steps:
            latest = self._apply(step, latest) or latest

    def _image(self, oid: str, step: Step, side: str) -> list[str]:
        if oid not in self._lines:
            self._lines[oid] = split_lines(self.read(step, side))
        return self._lines[oid]

    def _apply(self, step: Step, latest: str | None) -> str | None:
        if not step.post_oid or step.post_oid == NULL_OID or not step.post_blob:
            return None  # a deletion (or an image not kept): nothing to carry forward
        pre = step.pre_oid if step.pre_oid and step.pre_oid != NULL_OID else None
        if pre is not None and pre in self.authors:
            base_lines, base_authors = self._image(pre, step, "pre"), self.authors[pre]
        elif pre is not None and step.pre_blob:
            # Changed since the recorded images by someone no session recorded.
            base_lines = self._image(pre, step, "pre")
            base_authors = self._from_tips(base_lines)
        elif latest is not None:  # created again, or under a new name (a rename in a shell command)
            base_lines, base_authors = self._lines[latest], self.authors[latest]
        else:
            base_lines, base_authors = [], []
        post_lines = self._image(step.post_oid, step, "post")
        self.authors[step.post_oid] = carry(base_lines, base_authors, post_lines, step.key if step.authored else None)
        self._retire(pre, step.post_oid)
        return step.post_oid

    def _retire(self, pre: str | None, post: str) -> None:
        """Keep the lines of branch tips only (bounded memory on long histories)."""
        if pre in self.leaves and pre != post:
            self.leaves.remove(pre)
            self._lines.pop(pre, None)
        if post in self.leaves:
            self.leaves.remove(post)
        self.leaves.append(post)
        del self.leaves[: -(MAX_LEAVES + 1)]
        for oid in list(self._lines):
            if oid not in self.leaves:
                del self._lines[oid]

    def attribute(self, lines: Sequence[str], oid: str) -> list:
        """The authors of ``lines`` (a file whose blob id is ``oid``): exact when that
        image was recorded; else carried from the latest image, and lines it does not
        explain from the other recent tips (a merge of two sessions' branches); "not
        recorded" for the rest."""
        if oid in self.authors:
            return list(self.authors[oid])
        return self._from_tips(lines)

    def _from_tips(self, lines: Sequence[str]) -> list:
        """Authors carried from the newest tip; lines it does not have (not lines it has
        as "not recorded") are looked for in the older tips, which are only diffed when
        they hold one of those lines at all."""
        out: list = [None] * len(lines)
        unmatched = list(range(len(lines)))
        for tip in reversed(self.leaves):
            tip_lines, authors = self._lines[tip], self.authors[tip]
            if len(unmatched) < len(lines):
                present = set(tip_lines)
                if not any(lines[i] in present for i in unmatched):
                    continue
            mapping = match(tip_lines, lines)
            still = []
            for i in unmatched:
                j = mapping[i]
                if j is None:
                    still.append(i)
                elif j < len(authors):
                    out[i] = authors[j]
            unmatched = still
            if not unmatched:
                break
        return out
