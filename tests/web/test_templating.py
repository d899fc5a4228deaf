"""Bot-chosen text never reaches a page as HTML."""

from arena.web.templating import environment


def test_text_is_escaped_in_every_template() -> None:
    page = environment().from_string("<td>{{ name }}</td>").render(name="<script>alert(1)</script>")
    assert page == "<td>&lt;script&gt;alert(1)&lt;/script&gt;</td>"


def test_a_missing_value_is_an_error_not_an_empty_cell() -> None:
    import jinja2
    import pytest

    with pytest.raises(jinja2.UndefinedError):
        environment().from_string("{{ nothing.here }}").render()
