"""MkDocs hook: the screenshots in ``screenshots/`` become part of the site.

``accountdesk screenshots screenshots/`` writes them at the top of the
checkout, where the README shows them; the site takes the same files (no
second copy to go stale), so pages link ``../screenshots/NAME.svg`` and
``mkdocs build --strict`` checks every such link.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[1]


def on_files(files: Files, config: Any) -> Files:
    for picture in sorted((ROOT / "screenshots").glob("*.svg")):
        files.append(
            File(
                f"screenshots/{picture.name}",
                src_dir=str(ROOT),
                dest_dir=config["site_dir"],
                use_directory_urls=config["use_directory_urls"],
            )
        )
    return files
