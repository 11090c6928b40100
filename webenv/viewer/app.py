"""The live viewer: a Flask app over one run folder, for loopback use.

Pages are rendered on each request from the files, so a run still being written shows its
new episodes and steps on reload.
"""

from __future__ import annotations

from pathlib import Path

from flask import Flask, abort, request, send_from_directory
from werkzeug.serving import make_server

from .pages import STATIC, ServerLinks, render_index, render_step
from .report import render_report
from .run import Run


def create_app(run_dir: str | Path) -> Flask:
    """The viewer of the run at ``run_dir`` (``webenv eval --out`` folder, or episode records)."""
    run = Run(run_dir)
    links = ServerLinks()
    app = Flask(__name__, static_folder=str(STATIC), static_url_path="/static")
    app.config["RUN"] = run

    @app.get("/")
    def index() -> str:
        return render_index(run, links)

    @app.get("/episode/<name>")
    def episode(name: str) -> str:
        try:
            record = run.episode(name)
        except KeyError:
            abort(404, f"No episode {name!r} in this run.")
        except (ValueError, OSError) as error:  # unreadable, or from a newer webenv
            abort(422, f"Episode {name!r} cannot be read: {error}")
        step = request.args.get("step", default=0, type=int)
        if not 0 <= step <= len(record["step_records"]):
            abort(404, f"Episode {name!r} has steps 0 to {len(record['step_records'])}.")
        return render_step(run, name, record, step, links)

    @app.get("/episode/<name>/<path:ref>")
    def episode_file(name: str, ref: str):  # type: ignore[no-untyped-def]
        try:
            folder = run.episode_path(name)
        except KeyError:
            abort(404, f"No episode {name!r} in this run.")
        return send_from_directory(folder, ref)  # refuses paths outside the folder

    @app.get("/report.html")
    def report() -> str:
        summary = run.summary()
        if summary is None:
            abort(404, "This run has no summary.json yet: the report comes when the run ends.")
        names = set(run.episode_names())
        return render_report(
            summary,
            run.results(),
            title=f"webenv run: {run.folder.name}",
            replay=lambda name: links.step(name, 0) if name in names else None,
        )

    return app


def serve(run_dir: str | Path, host: str = "127.0.0.1", port: int = 8765) -> None:
    """Serve the viewer of ``run_dir`` until interrupted."""
    server = make_server(host, port, create_app(run_dir), threaded=True)
    print(f"Viewer of {run_dir} at http://{host}:{server.server_port}/  (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()
