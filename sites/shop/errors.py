"""Styled error pages: a lost visitor still sees the store's header and a way back."""

from __future__ import annotations

from flask import Flask, render_template
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

MESSAGES = {
    400: "We couldn't process that request. Please go back and try again.",
    403: "You don't have access to this page.",
    404: "We couldn't find the page you were looking for.",
    405: "That action isn't available on this page.",
}


def render_error(error: HTTPException) -> tuple[str, int]:
    code = error.code or 500
    if isinstance(error, CSRFError):
        message = "Your session expired or the form was out of date. Please try again."
    else:
        message = MESSAGES.get(code, error.description or "Something went wrong.")
    return render_template("error.html", code=code, title=error.name, message=message), code


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, render_error)
