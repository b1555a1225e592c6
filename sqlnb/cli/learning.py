"""train --unlabeled: semi-supervised EM from the command line (sqlnb.semisupervised)."""

from __future__ import annotations

from typing import Any

from sqlnb.cli import console
from sqlnb.cli.console import echo, fail, opened
from sqlnb.cli.options import TokenizerOptions
from sqlnb.inputs import Docs, Labels, Source, Tokens
from sqlnb.kinds.presentation import noun


def train_em(
    db: str,
    model_name: str,
    kind: str | None,
    data: Source,
    labels: Labels,
    hyper: dict[str, Any],
    tokenizer: TokenizerOptions,
    unlabeled: str | None,
    unlabeled_docs: str | None,
    settings: tuple[float | None, int | None, float | None],
    keep: int,
) -> None:
    """train --unlabeled: semi-supervised EM, each iteration's log-likelihood printed."""
    from sqlnb import catalog, semisupervised

    if (unlabeled is None) == (unlabeled_docs is None):
        fail("give --unlabeled (a tokens table) or --unlabeled-docs (raw text), not both")
    other: Source
    if isinstance(data, Docs):
        if unlabeled_docs is None:
            fail("with --docs the unlabeled documents are raw text too: --unlabeled-docs")
        other = Docs(unlabeled_docs or "", data.id, data.text)
    elif isinstance(data, Tokens):
        if unlabeled is None:
            fail("with --tokens the unlabeled documents are a tokens table too: --unlabeled")
        other = Tokens(unlabeled or "")
    else:
        fail("EM is for text: train from --tokens or --docs")
    with opened(db, create=True) as database:
        em = semisupervised.EM.given(other, *settings)
        dropped = catalog.calibration(database, model_name)
        chosen: dict[str, Any] = {"kind": kind, "hyper": hyper}
        the_tokenizer = tokenizer.resolve(database)
        done = semisupervised.train(
            database,
            data,
            labels,
            em,
            model=model_name,
            tokenizer=the_tokenizer,
            keep=keep,
            **chosen,
        )
    for step in done.history:
        shares = ", ".join(f"{k} {v:.4f}" for k, v in step["shares"].items())
        echo(
            f"EM {'iteration ' + str(step['iteration']) if step['iteration'] else 'start'}: "
            f"log-likelihood {step['log_likelihood']:.6f}; unlabeled shares {shares}"
        )
    last = done.history[-1]["iteration"]
    if last < em.iterations:
        echo(
            f"EM stopped after iteration {last} of {em.iterations}: the log-likelihood changed "
            f"by less than --em-tolerance {em.tolerance:g} (relative)"
        )
    entry = done.entry
    echo(
        f"trained {entry.kind_name} model {model_name!r} by EM: "
        f"{float(entry.info['n_docs']):.10g} documents (weighted), "
        f"{entry.info['n_classes']} classes, {entry.info['n_features']} {noun(entry.kind)}"
    )
    console.dropped(dropped)
