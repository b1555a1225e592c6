"""Raw text to a tokens table, with SQL alone: the :class:`Tokenizer` and its settings.

>>> import duckdb
>>> from sqlnb import Database, templates
>>> db = Database.connect(duckdb.connect())
>>> _ = db.connection.execute("CREATE TABLE docs AS SELECT 1 AS doc_id, "
...     "'It''s a good, GOOD day' AS text")
>>> query = Tokenizer(ngrams=(1, 2), stop_words=("a",)).tokens(Docs("docs"), db)
>>> sorted((word, count) for _, word, count in db.fetch(query))  # doctest: +NORMALIZE_WHITESPACE
[('day', 1.0), ('good', 2.0), ('good day', 1.0), ('good good', 1.0), ("it's", 1.0),
 ("it's good", 1.0)]
"""

from __future__ import annotations

import difflib
import hashlib
import json
from dataclasses import asdict, dataclass, field
from typing import Any

from sqlglot import exp

from sqlnb import patterns, settings, stop_words, templates, unicode
from sqlnb.engine import Database, dialects
from sqlnb.errors import SqlnbError
from sqlnb.inputs import Docs, source_node

# Runs of Unicode letters and digits, with apostrophes inside words ("it's", "o'clock"), in
# RE2 (DuckDB) and Java (Spark) syntax; the same pattern spelled for the engines whose regular
# expressions have no \\p classes.
DEFAULT_PATTERN: str = settings.TOKEN_PATTERN.default
MAX_NGRAM = 10  # the longest n-grams a tokenizer makes (each n multiplies the token rows)
# Stop-word lists up to this long (scikit-learn's English list) are written into the query; longer
# ones are read from a table: the user's (stop_table) or sqlnb_stop_words.
INLINE = len(stop_words.ENGLISH)
STORED = "sqlnb_stop_words"
BATCH = 1000  # words per INSERT of a list into sqlnb_stop_words


