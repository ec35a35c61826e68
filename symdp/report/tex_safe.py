r"""The annotated copy of ``symdp check-tex --annotate`` compiles only what the reader read.

A LaTeX document given to ``check-tex`` is untrusted input, and its annotated copy is meant
to be compiled.  TeX can read and write files (``\input``, ``\openout``, ``\write``, the
``filecontents`` environment), run commands (``\write18``, ``\ShellEscape``), change how it
reads the rest (``\catcode``, ``\csname``) and reach all of these through names a reader
would not expect (``\@input``, ``\@@input``, ``^^5cinput`` -- TeX's notation for a
character by its code).  A list of what to refuse is never complete, so
:func:`neutralise` is **deny by default**: the copy keeps

* control words of :data:`ALLOWED_COMMANDS` (mathematics, document structure, text
  formatting, definitions, the marks of the copy); every other control word ``\name`` is
  renamed ``\symdpUname`` (an ``@`` in it becomes ``AT``), consistently, so a macro the
  document defines (``\newcommand{\E}{...}``) is defined and used under its new name, and a
  name it does not define (``\input``, ``\@@input``, ``\immediate``) gets a harmless
  definition that prints it, e.g. ``[\input]`` (:func:`fallback_definitions`);
* environments of :data:`ALLOWED_ENVIRONMENTS`; others are renamed the same way (a theorem
  environment of the document keeps working, ``filecontents`` writes nothing);
* packages of :data:`ALLOWED_PACKAGES` and classes of :data:`ALLOWED_CLASSES` (with options
  made of letters, digits and ``=.,-`` only); others are left out;
* control symbols of :data:`ALLOWED_SYMBOLS`; every ``^^`` is broken (``^{}^``) and control
  characters (TeX's ``^^K`` is a second superscript character) become spaces.

With TeX's standard category codes, which no kept token can change, this is how TeX splits
the text into tokens, so no other primitive or command can be reached -- comments included
(they are filtered too, which costs nothing).  pdflatex should still be run without shell
escape: two independent guards.
"""

from __future__ import annotations

import re

from .safe_latex import ALLOWED_COMMANDS as _FORMULA_COMMANDS

__all__ = ["ALLOWED_COMMANDS", "ALLOWED_ENVIRONMENTS", "ALLOWED_PACKAGES", "ALLOWED_CLASSES",
           "ALLOWED_SYMBOLS", "RENAMED", "neutralise", "fallback_definitions", "finish"]

#: the prefix of a renamed control word or environment
RENAMED = "symdpU"

_MATH = """mathbb mathcal mathfrak mathscr mathrm mathbf mathit mathsf mathtt boldsymbol bm pmb
operatorname mathop mathbin mathrel mathord mathopen mathclose overbrace underbrace
overrightarrow overleftarrow xrightarrow xleftarrow widehat widetilde boxed smash phantom
hphantom vphantom genfrac cfrac dfrac tfrac binom dbinom tbinom choose atop over sideset
lbrack rbrack lvert rvert lVert rVert varepsilon epsilon varphi vartheta varrho varsigma
varpi varkappa ell dotsc dotsb dotsm dotsi dots ldots cdots vdots ddots leqslant geqslant
nleq ngeq neq ne lesssim gtrsim approx coloneqq eqqcolon triangleq not mid nmid ast
bigl bigr Bigl Bigr biggl biggr Biggl Biggr big Big bigg Bigg middle left right limits
nolimits displaystyle textstyle scriptstyle scriptscriptstyle ensuremath mathstrut
substack stackrel overset underset tag notag nonumber intertext shortintertext
numberwithin allowdisplaybreaks eqref raisebox eqno leqno"""
_TEXT = """documentclass usepackage begin end section subsection subsubsection paragraph
subparagraph chapter part appendix title author date maketitle thanks and today
tableofcontents label ref pageref cite citep citet citealp citeauthor citeyear nocite
footnote footnotemark footnotetext emph textbf textit textsc textsf texttt textup textmd
textrm textnormal textsl text mbox hbox underline item caption centering raggedright
raggedleft noindent indent par newline linebreak nolinebreak pagebreak nopagebreak newpage
clearpage quad qquad enspace thinspace hspace vspace medskip smallskip bigskip hfill vfill
hrule vrule rule tiny scriptsize footnotesize small normalsize large Large LARGE huge Huge
bfseries itshape slshape scshape upshape mdseries rmfamily sffamily ttfamily normalfont em
textcolor color colorbox fbox framebox makebox parbox url LaTeX TeX ldots dots
textbackslash textless textgreater textasciitilde textasciicircum textquotedblleft
textquotedblright textendash textemdash copyright ss ae oe aa o l i j
hline cline multicolumn multirow toprule midrule bottomrule arraystretch tabcolsep
bibitem newblock qed qedhere proofname theoremstyle newtheorem newcommand renewcommand
providecommand newenvironment renewenvironment DeclareMathOperator def let gdef relax
setlength addtolength setcounter stepcounter addtocounter refstepcounter value arabic roman
Roman alph Alph theequation thefootnote the rlap llap clap surd sim times"""
_SYMDP = """symdpholds symdpevidence symdprefuted symdpunread symdpnoted symdpmark
symdpdenied"""

