"""``symdp check-tex``: exit codes, bad input in one line, the JSON and the table."""

import json
from pathlib import Path

import pytest

from symdp.cli.main import main

DOC = r"""\documentclass{article}
\usepackage{amsmath}
\newcommand{\eps}{\varepsilon}
% symdp: assume eps >= 0
\begin{document}
\begin{align*}
e^{\eps} &\ge 1 + \eps \\
  &\ge 1
\end{align*}
\end{document}
"""
SLIP = DOC.replace(r"&\ge 1" + "\n", r"&\ge 2" + "\n")


@pytest.fixture
def tex(tmp_path):
    def write(text, name="doc.tex"):
        path = tmp_path / name
        path.write_text(text)
        return path
    return write


def test_a_document_that_holds_exits_0_with_a_table_of_source_lines(tex, capsys):
    assert main(["check-tex", str(tex(DOC)), "--no-certify"]) == 0
    out = capsys.readouterr().out
    lines = [line.split() for line in out.splitlines()]
    assert ["7", "PROVED"] == lines[3][:2] and ["8", "PROVED"] == lines[4][:2]
    assert "2 of 2 display lines read" in out


def test_a_slip_exits_1_and_the_json_points_to_file_and_line(tex, tmp_path, capsys):
    out_json = tmp_path / "out.json"
    assert main(["check-tex", str(tex(SLIP)), "--no-certify", "--json", str(out_json)]) == 1
    data = json.loads(out_json.read_text())
    assert data["schema"].startswith("symdp-check/")
    steps = [s for d in data["derivations"] for s in d["steps"]]
    assert [(Path(s["file"]).name, s["line"], s["verdict"]) for s in steps] == \
        [("doc.tex", 7, "PROVED"), ("doc.tex", 8, "REFUTED")]
    refuted = steps[1]
    assert refuted["counterexample"]["point"] == {"varepsilon": "0"}  # e^0 = 1 < 2
    assert data["tex"]["lines_read"] == data["tex"]["lines"] == 2
    assert data["summary"]["ok"] is False
    assert "REFUTED" in capsys.readouterr().out


def test_an_unread_line_exits_1_and_is_listed_with_its_column(tex, capsys):
    text = DOC.replace(r"&\ge 1" + "\n", r"&\ge \frac{1}{" + "\n")
    assert main(["check-tex", str(tex(text)), "--no-certify"]) == 1
    out = capsys.readouterr().out
    assert "NOT READ" in out and "doc.tex:8:" in out


def test_assume_and_integer_flags(tex, capsys):
    text = "\\[ n^2 \\ge n \\]\n"
    assert main(["check-tex", str(tex(text)), "--no-certify", "--integer", "n",
                 "--assume", "n >= 1"]) == 0
    assert main(["check-tex", str(tex(text)), "--no-certify", "--assume", "0 < n < 1"]) == 1


@pytest.mark.parametrize("args, message", [
    (["missing.tex"], "FILE.tex: cannot read 'missing.tex' (No such file or directory)"),
    (["{doc}", "--assume", "0 <= p <="], "--assume"),
    (["{doc}", "--json", "{doc}"], "--json would replace an input of this run"),
    (["{doc}", "--annotate", "{doc}"], "--annotate would replace an input of this run"),
    (["{doc}", "--annotate", "{dir}/../{dirname}/doc.tex"], "would replace an input of this run"),
    (["{doc}", "--dps", "5"], "--dps"),
])
def test_bad_input_is_one_line_and_exit_2(tex, tmp_path, capsys, args, message):
    doc = tex(DOC)
    args = [a.format(doc=doc, dir=tmp_path, dirname=tmp_path.name) for a in args]
    assert main(["check-tex", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
    assert doc.read_text() == DOC  # the input is never overwritten


def test_a_file_that_is_not_utf8_is_bad_input(tmp_path, capsys):
    path = tmp_path / "latin1.tex"
    path.write_bytes("\\[ \xe9 = 1 \\]".encode("latin-1"))
    assert main(["check-tex", str(path)]) == 2
    assert "UTF-8" in capsys.readouterr().err


def test_the_timeout_default_is_the_checkers(tex, capsys):
    from symdp.cli.check_tex import DEFAULT_TIMEOUT
    from symdp.report import tex_check

    assert DEFAULT_TIMEOUT == tex_check.DEFAULT_TIMEOUT
    assert main(["check-tex", str(tex(DOC)), "--no-certify", "--timeout", "1e-9"]) == 1
    assert "time limit (1e-09 s, --timeout) ran out at line 7" in capsys.readouterr().out


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "1e9"])
def test_a_bad_timeout_is_one_line_and_exit_2(tex, capsys, value):
    assert main(["check-tex", str(tex(DOC)), "--timeout", value]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--timeout" in err


def test_macros_from_a_file_or_the_documents_inputs(tex, tmp_path, capsys):
    text = "\\input{defs}\n\\[ e^{\\E} \\ge 1 + \\E \\]\n"
    macros = tmp_path / "defs.tex"
    macros.write_text("\\newcommand{\\E}{\\varepsilon}\n")
    doc = tex(text)
    assert main(["check-tex", str(doc), "--no-certify"]) == 1  # \E unknown: not read
    capsys.readouterr()
    assert main(["check-tex", str(doc), "--no-certify", "--follow-inputs"]) == 0
    assert "1 macro definition(s) read from defs.tex" in capsys.readouterr().out
    assert main(["check-tex", str(doc), "--no-certify", "--macros", str(macros)]) == 0
    assert main(["check-tex", str(doc), "--macros", str(tmp_path / "none.tex")]) == 2
    assert "--macros" in capsys.readouterr().err
