"""Error pages in the help centre's own style."""

from __future__ import annotations

from flask import Flask, render_template
from werkzeug.exceptions import HTTPException

MESSAGES = {
    400: ("Something went wrong with your request",
          "The page may have expired. Go back, reload it and try again."),
    404: ("We couldn't find that page", "Search the help centre or browse the topics below."),
    405: ("We couldn't find that page", "This page cannot be used like that."),
    413: ("Your message is too long", "Shorten your message and send it again."),
}  # fmt: skip


def register(app: Flask) -> None:
    def render_error(error: HTTPException) -> tuple[str, int]:
        code = error.code or 500
        title, message = MESSAGES.get(code, ("Something went wrong", "Please try again."))
        return render_template("error.html", title=title, message=message), code

    for code in MESSAGES:
        app.register_error_handler(code, render_error)
