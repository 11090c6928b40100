"""Small, deterministic attachment contents: PDF documents, CSV sheets, calendar invites."""

from __future__ import annotations

from datetime import datetime, timedelta


def _pdf_escape(text: str) -> str:
    ascii_text = text.encode("ascii", "replace").decode("ascii")
    return ascii_text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def pdf_document(title: str, lines: list[str]) -> bytes:
    """A one-page PDF showing ``title`` and ``lines`` in Helvetica."""
    text = [f"BT /F1 18 Tf 56 760 Td ({_pdf_escape(title)}) Tj ET"]
    for index, line in enumerate(lines):
        text.append(f"BT /F1 11 Tf 56 {728 - 16 * index} Td ({_pdf_escape(line)}) Tj ET")
    stream = "\n".join(text).encode("ascii")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]"
        b" /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
    ]
    output = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(output))
        output += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref_at = len(output)
    output += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    output += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    output += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref_at,
    )
    return bytes(output)


def csv_sheet(header: list[str], rows: list[list[object]]) -> bytes:
    """A CSV file with a header row."""
    lines = [",".join(header)] + [",".join(str(cell) for cell in row) for row in rows]
    return ("\r\n".join(lines) + "\r\n").encode("utf-8")


def calendar_invite(
    summary: str, start: datetime, minutes: int, location: str, organizer: str, uid: str
) -> bytes:
    """An iCalendar invitation to one event."""
    end = start + timedelta(minutes=minutes)
    stamp = "%Y%m%dT%H%M%SZ"
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Lettermail//Calendar//EN",
        "METHOD:REQUEST",
        "BEGIN:VEVENT",
        f"UID:{uid}",
        f"DTSTAMP:{start:{stamp}}",
        f"DTSTART:{start:{stamp}}",
        f"DTEND:{end:{stamp}}",
        f"SUMMARY:{summary}",
        f"LOCATION:{location}",
        f"ORGANIZER:mailto:{organizer}",
        "END:VEVENT",
        "END:VCALENDAR",
    ]
    return ("\r\n".join(lines) + "\r\n").encode("utf-8")


def text_file(lines: list[str]) -> bytes:
    """A plain UTF-8 text file."""
    return ("\n".join(lines) + "\n").encode("utf-8")
