"""Auditing templates in worker processes, several at once, each template in a process of its
own: a worker that dies (killed, out of memory, a crash in native code) fails its template's
audit with the reason, and the others go on."""

from __future__ import annotations

import contextlib
import importlib
import multiprocessing
import shutil
import signal
import sys
import traceback
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

from ..errors import WebEnvError
from ..registration import register_envs
from ..scratch import new_scratch, use_scratch
from ..tasks import TaskTemplate, env_id, register, registered
from ..workers import exit_with_parent, how_it_ended
from .report import RUN, Case, CheckReport, TemplateReport


def _template_class(module: str, qualname: str) -> type[TaskTemplate]:
    """The template class ``module.qualname``, imported in the worker."""
    try:
        found: Any = importlib.import_module(module)
        for part in qualname.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError) as error:
        raise WebEnvError(
            f"a worker cannot import the template class {module}.{qualname} ({error}): define "
            "it at the top level of an importable module, or audit it with --workers 0"
        ) from None
    return found  # type: ignore[no-any-return]


def _worker(
    conn: Connection,
    where: tuple[str, str],
    seeds: Sequence[int],
    profiles: Sequence[str],
    options: Mapping[str, Any],
    say: bool,
    scratch: str,
) -> None:
    """Audit the template of class ``where`` (module, qualified name) and send ``("report",
    TemplateReport)``, or ``("error", text)``."""
    from .audit import validate_template  # the worker's own import of the audit

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    exit_with_parent()
    use_scratch(scratch)
    try:
        cls = _template_class(*where)
        register_envs()  # the built-in templates and the plugins' first: they may hold it
        if cls.name not in registered():  # a template registered in the parent's session only
            register(cls)
            register_envs()
        template = registered()[cls.name]
        progress = (lambda line: print(line, file=sys.stderr, flush=True)) if say else None
        report = validate_template(template, seeds, profiles, progress=progress, **options)
    except WebEnvError as error:
        conn.send(("error", str(error)[:2000]))
    except BaseException as error:  # everything goes back to the parent
        lines = traceback.format_exception_only(type(error), error)
        conn.send(("error", f"the audit raised {''.join(lines).strip()}"[:2000]))
    else:
        conn.send(("report", report))
    finally:
        conn.close()


def _failed(template: TaskTemplate, seeds: Sequence[int], reason: str) -> TemplateReport:
    """The report of a template whose audit ended without one."""
    check = CheckReport(RUN, (Case(False, reason),))
    return TemplateReport(template.name, env_id(template), tuple(seeds), (check,))


class _Running:
    """One worker: its process, the pipe it reports on and its temporary files."""

    def __init__(self, context: Any, template: TaskTemplate, args: tuple[Any, ...]):
        self.template = template
        self.conn, child = context.Pipe(duplex=False)
        self.scratch = new_scratch()
        self.process: BaseProcess = context.Process(
            target=_worker,
            args=(
                child,
                (type(template).__module__, type(template).__qualname__),
                *args,
                self.scratch,
            ),
            daemon=True,
            name=f"webenv-validate-{template.name}",
        )
        self.process.start()
        child.close()

    def result(self, seeds: Sequence[int]) -> TemplateReport:
        """The worker's report once it has ended or sent one (the worker is then reaped)."""
        message: tuple[str, Any] | None = None
        with contextlib.suppress(EOFError, OSError):
            if self.conn.poll():
                message = self.conn.recv()
        self.end()
        if message is not None and message[0] == "report":
            return message[1]
        if message is not None:
            return _failed(self.template, seeds, str(message[1]))
        how = how_it_ended(self.process)
        return _failed(self.template, seeds, f"the worker auditing it died ({how})")

    def end(self) -> None:
        self.process.join(30)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(5)
        self.conn.close()
        shutil.rmtree(self.scratch, ignore_errors=True)


def validate_in_workers(
    templates: Sequence[TaskTemplate],
    seeds: Sequence[int],
    profiles: Sequence[str],
    workers: int,
    *,
    progress: bool = False,
    on_report: Callable[[TemplateReport], None] | None = None,
    **options: Any,
) -> list[TemplateReport]:
    """:func:`~webenv.validate.validate_template` of each of ``templates`` in a fresh
    (``spawn``) process, ``workers`` at once; the reports in the order of ``templates``.
    ``on_report`` is called with each report as it comes, so that a caller interrupted
    (Ctrl-C) keeps those of the audits that had ended.

    A template is sent to its worker by its class's module and name, which the worker imports
    (a template registered only in this session, by a test or a script, is registered there
    again). A worker that ends without a report, or cannot import its template, fails its
    template with a :data:`RUN` check that says why. ``progress``: the workers print their
    lines to standard error.
    """
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    context = multiprocessing.get_context("spawn")
    pending = deque(templates)
    running: list[_Running] = []
    reports: dict[str, TemplateReport] = {}
    args = (tuple(seeds), tuple(profiles), dict(options), progress)
    try:
        while pending or running:
            while pending and len(running) < workers:
                running.append(_Running(context, pending.popleft(), args))
            ready = set(wait([w.conn for w in running] + [w.process.sentinel for w in running]))
            for worker in [w for w in running if {w.conn, w.process.sentinel} & ready]:
                running.remove(worker)
                report = reports[worker.template.name] = worker.result(seeds)
                if on_report is not None:
                    on_report(report)
    finally:
        for worker in running:  # Ctrl-C, or an error of this process
            worker.process.kill()
            worker.end()
    return [reports[template.name] for template in templates]
