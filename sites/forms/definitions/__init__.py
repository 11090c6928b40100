"""The portal's forms, by slug, in the order the home page lists them."""

from __future__ import annotations

from ..fields import FormSpec
from . import (
    appointment,
    change_of_address,
    insurance_claim,
    job_application,
    registration,
    travel_expenses,
)

FORMS: dict[str, FormSpec] = {
    form.slug: form
    for form in (
        job_application.FORM,
        insurance_claim.FORM,
        travel_expenses.FORM,
        appointment.FORM,
        change_of_address.FORM,
        registration.FORM,
    )
}
