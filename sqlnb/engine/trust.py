"""Which of sqlnb's objects in a PostgreSQL schema it may trust, and the lock its writers take.

sqlnb owns the names that start with ``sqlnb_`` in the schema it keeps models in (tables,
views, indexes, functions). Before a transaction writes models it asks the system catalog,
and refuses in one line naming the object and its owner:

- an object of such a name that belongs to a role the connecting role neither is nor is a
  member of (a superuser's is trusted: a superuser can do anything anyway);
- a table another role may write (INSERT, UPDATE, DELETE, TRUNCATE, TRIGGER, REFERENCES or
  MAINTAIN granted to PUBLIC or to a role not trusted as above);
- a trigger, or a rule other than a view's ``_RETURN``, on such a table (sqlnb makes none:
  one would run as the role that trains).

Reading checks the owners only, and trusts the owner of ``sqlnb_models`` too (a reader reads
the models another role trained). Writers lock ``sqlnb_models`` itself, which needs a privilege
to write it (``LOCK TABLE ... IN SHARE ROW EXCLUSIVE MODE``): a role that may only read it, or
has no right, cannot hold the lock. Only before the table exists (a schema's first training)
is the lock an advisory one; every wait is bounded by ``lock_timeout`` (``--wait``).
"""

from __future__ import annotations

from collections.abc import Callable

from sqlnb.engine.backends import Row, literal
from sqlnb.errors import SqlnbError

Fetch = Callable[[str], list[Row]]

# What a table of sqlnb's may grant only to the roles trusted to write it.
WRITES = ("INSERT", "UPDATE", "DELETE", "TRUNCATE", "TRIGGER", "REFERENCES", "MAINTAIN")

# One row per object of sqlnb's names that the role may not trust: (order, what, name, owner,
# detail); {schema} and {writing} are put in as literals.
PROBLEMS = """
WITH RECURSIVE mine(oid) AS (
  SELECT r.oid FROM pg_catalog.pg_roles AS r WHERE r.rolname = CURRENT_USER
  UNION
  SELECT m.roleid FROM pg_catalog.pg_auth_members AS m JOIN mine ON m.member = mine.oid
), ns AS (
  SELECT n.oid FROM pg_catalog.pg_namespace AS n WHERE n.nspname = {schema}
), trusted(oid) AS (
  SELECT oid FROM mine
  UNION SELECT r.oid FROM pg_catalog.pg_roles AS r WHERE r.rolsuper
  UNION SELECT c.relowner FROM pg_catalog.pg_class AS c
  WHERE NOT {writing} AND c.relnamespace = (SELECT oid FROM ns) AND c.relname = 'sqlnb_models'
), objects AS (
  SELECT c.oid, c.relname::TEXT AS name, c.relowner AS owner, c.relacl AS acl,
    CASE c.relkind WHEN 'r' THEN 'table' WHEN 'p' THEN 'table' WHEN 'v' THEN 'view'
      WHEN 'm' THEN 'materialized view' WHEN 'i' THEN 'index' WHEN 'I' THEN 'index'
      WHEN 'S' THEN 'sequence' WHEN 'f' THEN 'foreign table' ELSE 'relation' END AS what
  FROM pg_catalog.pg_class AS c
  WHERE c.relnamespace = (SELECT oid FROM ns) AND pg_catalog.starts_with(c.relname::TEXT, 'sqlnb_')
), found(o, what, name, owner, detail) AS (
  SELECT 1, o.what, o.name, o.owner, NULL::TEXT FROM objects AS o
  WHERE o.owner NOT IN (SELECT oid FROM trusted)
  UNION ALL
  SELECT 1, 'function', p.proname::TEXT || '(' || pg_catalog.oidvectortypes(p.proargtypes) || ')',
    p.proowner, NULL::TEXT
  FROM pg_catalog.pg_proc AS p
  WHERE p.pronamespace = (SELECT oid FROM ns) AND pg_catalog.starts_with(p.proname::TEXT, 'sqlnb_')
    AND p.proowner NOT IN (SELECT oid FROM trusted)
  UNION ALL
  SELECT 2, o.what, o.name, o.owner, pg_catalog.string_agg(DISTINCT
    CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE pg_catalog.quote_ident(g.rolname::TEXT) END
    || ' (' || a.privilege_type || ')', ', ')
  FROM objects AS o CROSS JOIN LATERAL pg_catalog.aclexplode(o.acl) AS a
  LEFT JOIN pg_catalog.pg_roles AS g ON g.oid = a.grantee
  WHERE {writing} AND a.privilege_type = ANY({writes})
    AND a.grantee NOT IN (SELECT oid FROM trusted)
  GROUP BY o.what, o.name, o.owner
  UNION ALL
  SELECT 3, o.what, o.name, o.owner, 'trigger ' || pg_catalog.quote_ident(t.tgname::TEXT)
  FROM objects AS o JOIN pg_catalog.pg_trigger AS t ON t.tgrelid = o.oid
  WHERE {writing} AND NOT t.tgisinternal
  UNION ALL
  SELECT 3, o.what, o.name, o.owner, 'rule ' || pg_catalog.quote_ident(w.rulename::TEXT)
  FROM objects AS o JOIN pg_catalog.pg_rewrite AS w ON w.ev_class = o.oid
  WHERE {writing} AND w.rulename <> '_RETURN'
)
SELECT f.o, f.what, f.name, COALESCE(r.rolname::TEXT, f.owner::TEXT), f.detail, CURRENT_USER::TEXT
FROM found AS f LEFT JOIN pg_catalog.pg_roles AS r ON r.oid = f.owner
ORDER BY f.o, f.name LIMIT 1
"""