#: control words kept in the annotated copy (``\name`` without the backslash)
ALLOWED_COMMANDS = frozenset(_FORMULA_COMMANDS | set((_MATH + " " + _TEXT + " " + _SYMDP).split()))
#: environments kept (others are renamed, and a renamed one the document does not define
#: prints its name)
ALLOWED_ENVIRONMENTS = frozenset("""document align align* equation equation* gather gather*
multline multline* flalign flalign* eqnarray eqnarray* alignat alignat* split aligned gathered
alignedat cases dcases rcases matrix pmatrix bmatrix Bmatrix vmatrix Vmatrix smallmatrix array
subequations itemize enumerate description center flushleft flushright quote quotation
abstract proof tabular tabular* table table* figure figure* minipage thebibliography
displaymath math""".split())
#: packages loaded by the copy when the document loads them (others are left out)
ALLOWED_PACKAGES = frozenset("""amsmath amssymb amsthm amsfonts mathtools bm xcolor color
graphicx hyperref url geometry enumitem booktabs array mathrsfs dsfont bbm bbold nicefrac xfrac
microtype lmodern fontenc inputenc babel natbib cleveref thmtools float caption subcaption
algorithm algorithmic algpseudocode textcomp times mathptmx upgreek stmaryrd latexsym
fullpage setspace authblk fancyhdr multirow xspace esint cancel braket""".split())
#: document classes kept (others become ``article``)
ALLOWED_CLASSES = frozenset("article amsart report book amsbook scrartcl scrreprt scrbook".split())
#: control symbols kept: ``\\`` ``\,`` ``\{`` ... (any other ``\c`` is renamed)
ALLOWED_SYMBOLS = frozenset(",;:! \n\t\\{}|_%&#$'`\"^~=.-/()[]<>")

_WORD = re.compile(r"[A-Za-z@]+")
_OPTIONS = re.compile(r"[A-Za-z0-9=.,\s-]*")
_NAME = re.compile(r"[A-Za-z0-9-]+")
_MAX_ARGUMENT = 1000


def _renamed(name: str) -> str:
    """The control word or environment name a denied ``name`` becomes (letters only)."""
    return RENAMED + "".join(c if c.isascii() and c.isalpha() else
                             "AT" if c == "@" else "STAR" if c == "*" else "X" for c in name)


def _braced(text: str, i: int) -> int | None:
    """The index after the balanced ``{...}`` at ``text[i]`` (at most :data:`_MAX_ARGUMENT`
    characters, no comment inside), or None."""
    if text[i:i + 1] != "{":
        return None
    depth, j = 0, i
    while j < len(text) and j - i <= _MAX_ARGUMENT:
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == "%":
            return None
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return None


def _bracketed(text: str, i: int) -> int | None:
    """The index after ``[...]`` at ``text[i]`` (no brace, backslash or comment inside)."""
    if text[i:i + 1] != "[":
        return None
    close = text.find("]", i, i + _MAX_ARGUMENT)
    if close < 0 or any(c in text[i:close] for c in "{}\\%"):
        return None
    return close + 1


