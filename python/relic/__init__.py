"""relic opens the asset files of classic games (Evil Islands, Ragnarok Online, Drakan, Dark Reign, FreeRCT),
converts them to the formats a modder opens next (PNG, WAV, glTF, JSON) and writes back the ones modders edit.

Start with :func:`open` (or :meth:`File.from_bytes`)::

    import relic
    grf = relic.open("samples/ragnarok/example.grf")
    for entry in grf.entries():
        print(entry.size, entry.name)
    png = grf.open_entry("data/texture/유저인터페이스/sample.bmp").to_png()

The batch operations of the command line are here too: :func:`convert`, :func:`pack`, :func:`check`.
Every call that reads, converts or writes releases the GIL while relic works, so threads run alongside it.
Errors are :class:`Error` (with ``format``, ``field``, ``offset`` and ``kind``) or one of its subclasses.
"""

from __future__ import annotations

import builtins
import os
import warnings
from typing import Any, Dict, List, Optional, Sequence, Union

from . import _relic
from ._relic import (
    Entry,
    Error,
    File,
    InvalidData,
    LimitError,
    Refused,
    Unsupported,
)

__version__: str = _relic.__version__

__all__ = [
    "__version__",
    "ConvertFailed",
    "Entry",
    "Error",
    "File",
    "InvalidData",
    "LimitError",
    "Refused",
    "RelicWarning",
    "Unsupported",
    "check",
    "convert",
    "formats",
    "identify",
    "open",
    "pack",
    "pack_json",
]

PathLike = Union[str, "os.PathLike[str]"]


class RelicWarning(UserWarning):
    """A note relic gives while converting (a texture not found, a default taken): what ``relic convert``
    prints as ``relic: warning: …``."""


class ConvertFailed(Error):
    """Some inputs of :func:`convert` failed (the others were still converted).

    ``outputs`` lists the files written, ``failures`` the ``(input, message)`` of each failure.
    """

    outputs: List[str]
    failures: List[tuple]

    def __init__(self, message: str, outputs: List[str], failures: List[tuple]):
        super().__init__(message)
        self.outputs = outputs
        self.failures = failures
        self.kind = "invalid"
        self.format = None
        self.field = None
        self.offset = None


def formats() -> List[Dict[str, Any]]:
    """Every format relic knows, as dicts in the shape of ``relic formats --json``: ``id``, ``name``, ``game``,
    ``extensions``, ``kind``, ``capabilities`` (``read``, ``convert``, ``write`` booleans), ``notes``, ``targets``
    (what ``convert(to=…)`` makes), ``packed_from`` (what :func:`pack` takes), ``options``, ``versions`` and
    ``pixel_formats`` (what ``pack`` chooses from)."""
    return _relic.formats()


def identify(path_or_bytes: Union[PathLike, bytes, bytearray, memoryview], name: Optional[str] = None) -> Optional[str]:
    """The format id of a file (a path) or of bytes (named ``name``: formats without magic are known by
    their name), or None when relic knows no format that matches.

    >>> identify("samples/ragnarok/pyramid.rsm")
    'ro-rsm'
    """
    if isinstance(path_or_bytes, (bytes, bytearray, memoryview)):
        return _relic.identify_bytes(path_or_bytes, name or "")
    if name is not None:
        with builtins.open(path_or_bytes, "rb") as f:
            return _relic.identify_bytes(f.read(), name)
    return _relic.identify_path(os.fspath(path_or_bytes))



def open(path: PathLike, format: Optional[str] = None) -> File:  # noqa: A001 (relic.open, as the Rust API)
    """Opens the file at ``path`` (memory-mapped) and identifies its format; ``format`` (an id from
    :func:`formats`) reads it as that format whatever its bytes say."""
    return _relic.open(os.fspath(path), format)


def _paths(inputs: Union[PathLike, Sequence[PathLike]]) -> List[str]:
    if isinstance(inputs, (str, os.PathLike)):
        return [os.fspath(inputs)]
    return [os.fspath(p) for p in inputs]