@dataclass(frozen=True)
class Tokenizer:
    """How text becomes words: lowercase first (default), then the matches of a regular
    expression (RE2 syntax), stop words removed, then word n-grams joined by one space.
    ``stop_words`` is a list of words, or "english" for scikit-learn's list; ``stop_table``
    the table they were read from, if any (not part of the settings: training joins it, and
    copies it into sqlnb_stop_words for the queries after it)."""

    lowercase: bool = settings.LOWERCASE.default
    pattern: str = DEFAULT_PATTERN
    stop_words: tuple[str, ...] = settings.STOP_WORDS.default
    ngrams: tuple[int, int] = settings.NGRAMS.default
    stop_table: str | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        low, high = self.ngrams
        if not 1 <= low <= high <= MAX_NGRAM:
            raise SqlnbError(f"n-gram range {low}-{high}: need 1 <= min <= max <= {MAX_NGRAM}")
        if not isinstance(self.pattern, str) or not self.pattern:
            raise SqlnbError(f"token pattern {self.pattern!r} is not a regular expression")
        # (the default pattern is known good: RE2 is then neither imported nor asked)
        problem = None if self.pattern == DEFAULT_PATTERN else patterns.problem(self.pattern)
        if problem is not None:
            raise SqlnbError(f"token pattern {self.pattern!r} {problem}")
        settings.LOWERCASE.check(self.lowercase)
        if isinstance(self.stop_words, str):  # a name, not the letters of one
            if self.stop_words != "english":
                raise SqlnbError(
                    f"stop_words {self.stop_words!r}: give 'english' or a list of words"
                )
            object.__setattr__(self, "stop_words", stop_words.ENGLISH)
        object.__setattr__(self, "stop_words", tuple(self.stop_words))
        bad = [w for w in self.stop_words if not isinstance(w, str)]
        if bad:
            raise SqlnbError(f"stop word {bad[0]!r} is not text")

    @classmethod
    def from_dict(cls, settings: dict[str, Any]) -> Tokenizer:
        """The tokenizer of stored settings (:meth:`as_dict`), checked as given ones are."""
        try:
            low, high = settings["ngrams"]
            return cls(
                settings["lowercase"],
                settings["pattern"],
                tuple(settings["stop_words"]),
                (int(low), int(high)),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise SqlnbError(f"tokenizer settings {settings!r} are not valid ({error})") from None

    def as_dict(self) -> dict[str, Any]:
        settings = asdict(self)
        del settings["stop_table"]
        return settings

    def list_key(self) -> str:
        """The fingerprint of the stop-word list: its key in sqlnb_stop_words."""
        return hashlib.sha256("\n".join(sorted(set(self.stop_words))).encode()).hexdigest()[:32]

    def stop_relation(self, db: Database) -> exp.Expr:
        """The stop words as a one-column relation (word) aliased s: the user's table they were
        read from, or (a list longer than :data:`INLINE`) their rows of sqlnb_stop_words where
        ``db`` holds them; else the words themselves."""
        if self.stop_table is not None:
            return _table_words(self.stop_table)
        if len(self.stop_words) > INLINE and self._stored(db):
            return (
                exp.select("word")
                .from_(exp.to_table(STORED))
                .where(exp.column("list").eq(exp.convert(self.list_key())))
                .subquery("s")
            )
        return _words(self.stop_words)

    def _stored(self, db: Database) -> bool:
        """Whether sqlnb_stop_words holds this list (written by a training or an import)."""
        if db.relation_type(exp.to_table(STORED)) is None:
            return False
        count = (
            exp.select(exp.func("COUNT", exp.Star()))
            .from_(exp.to_table(STORED))
            .where(exp.column("list").eq(exp.convert(self.list_key())))
        )
        return bool(db.fetch(count)[0][0] == len(set(self.stop_words)))

    def storing(self) -> list[exp.Expr]:
        """The statements that write a list longer than :data:`INLINE` into sqlnb_stop_words
        (anew): from the user's table where it came from one, else in batches of
        :data:`BATCH` words."""
        if len(self.stop_words) <= INLINE:
            return []
        table, key = exp.to_table(STORED), exp.convert(self.list_key())
        statements: list[exp.Expr] = [
            templates.render("catalog/create_stop_words.sql"),
            exp.delete(table.copy(), where=exp.column("list").eq(key.copy())),
        ]
        if self.stop_table is not None:
            rows: exp.Query = (
                exp.select(key.copy().as_("list"), exp.column("word", "s"))
                .distinct()
                .from_(_table_words(self.stop_table))
            )
            statements.append(exp.insert(rows, table.copy(), columns=["list", "word"]))
            return statements
        words = sorted(set(self.stop_words))
        for start in range(0, len(words), BATCH):
            values = exp.values([(self.list_key(), w) for w in words[start : start + BATCH]])
            statements.append(exp.insert(values, table.copy(), columns=["list", "word"]))
        return statements

    def key(self) -> str:
        """The settings as canonical JSON: equal tokenizers have equal keys."""
        return json.dumps(self.as_dict(), sort_keys=True)

    def record(self, model: str) -> exp.Expr:
        """Insert the tokenizer of ``model`` into sqlnb_tokenizers."""
        return templates.render(
            "train/tokenizer.sql",
            model=model,
            settings=self.key(),
            lowercase=self.lowercase,
            pattern=self.pattern,
            ngram_min=self.ngrams[0],
            ngram_max=self.ngrams[1],
        )

    def tokens(
        self,
        docs: Docs,
        db: Database,
        *,
        grouped: bool = True,
        split: bool = True,
        dialect: str | None = None,
    ) -> exp.Select:
        """The query of the tokens table (doc_id, word, count) of a docs table, in the SQL of
        the engine ``dialect`` (default: the database's own); not ``grouped``, one row per
        occurrence with count 1 (as a model's input). With ``split`` the documents are
        tokenized side by side where the database gains by it (not in a script for another)."""
        docs.check(db)
        split = split and dialect in (None, db.dialect.name)
        dialect = dialect or db.dialect.name
        name = templates.for_dialect("tokenize/matches.sql", dialect)
        engine = dialects.dialect(dialect)
        pattern = engine_pattern(self.pattern, engine)
        text: exp.Expr = templates.col(docs.text, quoted=True)
        bindings: dict[str, templates.Binding] = {}
        wanted = templates.placeholders(name)
        if "lowercase" in wanted:  # the engine's LOWER is ASCII-only
            bindings["lowercase"] = self.lowercase
            if db.dialect.python_functions:  # else a script, run where it has them
                register_functions(db)
        elif self.lowercase:
            text = unicode.lower(text, engine.full_lower)
        if "simple" in wanted:  # the default pattern splits a plain text at its spaces
            bindings["simple"] = self.pattern == DEFAULT_PATTERN
        parts: list[exp.Query] = [
            templates.select(
                name,
                id=templates.col(docs.id, quoted=True),
                text=text,
                pattern=pattern,
                source=source,
                **bindings,
            )
            for source in (
                db.partitions(docs.node(), templates.col(docs.id, quoted=True))
                if split
                else [docs.node()]
            )
        ]
        matches: exp.Query = parts[0]
        for part in parts[1:]:  # tokenized side by side (see Database.partitions)
            matches = exp.union(matches, part, distinct=False)
        counting = "tokenize/count.sql" if grouped else "tokenize/rows.sql"

        def kept(alias: str) -> exp.Expr:  # the token of relation alias is no stop word
            if not self.stop_words:
                return exp.true()
            stop = exp.select("word").from_(self.stop_relation(db))
            return exp.not_(exp.column("token", table=alias).isin(query=stop))

        if self.ngrams == (1, 1):  # words alone: no positions, no windows
            words = templates.select(
                "tokenize/words.sql", matches=matches.subquery("m"), kept=kept("m")
            )
            return templates.select(counting, grams=words.subquery("g"))
        positions = templates.render(
            "tokenize/kept.sql", matches=matches.subquery("t"), kept=kept("t")
        )
        low, high = self.ngrams
        grams: exp.Query = self._grams(low)
        for n in range(low + 1, high + 1):
            grams = exp.union(grams, self._grams(n), distinct=False)
        counted = templates.select(counting, grams=grams.subquery("g"))
        return counted.with_("sqlnb_kept", as_=positions)

    def words(self, text: exp.Expr, dialect: str = "duckdb") -> exp.Expr:
        """The words of one text as a list, by the rules of :meth:`tokens`, in one DuckDB
        expression (``sql/tokenize/list.sql``) for the engine ``dialect`` to run (DuckDB's
        macros, ClickHouse's functions): the functions score a text without a join.
        Stop words are dropped only where n-grams are built: alone, a stop word is in no
        model's vocabulary, so it scores nothing either way."""
        if self.lowercase:
            text = unicode.lower(text, dialects.dialect(dialect).full_lower)
        kept: exp.Expr = exp.true()
        if self.stop_words and self.ngrams != (1, 1):
            stop = exp.Array(expressions=[exp.convert(w) for w in self.stop_words])
            kept = exp.not_(exp.ArrayContains(this=stop, expression=exp.column("t")))
        low, high = self.ngrams
        grams = [
            templates.expressions("tokenize/list_grams.sql", n=n, gram=_gram(n))["grams"]
            if n > 1
            else exp.column("k")
            for n in range(low, high + 1)
        ]
        (words,) = templates.expressions(
            "tokenize/list.sql",
            text=text,
            pattern=self.pattern,
            simple=self.pattern == DEFAULT_PATTERN,
            kept=kept,
            words=grams[0] if len(grams) == 1 else exp.func("LIST_CONCAT", *grams),
        ).values()
        return words

    def write(self, db: Database, docs: Docs, output: str, *, replace: bool = False) -> int:
        """Create table ``output`` with the tokens of ``docs``; returns its number of rows."""
        return db.write_table(output, self.tokens(docs, db), replace=replace)

    def _grams(self, n: int) -> exp.Select:
        """The n-grams: token || ' ' || LEAD(token, 1) || ... || LEAD(token, n - 1)."""
        token = exp.column("token", table="k")
        gram: exp.Expr = token
        for i in range(1, n):
            lead = exp.Window(
                this=exp.Anonymous(this="LEAD", expressions=[token.copy(), exp.convert(i)]),
                partition_by=[exp.column("doc_id", table="k")],
                order=exp.Order(expressions=[exp.Ordered(this=exp.column("pos", table="k"))]),
            )
            gram = exp.DPipe(
                this=exp.DPipe(this=gram, expression=exp.convert(" ")), expression=lead
            )
        return templates.select("tokenize/ngrams.sql", gram=gram, kept=exp.to_table("sqlnb_kept"))


def engine_pattern(pattern: str, engine: dialects.Dialect) -> str:
    """A token pattern as the engine's regular expressions take it: with the characters of
    ``\\pL`` and the like where they have no such classes, the engine's spelling of the default
    pattern; refused where they backtrack and the pattern could take exponential time."""
    if engine.expands_classes:  # its regular expressions have no \pL: the characters
        return unicode.expanded(pattern)
    if pattern == DEFAULT_PATTERN:
        return engine.default_pattern or pattern
    if engine.backtracking_regex:
        problem = patterns.backtracking_problem(pattern)
        if problem is not None:
            raise SqlnbError(f"token pattern {pattern!r} {problem}")
    return pattern


def _gram(n: int) -> exp.Expr:
    """k[i] || ' ' || k[i + 1] || ... || k[i + n - 1]: the n-gram at position i of the list k
    (an index in DuckDB's terms, from 1: ``offset`` keeps sqlglot from shifting it)."""

    def token(j: int) -> exp.Expr:
        index = exp.column("i") if j == 0 else exp.column("i") + exp.Literal.number(j)
        return exp.Bracket(this=exp.column("k"), expressions=[index], offset=1)

    gram = token(0)
    for j in range(1, n):
        gram = exp.DPipe(
            this=exp.DPipe(this=gram, expression=exp.convert(" ")), expression=token(j)
        )
    return gram


def _table_words(table: str) -> exp.Expr:
    """The words of a user's stop-word table (column word, as text, without NULLs: a NULL
    would make NOT IN keep nothing) as a relation (word) aliased s."""
    word = exp.column("word", quoted=True)
    return (
        exp.select(exp.cast(word, "VARCHAR").as_("word"))
        .from_(source_node(table))
        .where(exp.Is(this=word.copy(), expression=exp.null()).not_())
        .subquery("s")
    )


def _words(words: tuple[str, ...]) -> exp.Expr:
    """A one-column relation (word) of the given words; empty when there are none. (A chain
    of UNION ALL, which every engine reads; VALUES with column names is not in SQLite.)"""
    rows: list[exp.Select] = [exp.select(exp.convert(w).as_("word")) for w in words] or [
        exp.select(exp.cast(exp.null(), "VARCHAR").as_("word")).where(exp.false())
    ]
    query: exp.Query = rows[0]
    for row in rows[1:]:  # built in place: exp.union() copies both sides (quadratic)
        query = exp.Union(this=query, expression=row, distinct=False)
    return query.subquery("s")


def register_functions(db: Database) -> None:
    """sqlnb_tokens(text, pattern, lowercase) on a SQLite connection (SQLite has no regular
    expressions): a JSON array of the pattern's matches, found by RE2 as DuckDB finds them
    (the same syntax, and time linear in the text whatever the pattern)."""
    compiled: dict[str, Any] = {}

    def tokens(text: str | None, pattern: str, lowercase: int) -> str | None:
        if text is None:
            return None
        if pattern not in compiled:
            compiled[pattern] = patterns.compiled(pattern)
        found = compiled[pattern].finditer(unicode.lowered(text) if lowercase else text)
        return json.dumps([m.group(0) for m in found])

    db.register_function("sqlnb_tokens", tokens, 3)


def stop_word_list(db: Database, spec: str | None) -> tuple[str, ...]:
    """``english``: scikit-learn's list; any other name: a table with one column ``word``."""
    if spec is None:
        return ()
    if spec == "english":
        return stop_words.ENGLISH
    if not db.exists(source_node(spec)) and difflib.get_close_matches(spec, ["english"]):
        raise SqlnbError(
            f"--stop-words {spec!r} is neither 'english' nor a table: did you mean 'english'?"
        )
    columns = db.columns(source_node(spec))
    if "word" not in columns:
        raise SqlnbError(f"stop words table {spec!r} has no column 'word'")
    query = exp.select(exp.column("word", quoted=True)).distinct().from_(source_node(spec))
    return tuple(sorted(str(r[0]) for r in db.fetch(query) if r[0] is not None))


def parse_ngrams(text: str) -> tuple[int, int]:
    """``'1-2'`` (or ``'2'``) as (1, 2).

    >>> parse_ngrams("1-3"), parse_ngrams("2")
    ((1, 3), (2, 2))
    """
    low, _, high = text.partition("-")
    try:
        return int(low), int(high or low)
    except ValueError:
        raise SqlnbError(f"n-gram range {text!r} is not of the form MIN-MAX") from None
