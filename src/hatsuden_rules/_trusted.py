"""Fast construction of frozen, slotted attrs values whose ``__init__`` only stores its arguments.

`apply` builds a new `GameState` on every move, and that used to be about half its cost; the
model checker also rebuilds every state it expands with ``GameState(...)``. A frozen class forbids
``self.x = v`` (its ``__setattr__`` raises), so attrs' ``__init__`` stores each of the 22 slots
through a call of ``object.__setattr__``, which is slow. This module generates, from the class's
own attrs field list, code that stores the same values the fast way, in plain Python:

1. The instance is (or temporarily becomes) a *builder*: a subclass of the class that adds no
   slot (so it has the very same memory layout) and takes back ``object``'s own ``__setattr__``
   and ``__delattr__``. For it, ``self.x = v`` is an ordinary slot store, which the interpreter
   specializes into a few machine instructions.
2. Every field is stored that way, and the attrs hash cache is reset to None as attrs does.
3. ``self.__class__ = cls`` turns the finished object into a plain instance of the frozen class
   (Python allows it between classes of the same layout); from then on it is indistinguishable
   from one built by attrs: same type, fields, ``==``, ``hash``, ``repr`` and pickle.

Two forms are generated:

- `trusted_constructor`: a function with the class's signature that creates the instance as a
  builder (a `GameState` in about a quarter of the time attrs' ``__init__`` takes). The engine
  builds its states with it (`_state.new_state`), and the decoded stacks and score sheets.
- `fast_init`: an ``__init__`` with the very signature and annotations of attrs' one, which turns
  ``self`` into a builder, stores, and turns it back (``GameState(...)`` about 1.7 times as fast
  with keyword arguments, where binding them dominates, and twice as fast positionally).
  `GameState` uses it, so ``GameState(...)`` behaves exactly as before: it never validated its
  fields (`_build` is the validating public constructor of arbitrary positions), and it still
  does not. An instance of a subclass is left to attrs' original ``__init__``.

The builder class never escapes the generated code. Should a Python version refuse the class
change, the code stores the slots through their member descriptors instead (slower, still faster
than attrs), or keeps attrs' ``__init__``.

Neither runs a validator or a converter, so both are only for classes that have none. That is why
they refuse, when they are generated (at import), any class whose fields have a validator, a
converter, a default factory or ``init=False``, or which has an attrs init hook, its own
``__new__``, or a slot attrs did not make for a field or for the hash cache: a class the generated
code would build differently from attrs fails loudly instead. A new plain field is picked up
automatically. `tests/test_trusted.py` checks the values against attrs' constructor on random
games (``==``, ``hash``, ``repr``, pickling, `attrs.evolve`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

import attrs

__all__ = ["fast_init", "trusted_constructor"]

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