def convert(
    input: Union[PathLike, Sequence[PathLike]],
    output_dir: PathLike,
    to: Optional[str] = None,
    force: bool = False,
    textures: Optional[PathLike] = None,
    bones: Optional[PathLike] = None,
    anims: Optional[PathLike] = None,
    morph: Optional[Sequence[float]] = None,
    options: Optional[Dict[str, str]] = None,
    *,
    models: Optional[PathLike] = None,
    palette: Optional[PathLike] = None,
    mips: bool = False,
) -> List[str]:
    """Converts files, folders and archives into ``output_dir`` exactly as ``relic convert`` does, and
    returns the paths written.

    ``to`` picks the target (``png``, ``glb``, ``gltf``, ``json``, ``csv``…; each file's default when None);
    ``textures``, ``bones``, ``anims``, ``models``, ``palette``, ``morph`` (STR, DEX, HEIGHT, each 0..1) and
    ``options`` (``{"ro-act.head-direction": "1"}``) are the CLI's flags. Notes become :class:`RelicWarning`
    warnings; when an input fails, the others are still converted and :class:`ConvertFailed` is raised
    listing the failures and the files written.
    """
    kwargs: Dict[str, Any] = {
        "textures": textures,
        "bones": bones,
        "anims": anims,
        "models": models,
        "palette": palette,
        "morph": None if morph is None else [float(m) for m in morph],
        "options": options,
        "mips": mips,
    }
    kwargs = {k: (os.fspath(v) if isinstance(v, os.PathLike) else v) for k, v in kwargs.items() if v is not None}
    outputs, failures, notes = _relic.convert(_paths(input), os.fspath(output_dir), to, force, **kwargs)
    for note in notes:
        warnings.warn(note, RelicWarning, stacklevel=2)
    if failures:
        lines = "; ".join(f"{i}: {m}" if i else m for i, m in failures)
        raise ConvertFailed(f"{len(failures)} failed: {lines}", outputs, failures)
    return outputs


def pack(
    format: str,
    input: PathLike,
    output: PathLike,
    force: bool = False,
    version: Optional[int] = None,
    pixel_format: Optional[str] = None,
    mips: bool = False,
    quantize: bool = False,
) -> Dict[str, Any]:
    """Writes ``output`` as ``format`` from ``input`` exactly as ``relic pack`` does: a folder (archives),
    the JSON of ``convert(to="json")``, a PNG (images), an INI, or a glTF/GLB (models: ``ei-res``,
    ``ro-rsm``, ``drakan-srsc``; an Evil Islands figure writes its ``.bon``, ``.anm`` and ``.mmp`` beside the
    output). Returns ``{"output": path, "bytes": the output's own size, "companions": [{"output": str, "bytes": int}]
    (the files written beside it, each with its size), "notes": [str]}``.

    ``version`` is the version to write (``0x203`` for an RSM, ``0x300`` for a GRF…), ``pixel_format`` and
    ``mips`` are for images, ``quantize`` maps colours a palette lacks to the nearest. An existing output is
    refused (:class:`Refused`) unless ``force``.
    """
    return _relic.pack(format, os.fspath(input), os.fspath(output), force, version, pixel_format, mips, quantize)


def pack_json(format: str, document: Dict[str, Any]) -> bytes:
    """The bytes of a file of ``format`` written from its document (a dict as :meth:`File.to_json` gives
    it, edited or not); an unedited document gives back the file's bytes exactly."""
    return _relic.pack_json(format, document)


def check(path: Union[PathLike, Sequence[PathLike]]) -> Dict[str, Any]:
    """Reads every file under ``path`` (folders are walked), writes each back and compares: what
    ``relic check --json`` prints, ``{"identical": n, "differs": n, "failed": n, "read": n, "unknown": n,
    "files": [{"path", "format", "outcome", "detail"?, "warnings"?}]}``."""
    return _relic.check(_paths(path))
