"""The contract a kind signs is narrow: reading, counting, deriving, describing and its terms,
each member of :class:`sqlnb.kinds.base.Kind` a sentence of its docstring. What the other
concerns say of a kind (EM, the linear form, how the command line and the report name its
features) is theirs, keyed by the kind."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from sqlglot import exp

from sqlnb import semisupervised
from sqlnb.errors import SqlnbError
from sqlnb.inputs import Docs, Table, Tokens
from sqlnb.kinds import KINDS, kind_for, params, presentation
from sqlnb.kinds.base import Checks, Kind
from sqlnb.kinds.text import linear

BASE = Path(__file__).resolve().parent.parent / "sqlnb" / "kinds" / "base.py"


def members() -> list[str]:
    """Every attribute, class variable, method and property of Kind's class body, dunders
    excluded (as the issue counts them)."""
    tree = ast.parse(BASE.read_text())
    (kind,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Kind"]
    names: list[str] = []
    for node in kind.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.append(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.append(node.target.id)
        elif isinstance(node, ast.Assign):
            names += [t.id for t in node.targets if isinstance(t, ast.Name)]
    return [n for n in names if not (n.startswith("__") and n.endswith("__"))]


def test_kind_is_narrow_and_each_member_is_a_sentence_of_its_docstring() -> None:
    found = members()
    assert len(found) == len(set(found))
    assert len(found) <= 15
    doc = Kind.__doc__ or ""
    for name in found:
        assert f"``{name}``" in doc or f":meth:`{name}`" in doc, name
    for gone in ("noun", "size", "word_note", "em_refusal", "refuses_em", "log_prior"):
        assert gone not in found and not hasattr(Kind, gone)
    for gone in ("scores", "linear", "uses_prior", "without", "needs", "counts", "resolve"):
        assert gone not in found and not hasattr(Kind, gone)


def test_presentation_is_keyed_by_the_kind() -> None:
    nouns = {name: presentation.noun(k) for name, k in KINDS.items()}
    assert nouns == {
        "multinomial": "words",
        "bernoulli": "words",
        "complement": "words",
        "gaussian": "features",
        "categorical": "features",
        "mixed": "features",
    }
    assert {presentation.size(k) for k in KINDS.values()} == {"vocabulary (words)", "features"}
    notes = {name: presentation.word_note(k) for name, k in KINDS.items()}
    assert [n for n, note in notes.items() if note is None] == ["gaussian", "categorical", "mixed"]
    word = "Each word adds count × (log θ<sub>predicted</sub> − log θ<sub>true</sub>) to "
    assert notes["multinomial"] == word + "log P(predicted) − log P(true); the prior adds the rest."
    assert notes["complement"] == word + "log P(predicted) − log P(true)."
    assert "absent words" in str(notes["bernoulli"])
    assert [n for n, k in KINDS.items() if not params.uses_prior(k)] == ["complement"]


def test_a_kind_refuses_a_source_it_does_not_read() -> None:
    with pytest.raises(SqlnbError, match=r"^kind 'gaussian' trains from a wide table \(--table\)$"):
        kind_for("gaussian", Tokens("t"))
    with pytest.raises(SqlnbError, match=r"^kind 'bernoulli' trains from a tokens table"):
        kind_for("bernoulli", Table("t"))
    assert kind_for(None, Docs("d")).name == "multinomial"


def test_complement_refuses_priors_because_it_uses_none() -> None:
    with pytest.raises(SqlnbError) as refused:
        params.resolved(KINDS["complement"], {"class_prior": "a=0.5,b=0.5"})
    assert str(refused.value) == (
        "kind 'complement' does not use --class-prior: it uses no class prior"
    )
    with pytest.raises(SqlnbError, match=r"^kind 'multinomial' does not use --beta$"):
        params.resolved(KINDS["multinomial"], {"beta": 1.0})
    assert params.resolved(KINDS["gaussian"], {})["fit_prior"] is True


def test_em_is_keyed_by_the_kind() -> None:
    resolved = {n: params.resolved(k, {}) for n, k in KINDS.items()}
    refusals = {n: semisupervised.refuses(KINDS[n], p) for n, p in resolved.items()}
    assert refusals["multinomial"] == refusals["bernoulli"] == ""
    assert refusals["complement"].startswith("complement Naive Bayes models no class's")
    for name in ("gaussian", "categorical", "mixed"):
        assert refusals[name] == (
            "semi-supervised EM is for the text kinds multinomial and bernoulli"
        )
    zero = params.resolved(KINDS["bernoulli"], {"beta": 0})
    assert semisupervised.refuses(KINDS["bernoulli"], zero).startswith("EM needs beta > 0")
    prior = semisupervised.log_prior(KINDS["bernoulli"], "m", resolved["bernoulli"])
    assert isinstance(prior, exp.Select) and "sqlnb_log_theta" in prior.sql()


def test_the_linear_form_and_the_checks_are_keyed_by_the_kind() -> None:
    assert linear(KINDS["gaussian"], "m", params.resolved(KINDS["gaussian"], {})) is None
    assert linear(KINDS["multinomial"], "m", params.resolved(KINDS["multinomial"], {}))
    transformed = params.resolved(KINDS["multinomial"], {"sublinear_tf": True})
    with pytest.raises(SqlnbError, match="has no linear form"):
        linear(KINDS["multinomial"], "m", transformed)
    assert all(isinstance(k.checks, Checks) for k in KINDS.values())
    both = params.resolved(KINDS["multinomial"], {"idf": "smooth", "doc_norm": "l2"})
    with pytest.raises(SqlnbError, match="appending would need the old documents again"):
        KINDS["multinomial"].checks.append("m", both)
    with pytest.raises(SqlnbError, match="are not a list of"):
        KINDS["gaussian"].checks.settings({"features": [["x", "categorical"]]})
    KINDS["mixed"].checks.settings({"features": [["x", "categorical"]]})
