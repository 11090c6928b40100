"""Whatever is posted to any form route, the portal answers without a server error and
keeps every answer it was given."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from webenv.sites.forms.definitions import FORMS
from webenv.sites.forms.values import MAX_RAW_LENGTH
from webenv.sites.forms.wizard import input_name

STEPS = [(form.slug, step) for form in FORMS.values() for step in form.steps]
FUZZ = settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
values = st.one_of(
    texts,
    texts,
    st.sampled_from(
        [
            "",
            " ",
            "0",
            "-1",
            "1e9",
            "2026-02-30",
            "12/31/1999",
            "25:61",
            "$1,00.0",
            "yes",
            "<script>alert(1)</script>",
            "' OR 1=1 --",
            "😀" * 50,
            "\x00",
        ]
    ),
    st.integers(min_value=MAX_RAW_LENGTH - 5, max_value=MAX_RAW_LENGTH + 5).map(lambda n: "é" * n),
)
actions = st.one_of(
    st.sampled_from(
        [
            "continue",
            "save",
            "add-row",
            "remove-row:0",
            "remove-row:99",
            "remove-file:1",
            "remove-row:x",
            "",
        ]
    ),
    st.text(max_size=12),
)


#: Answers that make each conditional step apply: (step to post them to, answers).
CONDITIONS = {
    "vehicle": ("incident", {"claim_type": "vehicle"}),
    "property": ("incident", {"claim_type": "property"}),
    "household": ("who-is-moving", {"who_moves": "household"}),
}


def step_names(step) -> list[str]:
    names = [spec.name for spec in step.fields if spec.kind != "file"]
    if step.group:
        names.append(f"{step.group.name}-rows")
        names += [
            input_name(spec, row, step.group.name) for row in range(2) for spec in step.group.fields
        ]
    return names


@pytest.mark.parametrize(("slug", "step"), STEPS, ids=[f"{s}/{step.slug}" for s, step in STEPS])
@FUZZ
@given(data=st.data())
def test_any_post_to_a_step_is_answered_and_its_answers_kept(signed_in, query, slug, step, data):
    if step.slug in CONDITIONS:
        earlier, answers = CONDITIONS[step.slug]
        signed_in.post(f"/f/{slug}/{earlier}", data={**answers, "action": "save"})
    names = step_names(step)
    posted = data.draw(st.fixed_dictionaries({}, optional={name: values for name in names}))
    posted["action"] = data.draw(actions)
    response = signed_in.post(f"/f/{slug}/{step.slug}", data=posted)
    assert response.status_code in {200, 302, 422}, response.status_code

    with signed_in.session_transaction() as session:
        draft_id = session["drafts"][slug]
    answers = json.loads(query("SELECT data_json FROM drafts WHERE id = ?", draft_id)[0][0])
    for spec in step.fields:
        if spec.kind != "file":
            assert answers[spec.name] == posted.get(spec.name, "")[:MAX_RAW_LENGTH]
    if response.status_code != 302:
        page = signed_in.get(f"/f/{slug}/{step.slug}")
        assert page.status_code == 200


@FUZZ
@given(code=values, username=values, password=values, slug=st.sampled_from(sorted(FORMS)))
def test_sign_in_resume_and_review_never_fail(client, code, username, password, slug):
    assert client.post("/resume", data={"code": code}).status_code in {302, 422}
    assert (
        client.post("/login", data={"username": username, "password": password}).status_code == 422
    )
    assert client.post(f"/f/{slug}/review", data={"x": code}).status_code in {302}
    assert (
        client.get(f"/f/{slug}/confirmation/{code.replace('/', '')[:50] or 'x'}").status_code == 404
    )
