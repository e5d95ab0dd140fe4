"""Trusted constructors: build a frozen, slotted attrs value from fields known to be right.

`apply` builds a new `GameState` on every move, and that used to be about half its cost: a
frozen class forbids ``self.x = v`` (its ``__setattr__`` raises), so attrs' ``__init__`` stores
each of the 22 slots through a call of ``object.__setattr__``, which is slow. `trusted_constructor`
generates, from the class's own attrs field list, a function with the same signature that builds
the same value about five times faster, in plain Python:

1. The instance is created as a `Builder`: a subclass of the class that adds no slot (so it has
   the very same memory layout) and takes back ``object``'s own ``__setattr__`` and
   ``__delattr__``. For it, ``self.x = v`` is an ordinary slot store, which the interpreter
   specializes into a few machine instructions.
2. Every field is stored that way, and the attrs hash cache is reset to None as attrs does.
3. ``self.__class__ = cls`` turns the finished object into a plain instance of the frozen class
   (Python allows it between classes of the same layout); from then on it is indistinguishable
   from one built by ``cls(...)``: same type, fields, ``==``, ``hash``, ``repr`` and pickle.

The builder class never escapes the generated function. Should a Python version refuse the
class change, the function stores the slots through their member descriptors instead
(``descriptor.__set__(self, value)``: slower, still about 40% faster than attrs).

It runs no validator and no converter, so it is only for values derived from values already
valid (the engine's own transitions). That is why it refuses, when it is generated (at import),
any class whose fields have a validator, a converter, a default factory or ``init=False``, or
which has an attrs init hook, its own ``__new__``, or a slot attrs did not make for a field or
for the hash cache: a class the generated code would build differently from its own ``__init__``
fails loudly instead. A new plain field is picked up automatically. `tests/test_trusted.py`
checks the values against the public constructor on random games (``==``, ``hash``, ``repr``,
pickling, `attrs.evolve`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import attrs

__all__ = ["trusted_constructor"]

_T = TypeVar("_T")

# The slot in which attrs caches the hash of a ``cache_hash=True`` class (reset to None by its
# ``__init__``, filled by the first ``hash()``).
_HASH_CACHE = "_attrs_cached_hash"


def trusted_constructor(cls: type[_T], *, retag: bool = True) -> Callable[..., _T]:
    """A function building `cls` from its fields, like ``cls(...)`` but without validation.

    Same parameters as ``cls.__init__`` (positional or keyword, same names and plain defaults).

    Args:
        cls: A frozen, slotted attrs class whose ``__init__`` only stores its arguments.
        retag: Build through the mutable builder subclass and change the class at the end (the
            fast way); False, or a Python that refuses the class change, stores the slots
            through their member descriptors.

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
    if not attrs.has(cls) or "__slots__" not in vars(cls):
        raise TypeError(f"{cls.__name__} is not a slotted attrs class")
    for hook in ("__attrs_pre_init__", "__attrs_post_init__"):
        if hasattr(cls, hook):
            raise TypeError(f"{cls.__name__}.{hook} would not run in a trusted constructor")
    if cls.__new__ is not object.__new__:
        raise TypeError(f"{cls.__name__}.__new__ would not run in a trusted constructor")
    fields = attrs.fields(cls)
    names = {field.name for field in fields}
    extra = set(vars(cls)["__slots__"]) - names - {"__weakref__"}
    if extra - {_HASH_CACHE}:
        raise TypeError(f"{cls.__name__} has slots that are not fields: {sorted(extra)}")
    builder = _builder(cls) if retag else None
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_builder": builder}
    params: list[str] = []
    keyword_only: list[str] = []
    stores: list[tuple[str, str]] = []  # (slot, expression)
    for k, field in enumerate(fields):
        if (
            field.validator is not None
            or field.converter is not None
            or not field.init
            or isinstance(field.default, attrs.Factory)  # type: ignore[arg-type]
        ):
            raise TypeError(
                f"{cls.__name__}.{field.name} needs its validator, converter or default factory: "
                "a trusted constructor would skip it"
            )
        param = field.alias
        if field.default is not attrs.NOTHING:
            namespace[f"_default_{k}"] = field.default
            param = f"{field.alias}=_default_{k}"
        (keyword_only if field.kw_only else params).append(param)
        stores.append((field.name, field.alias))
    if extra:
        stores.append((_HASH_CACHE, "None"))
    if keyword_only:
        params += ["*", *keyword_only]
    if builder is not None:  # step 1-3 of the module docstring
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
    source = "\n".join(
        [f"def trusted_{cls.__name__}({', '.join(params)}):", *body, "    return self"]
    )
    exec(compile(source, f"<trusted constructor of {cls.__qualname__}>", "exec"), namespace)
    function: Callable[..., _T] = namespace[f"trusted_{cls.__name__}"]
    function.__doc__ = f"{cls.__name__}(...) without validation, for values known to be valid."
    return function


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
            "__doc__": f"Only inside the trusted constructor of {cls.__name__}: never escapes.",
        },
    )
    probe: Any = object.__new__(builder)
    try:
        probe.__class__ = cls
    except TypeError:  # pragma: no cover - CPython 3.11-3.13 allow it
        return None
    return builder