def refusal(fetch: Fetch, schema: str, *, writing: bool) -> str | None:
    """Why the role may not trust an object named ``sqlnb_*`` in ``schema``, in one line, or
    None (see the module's docstring)."""
    writes = "ARRAY[" + ", ".join(literal(w) for w in WRITES) + "]"
    query = PROBLEMS.format(
        schema=literal(schema), writing="TRUE" if writing else "FALSE", writes=writes
    )
    found = fetch(query)
    if not found:
        return None
    order, what, name, owner, detail, user = found[0]
    where = f"{what} {schema + '.' + name!r}"
    fix = "drop it, or keep the models in a schema only trusted roles may create objects in"
    if order == 1:
        others = f"{user!r} or a role {user!r} is a member of"
        if not writing:
            others += ", nor to the owner of the models"
        return (
            f"refusing {where}: it belongs to role {owner!r}, not to {others}; sqlnb uses "
            f"only its own tables and functions: {fix}"
        )
    if order == 2:
        return (
            f"refusing {where} (owner {owner!r}): other roles may change it: {detail}; "
            "sqlnb writes only to tables no other role may change: REVOKE those privileges"
        )
    return (
        f"refusing {where} (owner {owner!r}): it has a {detail} that sqlnb did not make, "
        "which would run as you: drop it"
    )


def verify(fetch: Fetch, schema: str, *, writing: bool) -> None:
    """Raise :class:`SqlnbError` when :func:`refusal` finds something."""
    why = refusal(fetch, schema, writing=writing)
    if why is not None:
        raise SqlnbError(why)


def lock(fetch: Fetch, schema: str) -> None:
    """Take the writers' lock of ``schema``'s models for this transaction (see the module's
    docstring): ``sqlnb_models`` itself where it exists and the role may write it, else an
    advisory lock on the schema's name."""
    models = f"pg_catalog.to_regclass(pg_catalog.quote_ident({literal(schema)}) || '.sqlnb_models')"
    (writable,) = fetch(
        f"SELECT {models} IS NOT NULL AND pg_catalog.has_table_privilege({models}, "
        "'UPDATE, DELETE, TRUNCATE')"
    )[0]
    if writable:
        table = '"' + schema.replace('"', '""') + '".sqlnb_models'
        fetch(f"LOCK TABLE {table} IN SHARE ROW EXCLUSIVE MODE")
    else:
        fetch(
            "SELECT pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext("
            + literal("sqlnb." + schema)
            + "))"
        )
