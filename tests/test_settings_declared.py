"""Every user setting is declared once (sqlnb/settings.py, the hyperparameters
sqlnb/kinds/params.py): the command line's options, the API's defaults, the messages that
refuse a bad value and the README's tables are the declarations'."""

from __future__ import annotations

import inspect
from dataclasses import fields
from pathlib import Path
from typing import Any

import documentation
import pytest
from typer.main import get_command

import sqlnb
from sqlnb import calibration, settings, tuning
from sqlnb.cli import app
from sqlnb.errors import SqlnbError
from sqlnb.kinds import KINDS, params
from sqlnb.pruning import Pruning
from sqlnb.semisupervised import EM
from sqlnb.tokenizer import Tokenizer

README = documentation.everything()


def _options() -> dict[str, list[Any]]:
    """Every option of every command (and ``sql`` twin), by its parameter name."""
    found: dict[str, list[Any]] = {}

    def walk(command: Any) -> None:
        for p in getattr(command, "params", []):
            found.setdefault(p.name, []).append(p)
        for sub in getattr(command, "commands", {}).values():
            walk(sub)

    walk(get_command(app))
    return found


OPTIONS = _options()


@pytest.mark.parametrize("setting", settings.SETTINGS, ids=lambda s: s.name)
def test_every_option_is_its_declaration(setting: settings.Setting) -> None:
    """Each command's option of a setting has the declared flag and help, and as its default
    either None (not given: the declared default applies) or the declared default."""
    found = OPTIONS.get(setting.name)
    assert found, f"no command has an option {setting.flag}"
    if setting is settings.ALPHAS:  # tune's --alpha; the other --alpha is the hyperparameter's
        found = [p for p in found if p.help == settings.ALPHAS.help]
        assert found
    for option in found:
        assert setting.flag in option.opts
        assert option.help == setting.help
        assert option.default in (None, setting.written)
        if setting.value == settings.FLAG:
            assert option.secondary_opts == [setting.negative]


@pytest.mark.parametrize("name", sorted(params.every(KINDS.values())))
def test_every_hyperparameter_option_is_its_declaration(name: str) -> None:
    h = params.every(KINDS.values())[name]
    for option in OPTIONS[name]:
        if option.help == settings.ALPHAS.help:
            continue  # tune's grid
        assert h.flag in option.opts and option.help == h.help and option.default is None


def test_the_api_defaults_are_the_declared_ones() -> None:
    tokenizer = Tokenizer()
    assert tokenizer.lowercase is settings.LOWERCASE.default is True
    assert tokenizer.pattern == settings.TOKEN_PATTERN.default == r"[\pL\pN]+(?:'[\pL\pN]+)*"
    assert tokenizer.stop_words == settings.STOP_WORDS.default == ()
    assert tokenizer.ngrams == settings.NGRAMS.default == (1, 1)
    assert Pruning() == Pruning(1, 1.0, None)
    assert (Pruning().min_df, Pruning().max_df, Pruning().max_features) == tuple(
        s.default for s in settings.PRUNING
    )
    em = EM(sqlnb.Tokens("t"))
    assert (em.weight, em.iterations, em.tolerance) == (1.0, 10, 0.0)
    assert (em.weight, em.iterations, em.tolerance) == tuple(s.default for s in settings.EM)
    assert EM.given(sqlnb.Tokens("t"), None, 3, None) == EM(sqlnb.Tokens("t"), 1.0, 3, 0.0)
    train = inspect.signature(sqlnb.train).parameters
    assert train["em"].default == (1.0, 10, 0.0)
    tune = inspect.signature(tuning.tune).parameters
    assert tune["alphas"].default == settings.ALPHAS.default == (0.01, 0.1, 0.5, 1.0)
    assert tune["folds"].default == settings.FOLDS.default == 5
    assert inspect.signature(sqlnb.Model.calibrate).parameters["method"].default == "temperature"
    assert calibration.METHODS == ("temperature", "sigmoid", "isotonic", "none")
    assert settings.ALPHAS.written == "0.01,0.1,0.5,1"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: EM(sqlnb.Tokens("t"), weight=-1),
            "--em-weight must be a finite number >= 0, not -1",
        ),
        (lambda: EM(sqlnb.Tokens("t"), iterations=-2), "--em-iterations must be >= 0, not -2"),
        (
            lambda: EM(sqlnb.Tokens("t"), tolerance=float("nan")),
            "--em-tolerance must be a number >= 0, not nan",
        ),
        (lambda: Pruning(max_features=0), "max_features must be at least 1"),
        (lambda: Tokenizer(lowercase="yes"), "lowercase must be true or false, not 'yes'"),  # type: ignore[arg-type]
        (lambda: settings.FOLDS.check(1), "--folds must be at least 2"),
        (
            lambda: settings.METHOD.check("platt"),
            "--method must be one of temperature, sigmoid, isotonic, none, not 'platt'",
        ),
        (lambda: settings.UNSEEN.check("skip"), "--unseen must be 'ignore' or 'error', not 'skip'"),
        (
            lambda: settings.WAIT.check(-1.5),
            "--wait must be a number of seconds >= 0, not -1.5",
        ),
    ],
)
def test_the_messages_are_the_declared_ones(call: Any, message: str) -> None:
    with pytest.raises(SqlnbError) as refused:
        call()
    assert str(refused.value) == message


def test_the_api_keywords_are_the_declared_ones() -> None:
    """The fields of the objects the API takes are the settings' keywords, in order."""

    def keywords(group: tuple[settings.Setting, ...]) -> list[str]:
        return [s.keyword or s.name for s in group]

    assert [f.name for f in fields(Tokenizer) if f.name != "stop_table"] == keywords(
        settings.TOKENIZER
    )
    assert [f.name for f in fields(Pruning)] == keywords(settings.PRUNING)
    assert [f.name for f in fields(EM) if f.name != "unlabeled"] == keywords(settings.EM)
    assert settings.ALPHAS.keyword in inspect.signature(tuning.tune).parameters
    assert settings.FOLDS.name in inspect.signature(tuning.tune).parameters
    assert settings.METHOD.name in inspect.signature(sqlnb.Model.calibrate).parameters


def test_the_wait_option_refuses_by_the_declaration(tmp_path: Path) -> None:
    import cli

    code, out, err = cli.run("models", tmp_path / "x.duckdb", "--wait", "-1")
    assert (code, out) == (1, "")
    assert err == "Error: --wait must be a number of seconds >= 0, not -1\n"


def test_tune_refuses_too_few_folds_by_the_declaration() -> None:
    import duckdb

    with pytest.raises(SqlnbError, match=r"^--folds must be at least 2$"):
        tuning.tune(duckdb.connect(), folds=1)


def test_the_readme_tables_are_the_declarations() -> None:
    """The README's tables of the tokenizer's options and of the hyperparameters are the
    ones the declarations give; EM's defaults are the declared ones; every setting's option
    is documented."""
    assert settings.markdown(settings.TOKENIZER) in README
    assert params.markdown(list(KINDS.values())) in README
    defaults = ", ".join(f"{s.default:g}" for s in settings.EM)
    assert f"[--em-tolerance ε]` (defaults {defaults})" in README.replace("\n  ", " ")
    for setting in settings.SETTINGS:
        assert setting.flag in README, setting.flag
