"""The next free ``case_<n>``: from the pack given and the packs of the folders, safely."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from accountdesk.core.cases.files import next_case_number


def test_the_next_number_is_one_past_every_case_the_folders_hold(tmp_path: Path) -> None:
    assert next_case_number(None, [tmp_path / "none yet"]) == 1
    (tmp_path / "a.toml").write_text('[[users]]\nid = "case_2"\n', encoding="utf-8")
    rows = 'rows = [\n  { transaction_id = "t", description = "id = \\"case_90\\"" },\n]\n'
    (tmp_path / "b.toml").write_text(f'[[users]]\n  id="case_4"\n{rows}', encoding="utf-8")
    (tmp_path / "notes.txt").write_text('id = "case_50"\n', encoding="utf-8")
    assert next_case_number(None, [tmp_path]) == 5  # a description is not an id
    assert next_case_number('[[users]]\nid = "case_7"\n', [tmp_path]) == 8
    # The file about to be replaced (--force) holds no number any more.
    assert next_case_number(None, [tmp_path], replacing=tmp_path / "b.toml") == 3


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_or_a_device_among_the_packs_is_passed_over_not_read(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.toml")  # reading it would wait for a writer forever
    (tmp_path / "zero.toml").symlink_to("/dev/zero")
    (tmp_path / "a.toml").write_text('[[users]]\nid = "case_3"\n', encoding="utf-8")
    assert next_case_number(None, [tmp_path]) == 4
