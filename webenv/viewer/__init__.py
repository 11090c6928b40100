"""The replay viewer of evaluation runs and their HTML report.

``webenv view DIR`` serves :func:`create_app` on loopback; ``webenv view DIR --export OUT``
writes the same pages as a static site (:func:`export_site`); :func:`write_report` writes a
run's self-contained ``report.html``. Everything reads the episode record format of
:mod:`webenv.record` and the runner's ``summary.json`` and ``results.jsonl``.
"""

from .app import create_app, serve
from .export import export_site
from .report import write_report

__all__ = ["create_app", "export_site", "serve", "write_report"]