def _skip_spaces(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t\n":
        i += 1
    return i


class _Neutraliser:
    """One pass of :func:`neutralise` (see the module docstring)."""

    def __init__(self, text: str, extra_commands=frozenset()):
        self.text = text
        self.allowed = ALLOWED_COMMANDS | frozenset(extra_commands)
        self.out: list[str] = []
        self.commands: set[str] = set()       # denied control words (original names)
        self.environments: set[str] = set()   # denied environments (original names)

    def run(self) -> str:
        text, i = self.text, 0
        while i < len(text):
            j = text.find("\\", i)
            if j < 0:
                self.out.append(text[i:])
                break
            self.out.append(text[i:j])
            i = self.control(j)
        return "".join(self.out)

    def control(self, i: int) -> int:
        """Emit what replaces the control sequence at ``text[i]`` (a backslash); return the
        index after what was consumed."""
        text = self.text
        word = _WORD.match(text, i + 1)
        if word is None:
            if i + 1 >= len(text):
                return i + 1                          # a lone backslash at the end: dropped
            c = text[i + 1]
            if c in ALLOWED_SYMBOLS:
                self.out.append(text[i:i + 2])
            else:
                self.commands.add(c)
                self.out.append("\\" + RENAMED + "symbol{}")
            return i + 2
        name = word.group(0)
        if name not in self.allowed or "@" in name:
            self.commands.add(name)
            self.out.append("\\" + _renamed(name) + (" " if text[word.end():word.end() + 1]
                                                      .isalpha() else ""))
            return word.end()
        special = {"begin": self.environment, "end": self.environment,
                   "usepackage": self.package, "documentclass": self.document_class,
                   "newtheorem": self.theorem, "newenvironment": self.new_environment,
                   "renewenvironment": self.new_environment}.get(name)
        if special is not None:
            done = special(name, word.end())
            if done is not None:
                return done
            self.commands.add(name)                  # its argument could not be read
            self.out.append("\\" + _renamed(name) + " ")
            return word.end()
        self.out.append(text[i:word.end()])
        return word.end()

    def _environment_name(self, name: str) -> str:
        if name in ALLOWED_ENVIRONMENTS:
            return name
        self.environments.add(name)
        return _renamed(name)

    def environment(self, command: str, at: int) -> int | None:
        j = _skip_spaces(self.text, at)
        end = _braced(self.text, j)
        if end is None:
            return None
        self.out.append(f"\\{command}{{{self._environment_name(self.text[j + 1:end - 1])}}}")
        return end

    def new_environment(self, command: str, at: int) -> int | None:
        j = _skip_spaces(self.text, at)
        star = self.text[j:j + 1] == "*"
        j = _skip_spaces(self.text, j + star)
        end = _braced(self.text, j)
        if end is None:
            return None
        self.out.append(f"\\{command}{'*' if star else ''}"
                        f"{{{self._environment_name(self.text[j + 1:end - 1].strip())}}}")
        return end

    def theorem(self, command: str, at: int) -> int | None:
        """``\\newtheorem{name}[counter]{Title}``: the name renamed like an environment, and a
        shared counter that names a renamed environment renamed with it."""
        j = _skip_spaces(self.text, at)
        star = self.text[j:j + 1] == "*"
        j = _skip_spaces(self.text, j + star)
        end = _braced(self.text, j)
        if end is None:
            return None
        name = self._environment_name(self.text[j + 1:end - 1].strip())
        self.out.append(f"\\{command}{'*' if star else ''}{{{name}}}")
        k = _skip_spaces(self.text, end)
        close = _bracketed(self.text, k)
        if close is not None:
            counter = self.text[k + 1:close - 1].strip()
            if counter in self.environments:
                counter = _renamed(counter)
            elif not _NAME.fullmatch(counter):
                return None
            self.out.append(f"[{counter}]")
            return close
        return end

    def _options(self, at: int) -> tuple[str, int] | None:
        """``("[options]" or "", index after)``; options of safe characters only (others:
        left out)."""
        j = _skip_spaces(self.text, at)
        close = _bracketed(self.text, j)
        if close is None:
            return ("", j) if self.text[j:j + 1] != "[" else None
        inside = self.text[j + 1:close - 1]
        return (f"[{inside}]" if _OPTIONS.fullmatch(inside) else ""), close

    def package(self, command: str, at: int) -> int | None:
        options = self._options(at)
        if options is None:
            return None
        opts, j = options
        j = _skip_spaces(self.text, j)
        end = _braced(self.text, j)
        if end is None:
            return None
        names = [n.strip() for n in self.text[j + 1:end - 1].split(",")]
        kept = [n for n in names if n in ALLOWED_PACKAGES]
        left = [n for n in names if n and n not in ALLOWED_PACKAGES]
        if kept:
            self.out.append(f"\\usepackage{opts}{{{','.join(kept)}}}")
        if left:
            shown = ", ".join(re.sub(r"[^A-Za-z0-9-]", "?", n)[:40] for n in left)
            self.out.append(f"%\n% symdp: package(s) not loaded in this copy: {shown}\n")
        return end

    def document_class(self, command: str, at: int) -> int | None:
        options = self._options(at)
        if options is None:
            return None
        opts, j = options
        j = _skip_spaces(self.text, j)
        end = _braced(self.text, j)
        if end is None:
            return None
        name = self.text[j + 1:end - 1].strip()
        self.out.append(f"\\documentclass{opts}{{{name if name in ALLOWED_CLASSES else 'article'}}}")
        return end


def neutralise(text: str, extra_commands=frozenset()) -> tuple[str, set[str], set[str]]:
    """``(copy, denied control words, denied environments)``: ``text`` with everything
    outside the allowed lists renamed or left out (module docstring).  ``extra_commands``
    are control words allowed besides :data:`ALLOWED_COMMANDS` (the copy's own marks)."""
    text = "".join(" " if (ord(c) < 32 and c not in "\n\t") or ord(c) == 127 else c
                   for c in text)
    text = re.sub(r"\^(?=\^)", "^{}", text)    # ^^5c, ^^M, ^^^^0041: TeX's character codes
    worker = _Neutraliser(text, extra_commands)
    return worker.run(), worker.commands, worker.environments


_DEFINED = re.compile(r"\\(?:(?:re)?newcommand|providecommand|DeclareMathOperator|"
                      r"DeclareRobustCommand)\*?\s*\{?\s*\\([A-Za-z]+)|\\(?:[gex]?def|let)\s*"
                      r"\\([A-Za-z]+)|\\(?:re)?newenvironment\*?\s*\{([A-Za-z]+)\}|"
                      r"\\newtheorem\*?\s*\{([A-Za-z]+)\}")


def _uncommented(text: str) -> str:
    """``text`` without its ``%`` comments (an unescaped ``%`` to the end of its line)."""
    return re.sub(r"(?<!\\)((?:\\\\)*)%[^\n]*", r"\1", text)


def fallback_definitions(copy: str, commands, environments) -> tuple[str, set[str]]:
    r"""``(lines, names)``: ``\providecommand`` lines that make every denied name the ``copy``
    does not define itself harmless -- its original name in brackets in the text
    (``[\input]``) -- and the set of those renamed names."""
    defined = {name for match in _DEFINED.finditer(_uncommented(copy))
               for name in match.groups() if name}
    lines = [r"\providecommand{\symdpdenied}[1]{\mbox{\normalfont\ttfamily\footnotesize[#1]}}"]
    names = set()
    for name in sorted(commands):
        renamed = RENAMED + "symbol" if len(name) == 1 and not (name.isascii() and name.isalpha()) \
            else _renamed(name)
        if renamed in defined:
            continue
        names.add(renamed)
        shown = re.sub(r"[^A-Za-z0-9@*]", "?", name)[:40]
        lines.append(f"\\providecommand{{\\{renamed}}}{{\\symdpdenied{{\\textbackslash {shown}}}}}")
    for name in sorted(environments):
        renamed = _renamed(name)
        if renamed in defined:
            continue
        names.add(renamed)
        shown = re.sub(r"[^A-Za-z0-9*]", "?", name)[:40]
        lines.append(f"\\providecommand{{\\{renamed}}}{{\\symdpdenied{{\\textbackslash begin"
                     f"\\{{{shown}\\}}}}}}\\def\\end{renamed}{{}}")
    block = "% --- added by symdp check-tex: what this copy does not run ---\n" + \
        "\n".join(dict.fromkeys(lines)) + "\n% --- end ---\n"
    return block, names


def finish(copy: str, commands, environments) -> str:
    """The neutralised ``copy`` made to compile: the :func:`fallback_definitions` first, and
    in the preamble (before ``\\begin{document}``, where text is an error) every line that
    uses a denied name without a definition, or held a ``^^``, commented out, with a note."""
    block, names = fallback_definitions(copy, commands, environments)
    begin = copy.find("\\begin{document}")
    names = names or {RENAMED + "none"}
    if begin > 0:
        alternatives = "|".join(sorted(names, key=len, reverse=True))
        used = re.compile(r"\\(" + alternatives + r")(?![A-Za-z])")
        opened = re.compile(r"\\begin\{(" + alternatives + r")\}")
        lines = copy[:begin].split("\n")
        inside = None    # a denied environment: its lines are commented out to its end
        for i, line in enumerate(lines[:-1]):    # the last holds \begin{document}
            code = _uncommented(line)
            start = opened.search(code)
            if inside is None and start:
                inside = start.group(1)
            if inside is not None or used.search(code) or "^{}^" in code:   # ^^ broken
                lines[i] = "% symdp: not run: " + line
            if inside is not None and f"\\end{{{inside}}}" in code:
                inside = None
        copy = "\n".join(lines) + copy[begin:]
    return block + copy
