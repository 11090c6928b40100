"""The portal's pages, sign-in, error markup, CSRF and the e-mail a submission sends."""

from __future__ import annotations

import re

from bs4 import BeautifulSoup
from webenv.sites.forms import create_app
from webenv.sites.forms.definitions import FORMS


def test_the_home_page_lists_every_form_with_a_start_link(client):
    soup = BeautifulSoup(client.get("/").text, "html.parser")
    starts = [a for a in soup.find_all("a") if a.get_text().startswith("Start")]
    assert [a["href"] for a in starts] == [f"/f/{slug}" for slug in FORMS]
    assert all(soup.find(string=f"About {form.minutes} minutes") for form in FORMS.values())


def test_sign_in_rejects_a_wrong_password_and_accepts_the_persona(client, persona, helpers):
    wrong = client.post("/login", data={"username": persona.username, "password": "nope"})
    assert wrong.status_code == 422
    assert helpers.errors_of(wrong) == ["Incorrect username or password"]
    right = client.post(
        "/login?next=//evil.example",
        data={"username": persona.username, "password": persona.password},
    )
    assert right.location == "/account"
    assert client.post("/logout").status_code == 302
    assert client.get("/account").status_code == 302


def test_errors_are_tied_to_their_fields_and_the_summary_links_to_them(signed_in):
    response = signed_in.post("/f/insurance-claim/incident", data={"incident_time": "noon"})
    soup = BeautifulSoup(response.text, "html.parser")
    assert soup.title.get_text().startswith("Error: ")
    links = soup.select(".error-summary a")
    assert len(links) == 6
    for link in links:
        target = soup.find(id=link["href"][1:])
        assert target is not None and target.name in {"input", "select", "textarea"}
        assert target.get("aria-invalid") == "true"
        error_id = link["href"][1:] + "-error"
        group = target.find_parent("fieldset")
        described = f"{target.get('aria-describedby', '')} {group and group['aria-describedby']}"
        assert error_id in described.split()
        assert link.get_text() in soup.find(id=error_id).get_text()


def test_every_control_of_every_step_has_a_label(signed_in):
    for form in FORMS.values():
        for step in form.steps:
            soup = BeautifulSoup(signed_in.get(f"/f/{form.slug}/{step.slug}").text, "html.parser")
            for control in soup.select(
                "form.step-form input, form.step-form select, form.step-form textarea"
            ):
                if control.get("type") == "hidden":
                    continue
                assert soup.find("label", attrs={"for": control["id"]}), (form.slug, control)


def test_posts_without_a_csrf_token_are_refused(db_path):
    app = create_app({"DATABASE": str(db_path), "SECRET_KEY": "s", "NOW": "2026-05-14T09:30:00"})
    client = app.test_client()
    assert client.post("/f/job-application/position", data={"opening": "x"}).status_code == 400
    page = client.get("/f/job-application/position").text
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    saved = client.post("/f/job-application/position", data={"csrf_token": token, "action": "save"})
    assert saved.status_code == 302


def test_a_submission_emails_its_confirmation_number(db_path, helpers):
    from webenv.sites.common import Message

    sent: list[Message] = []
    app = create_app(
        {
            "DATABASE": str(db_path),
            "SECRET_KEY": "s",
            "NOW": "2026-05-14T09:30:00",
            "WTF_CSRF_ENABLED": False,
            "SEND_MAIL": sent.append,
        }
    )
    client = app.test_client()
    client.post(
        "/f/register/account",
        data={
            "username": "neo.one",
            "email": "neo@example.org",
            "password": "Matrix-1999",
            "password_confirm": "Matrix-1999",
        },
    )
    client.post(
        "/f/register/about-you",
        data={
            "first_name": "Neo",
            "last_name": "One",
            "phone": "5555550100",
            "date_of_birth": "1980-01-01",
        },
    )
    client.post("/f/register/terms", data={"accept_terms": "yes"})
    confirmation = client.post("/f/register/review").location.rsplit("/", 1)[-1]
    assert [(m.to, confirmation in m.body, confirmation in m.subject) for m in sent] == [
        ("neo@example.org", True, True)
    ]


def test_unknown_pages_and_forms_are_404_in_the_site_style(client):
    for url in ("/nope", "/f/nope", "/f/job-application/nope", "/f/nope/review"):
        response = client.get(url)
        assert response.status_code == 404 and "Page not found" in response.text
