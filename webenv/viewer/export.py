"""A static copy of the viewer: plain HTML files, the screenshots and the script.

The export opens from ``file://`` (relative links, a classic script, nothing fetched), so it
can be attached to a CI run or mailed as a folder::

    OUT/index.html                       the episode list
    OUT/episodes/<name>/step-<n>.html    one page per step
    OUT/episodes/<name>/screenshots/     the record's screenshots
    OUT/static/                          viewer.js, webenv.css
    OUT/report.html                      the report, linking to the exported episodes
"""

from __future__ import annotations

import shutil
from pathlib import Path

from ..errors import WebEnvError
from .pages import STATIC, ExportLinks, render_index, render_step
from .report import render_report
from .run import Run


def export_site(run_dir: str | Path, out: str | Path) -> Path:
    """Write the viewer of ``run_dir`` as a static site into ``out``; return its index page."""
    run = Run(run_dir)
    out = Path(out)
    if out.resolve() in (run.folder.resolve(), run.episodes_dir.resolve()):
        raise WebEnvError(f"Export into a new folder (e.g. {out / 'site'}), not the run's own.")
    out.mkdir(parents=True, exist_ok=True)
    shutil.copytree(STATIC, out / "static", dirs_exist_ok=True)
    exported = set()
    for row in run.rows():
        if not row.recorded or row.outcome == "unreadable":
            continue
        exported.add(row.name)
        episode = run.episode(row.name)
        folder = out / "episodes" / row.name
        folder.mkdir(parents=True, exist_ok=True)
        screenshots = run.episode_path(row.name) / "screenshots"
        if screenshots.is_dir():
            shutil.copytree(screenshots, folder / "screenshots", dirs_exist_ok=True)
        links = ExportLinks(depth=2)
        for index in range(len(episode["step_records"]) + 1):
            page = render_step(run, row.name, episode, index, links)
            (folder / f"step-{index}.html").write_text(page, encoding="utf-8")
    summary = run.summary()
    if summary is not None:
        links = ExportLinks(depth=0)
        report = render_report(
            summary,
            run.results(),
            title=f"webenv run: {run.folder.name}",
            replay=lambda name: links.step(name, 0) if name in exported else None,
        )
        (out / "report.html").write_text(report, encoding="utf-8")
    index_page = out / "index.html"
    index_page.write_text(render_index(run, ExportLinks(depth=0)), encoding="utf-8")
    return index_page
