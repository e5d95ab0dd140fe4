"""Fast construction of frozen, slotted attrs values whose ``__init__`` only stores its arguments.

Generated from the class's own attrs fields: a full constructor (`trusted_constructor`, and
`fast_init` as the class's ``__init__``), an updater of some fields (`trusted_updater`), a
constructor from a few fields, the rest constant (`trusted_builder`), and a constructor from
groups of fields (`trusted_assembler`). How and why: docs/architecture.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, TypeVar

import attrs

__all__ = [
    "fast_init",
    "trusted_assembler",
    "trusted_builder",
    "trusted_constructor",
    "trusted_updater",
]

_T = TypeVar("_T")

# The slot in which attrs caches the hash of a ``cache_hash=True`` class (reset to None by its
# ``__init__``, filled by the first ``hash()``).
_HASH_CACHE = "_attrs_cached_hash"


class _Plan(NamedTuple):
    """What the generated code of a class needs, from its attrs fields."""

    params: list[str]  # the parameter list of attrs' __init__ (defaults named in `namespace`)
    aliases: list[str]  # the parameter names, in order
    stores: list[tuple[str, str]]  # (slot, expression): the stores, the hash cache last
    namespace: dict[str, Any]  # the defaults, by the names used in `params`


def trusted_constructor(cls: type[_T], *, retag: bool = True) -> Callable[..., _T]:
    """A function building `cls` from its fields, like ``cls(...)`` (steps 1-3 above).

    Same parameters as ``cls.__init__`` (positional or keyword, same names and plain defaults).

    Args:
        cls: A frozen, slotted attrs class whose ``__init__`` only stores its arguments.
        retag: Build through the builder subclass (the fast way); False, or a Python that refuses
            the class change, stores the slots through their member descriptors.

    Raises:
        TypeError: `cls` is not such a class (see the module docstring).

    Examples:
        >>> @attrs.frozen(slots=True, cache_hash=True)
        ... class Point:
        ...     x: int
        ...     y: int = 0
        >>> make = trusted_constructor(Point)
        >>> make(1, y=2) == Point(1, 2), hash(make(3)) == hash(Point(3)), make(3)
        (True, True, Point(x=3, y=0))
        >>> type(make(3)) is Point
        True
    """
    params, _, stores, namespace = _plan(cls)
    builder = _builder(cls) if retag else None
    namespace.update(_new=object.__new__, _cls=cls, _builder=builder)
    if builder is not None:
        body = [
            "    self = _new(_builder)",
            *(f"    self.{slot} = {value}" for slot, value in stores),
            "    self.__class__ = _cls",
        ]
    else:
        body = ["    self = _new(_cls)"]
        for k, (slot, value) in enumerate(stores):
            namespace[f"_set_{k}"] = vars(cls)[slot].__set__  # the slot's member descriptor
            body.append(f"    _set_{k}(self, {value})")
    name = f"trusted_{cls.__name__}"
    function: Callable[..., _T] = _compile(
        cls, name, [f"def {name}({', '.join(params)}):", *body, "    return self"], namespace
    )
    function.__doc__ = f"{cls.__name__}(...) without attrs' __init__, for the same value."
    return function


def trusted_updater(
    cls: type[_T],
    fields: tuple[str, ...],
    cleared: tuple[str, ...] = (),
    fixed: Mapping[str, object] | None = None,
) -> Callable[..., _T]:
    """A function ``update(old, /, *, <fields>)``: `old` with new values of `fields`, the rest kept.

    The fields are named by their ``__init__`` parameters (attrs' aliases) and passed by keyword
    only; every other field of the result is the very object `old` holds (the same identity),
    read from its slot; the fields in `cleared` are set to None and those in `fixed` to its value
    (the very object, in every result). Built like
    `trusted_constructor` (the builder subclass, or the member descriptors where Python refuses
    the class change).

    Raises:
        TypeError: `cls` is not a class `trusted_constructor` accepts, or a name in `fields` is
            not one of its ``__init__`` parameters, or is repeated (in `fields`, `cleared` and
            `fixed` together).

    Examples:
        >>> @attrs.frozen(slots=True, cache_hash=True)
        ... class Point:
        ...     x: tuple[int, ...]
        ...     y: int = 0
        >>> move_y = trusted_updater(Point, ("y",))
        >>> p = Point((1,), 2)
        >>> q = move_y(p, y=5)
        >>> q, q.x is p.x, hash(q) == hash(Point((1,), 5))
        (Point(x=(1,), y=5), True, True)
        >>> trusted_updater(Point, (), fixed={"y": 7})(p)
        Point(x=(1,), y=7)
    """
    name = f"update_{cls.__name__}_{'_'.join(fields) or 'nothing'}"
    function = _keyword_builder(cls, name, fields, cleared, fixed or {}, old=True)
    function.__doc__ = f"{cls.__name__} `old` with new {', '.join(fields) or 'nothing'}."
    return function


def trusted_builder(
    cls: type[_T],
    fields: tuple[str, ...],
    cleared: tuple[str, ...] = (),
    fixed: Mapping[str, object] | None = None,
) -> Callable[..., _T]:
    """A function ``build(*, <fields>)``: a new `cls` from `fields`, every other field constant.

    Like `trusted_updater` without the old value: `fields`, `cleared` and `fixed` together name
    every ``__init__`` parameter exactly once; the fields in `cleared` are None and those in
    `fixed` its value (the very object, in every result). A value with many constant fields is
    built with few keyword arguments, each of which costs a scan of the parameter names.

    Raises:
        TypeError: `cls` is not a class `trusted_constructor` accepts, or the names are not its
            ``__init__`` parameters, each exactly once.

    Examples:
        >>> @attrs.frozen(slots=True, cache_hash=True)
        ... class Point:
        ...     x: int
        ...     y: int
        ...     z: int | None
        >>> at_height = trusted_builder(Point, ("x",), cleared=("z",), fixed={"y": 7})
        >>> at_height(x=1), hash(at_height(x=1)) == hash(Point(1, 7, None))
        (Point(x=1, y=7, z=None), True)
    """
    aliases = _plan(cls).aliases
    named = (*fields, *cleared, *(fixed or {}))
    if sorted(named) != sorted(aliases):
        raise TypeError(f"{cls.__name__}: the fields must name each parameter once: {named}")
    name = f"build_{cls.__name__}_{'_'.join(fields) or 'constant'}"
    function = _keyword_builder(cls, name, fields, cleared, fixed or {}, old=False)
    function.__doc__ = f"A {cls.__name__} from {', '.join(fields) or 'nothing'}, the rest constant."
    return function


def _keyword_builder(
    cls: type[_T],
    name: str,
    fields: tuple[str, ...],
    cleared: tuple[str, ...],
    fixed: Mapping[str, object],
    *,
    old: bool,
) -> Callable[..., _T]:
    """The generated function of `trusted_updater` (with `old`) and `trusted_builder` (without).

    With `old`, its first, positional-only parameter, a field named nowhere keeps `old`'s
    value; without, the caller has checked that every field is given, cleared or fixed.
    """
    _, aliases, stores, namespace = _plan(cls)
    constants = dict(fixed)
    named = (*fields, *cleared, *constants)
    if len(set(named)) != len(named) or not set(named) <= set(aliases):
        raise TypeError(f"{cls.__name__}: not distinct __init__ parameters: {named}")
    given = set(fields)
    builder = _builder(cls)
    namespace.update(_new=object.__new__, _cls=cls, _builder=builder)
    for k, alias in enumerate(constants):
        namespace[f"_fixed_{k}"] = constants[alias]
    fixed_names = {alias: f"_fixed_{k}" for k, alias in enumerate(constants)}
    kept = [
        (
            slot,
            alias
            if alias in given
            else "None"
            if alias in cleared
            else fixed_names.get(alias, f"old.{slot}"),
        )
        for (slot, alias) in stores[: len(aliases)]
    ] + stores[len(aliases) :]
    if builder is not None:
        body = [
            "    self = _new(_builder)",
            *(f"    self.{slot} = {value}" for slot, value in kept),
            "    self.__class__ = _cls",
        ]
    else:  # pragma: no cover - CPython 3.11-3.13 allow the class change
        body = ["    self = _new(_cls)"]
        for k, (slot, value) in enumerate(kept):
            namespace[f"_set_{k}"] = vars(cls)[slot].__set__
            body.append(f"    _set_{k}(self, {value})")
    params = ", ".join([*(["old", "/"] if old else []), *(["*", *fields] if fields else [])])
    function: Callable[..., _T] = _compile(
        cls, name, [f"def {name}({params}):", *body, "    return self"], namespace
    )
    return function


def trusted_assembler(cls: type[_T], groups: tuple[tuple[str, ...], ...]) -> Callable[..., _T]:
    """A function building `cls` from groups of fields, one positional argument per group.

    A group of one field takes its value; a longer group takes a tuple of its values in the
    group's order (unpacked into the slots at once). The groups name every ``__init__``
    parameter exactly once.

    Raises:
        TypeError: `cls` is not a class `trusted_constructor` accepts, or `groups` does not
            name each of its ``__init__`` parameters exactly once.

    Examples:
        >>> @attrs.frozen(slots=True)
        ... class Point:
        ...     x: int
        ...     y: int
        ...     z: int
        >>> trusted_assembler(Point, (("z",), ("x", "y")))(3, (1, 2))
        Point(x=1, y=2, z=3)
    """
    _, aliases, stores, namespace = _plan(cls)
    named = [alias for group in groups for alias in group]
    if sorted(named) != sorted(aliases) or len(set(named)) != len(named):
        raise TypeError(f"{cls.__name__}: the groups must name each field once: {groups}")
    slot_of = {alias: slot for slot, alias in stores[: len(aliases)]}
    builder = _builder(cls)
    if builder is None:  # pragma: no cover - CPython 3.11-3.13 allow the class change
        build = trusted_constructor(cls, retag=False)

        def assemble(*values: Any) -> _T:
            kwargs: dict[str, Any] = {}
            for group, value in zip(groups, values, strict=True):
                kwargs.update(
                    zip(group, value, strict=True) if len(group) > 1 else [(group[0], value)]
                )
            return build(**kwargs)

        return assemble
    namespace.update(_new=object.__new__, _cls=cls, _builder=builder)
    params = [f"g{k}" for k in range(len(groups))]
    body = ["    self = _new(_builder)"]
    for param, group in zip(params, groups, strict=True):
        if len(group) == 1:
            body.append(f"    self.{slot_of[group[0]]} = {param}")
        else:
            body.append(f"    {', '.join(f'self.{slot_of[alias]}' for alias in group)} = {param}")
    body += [f"    self.{slot} = {value}" for slot, value in stores[len(aliases) :]]
    body.append("    self.__class__ = _cls")
    name = f"assemble_{cls.__name__}"
    function: Callable[..., _T] = _compile(
        cls, name, [f"def {name}({', '.join(params)}):", *body, "    return self"], namespace
    )
    function.__doc__ = f"{cls.__name__} from the groups of fields {groups}."
    return function


def fast_init(cls: type[Any]) -> Callable[..., None]:
    """An ``__init__`` for `cls` that stores like attrs' ``__init__``, faster (see above).

    Same signature, annotations, name and docstring as attrs' ``__init__`` of `cls`; an instance
    of a subclass of `cls` is passed on to that original ``__init__`` (its ``__wrapped__``, as
    `inspect.unwrap` finds it). If this Python refuses the class change, the original
    ``__init__`` itself is returned.

    Raises:
        TypeError: `cls` is not a class `trusted_constructor` accepts.

    Examples:
        >>> @attrs.frozen(slots=True)
        ... class Point:
        ...     x: int
        ...     y: int = 0
        >>> Point.__init__ = fast_init(Point)
        >>> Point(1, y=2), Point(3) == Point(x=3)
        (Point(x=1, y=2), True)
    """
    original = cls.__init__
    params, aliases, stores, namespace = _plan(cls)
    builder = _builder(cls)
    if builder is None:  # pragma: no cover - CPython 3.11-3.13 allow the class change
        return original  # type: ignore[no-any-return]
    keywords = ", ".join(f"{alias}={alias}" for alias in aliases)
    namespace.update(_cls=cls, _builder=builder, _original=original, _retag=object.__setattr__)
    source = [
        f"def __init__(self, {', '.join(params)}):",
        "    if type(self) is not _cls:  # a subclass: attrs' own __init__",
        f"        _original(self, {keywords})",
        "        return",
        "    _retag(self, '__class__', _builder)  # its frozen __setattr__ would refuse",
        *(f"    self.{slot} = {value}" for slot, value in stores),
        "    self.__class__ = _cls",
    ]
    init: Callable[..., None] = _compile(cls, "__init__", source, namespace)
    init.__qualname__ = original.__qualname__
    init.__doc__ = original.__doc__
    init.__annotations__ = dict(getattr(original, "__annotations__", {}))
    init.__wrapped__ = original  # type: ignore[attr-defined]  # `inspect.unwrap` finds attrs'
    return init


def _plan(cls: type[Any]) -> _Plan:
    """What the generated code of `cls` needs; TypeError if it would differ from attrs'."""
    if not attrs.has(cls) or "__slots__" not in vars(cls):
        raise TypeError(f"{cls.__name__} is not a slotted attrs class")
    for hook in ("__attrs_pre_init__", "__attrs_post_init__"):
        if hasattr(cls, hook):
            raise TypeError(f"{cls.__name__}.{hook} would not run in generated code")
    if cls.__new__ is not object.__new__:
        raise TypeError(f"{cls.__name__}.__new__ would not run in generated code")
    fields = attrs.fields(cls)
    names = {field.name for field in fields}
    extra = set(vars(cls)["__slots__"]) - names - {"__weakref__"}
    if extra - {_HASH_CACHE}:
        raise TypeError(f"{cls.__name__} has slots that are not fields: {sorted(extra)}")
    namespace: dict[str, Any] = {}
    params: list[str] = []
    keyword_only: list[str] = []
    aliases: list[str] = []
    stores: list[tuple[str, str]] = []
    for k, field in enumerate(fields):
        if (
            field.validator is not None
            or field.converter is not None
            or not field.init
            or isinstance(field.default, attrs.Factory)  # type: ignore[arg-type]
        ):
            raise TypeError(
                f"{cls.__name__}.{field.name} needs its validator, converter or default factory: "
                "generated code would skip it"
            )
        param = str(field.alias)
        if field.default is not attrs.NOTHING:
            namespace[f"_default_{k}"] = field.default
            param = f"{field.alias}=_default_{k}"
        (keyword_only if field.kw_only else params).append(param)
        aliases.append(str(field.alias))
        stores.append((field.name, str(field.alias)))
    if extra:
        stores.append((_HASH_CACHE, "None"))
    if keyword_only:
        params += ["*", *keyword_only]
    return _Plan(params, aliases, stores, namespace)


def _compile(cls: type[Any], name: str, lines: list[str], namespace: dict[str, Any]) -> Any:
    source = "\n".join(lines)
    exec(compile(source, f"<generated {name} of {cls.__qualname__}>", "exec"), namespace)
    return namespace[name]


def _builder(cls: type[Any]) -> type[Any] | None:
    """The mutable subclass of `cls` with its layout, or None if Python refuses the retagging."""
    builder = type(
        f"{cls.__name__}Builder",
        (cls,),
        {
            "__slots__": (),  # no slot of its own: the same layout as `cls`
            "__setattr__": object.__setattr__,  # both, or the frozen ones still run
            "__delattr__": object.__delattr__,
            "__module__": cls.__module__,
            "__doc__": f"Only inside the generated code of {cls.__name__}: never escapes.",
        },
    )
    probe: Any = object.__new__(builder)
    try:
        probe.__class__ = cls
    except TypeError:  # pragma: no cover - CPython 3.11-3.13 allow it
        return None
    return builder
