"""Error pages in the portal's own style, for every client error a visitor can cause."""

from __future__ import annotations

from flask import Flask, render_template
from werkzeug.exceptions import HTTPException

MESSAGES = {
    400: ("Something went wrong with your request",
          "Your form may have expired. Go back, reload the page and try again."),
    403: ("You cannot see this page", "This page belongs to another account."),
    404: ("Page not found", "If you typed the web address, check it is correct."),
    405: ("Page not found", "This page cannot be used like that."),
    413: ("Your file is too big", "Each file must be smaller than 5 MB. Go back and choose a "
          "smaller file."),
}  # fmt: skip


def register(app: Flask) -> None:
    def render_error(error: HTTPException) -> tuple[str, int]:
        code = error.code or 500
        title, message = MESSAGES.get(code, ("Something went wrong", "Please try again."))
        return render_template("error.html", title=title, message=message), code

    for code in MESSAGES:
        app.register_error_handler(code, render_error)
