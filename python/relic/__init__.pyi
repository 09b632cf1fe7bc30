"""Type stubs of the `relic` package (see relic/__init__.py for the module's documentation)."""

import io
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

PathLike = Union[str, os.PathLike[str]]
Json = Any

__version__: str

class Error(Exception):
    """An error of relic. ``format``, ``field`` and ``offset`` say where in the file it is (None when the
    error is not about a place in a file); ``kind`` is ``"invalid"``, ``"limit"``, ``"unsupported"``,
    ``"refused"``, ``"io"`` or ``"too_deep"``."""

    kind: Optional[str]
    format: Optional[str]
    field: Optional[str]
    offset: Optional[int]

class InvalidData(Error):
    """The bytes do not follow the format (kind ``"invalid"``)."""

class LimitError(Error):
    """A size or count is over what the bytes or a sane bound allow (kind ``"limit"``): a truncated file."""

class Unsupported(Error):
    """Valid, but relic does not implement it (yet), or not a format relic knows (kind ``"unsupported"``)."""

class Refused(Error):
    """A request relic will not carry out: an existing output without ``force``, an unsafe path, a bad
    argument (kind ``"refused"``)."""

class ConvertFailed(Error):
    """Some inputs of :func:`convert` failed; the others were converted."""

    outputs: List[str]
    """The files written."""
    failures: List[Tuple[str, str]]
    """``(input, message)`` of each failure."""

class RelicWarning(UserWarning):
    """A note of a conversion (a texture not found, a default taken)."""

class Entry:
    """An archive entry as :meth:`File.entries` lists it."""

    @property
    def name(self) -> str:
        """The name as the archive stores it, decoded (``data\\texture\\x.bmp``)."""
    @property
    def path(self) -> str:
        """Where ``relic extract`` writes it, relative and ``/`` separated."""
    @property
    def size(self) -> int:
        """Its size once read (inflated, deciphered)."""
    @property
    def modified(self) -> Optional[int]:
        """Modification time in Unix seconds, when the archive stores one."""
    def read(self) -> bytes:
        """The entry's bytes (inflated, deciphered)."""
    def open(self) -> io.BytesIO:
        """The entry's bytes as a file-like object."""
    def open_file(self) -> File:
        """The entry opened as a :class:`File` of its own."""

class File:
    """A game file opened by relic (:func:`open`, :meth:`File.from_bytes`)."""

    @staticmethod
    def from_bytes(data: bytes, name: str = "", format: Optional[str] = None) -> File:
        """Bytes in memory named ``name`` (formats without magic are known by their name); ``format`` reads
        them as that format id."""
    @property
    def format(self) -> str:
        """The format id (``ro-rsm``, ``ei-res``, …)."""
    @property
    def name(self) -> str:
        """The path it was opened from, or the name it was given."""
    @property
    def is_archive(self) -> bool:
        """Whether it holds entries."""
    def bytes(self) -> bytes:
        """The file's bytes."""
    def info(self) -> Dict[str, Json]:
        """The header summary ``relic info`` prints."""
    def to_json(self) -> Dict[str, Json]:
        """The file's own data, losslessly (``relic convert --to json``); :func:`pack_json` writes it back."""
    def write_back(self) -> bytes:
        """The file made again from its own document."""
    def entries(self) -> List[Entry]:
        """An archive's entries in stored order (:class:`Unsupported` when it is not an archive)."""
    def read_entry(self, name: str) -> bytes:
        """The bytes of the entry stored as ``name`` (``\\`` and ``/`` alike, ASCII case ignored)."""
    def open_entry(self, name: str) -> File:
        """The entry stored as ``name`` opened as a file; converting it finds what it needs in this archive."""
    def to_png(
        self,
        *,
        textures: Optional[PathLike] = ...,
        palette: Optional[PathLike] = ...,
        mips: bool = ...,
        options: Optional[Dict[str, str]] = ...,
    ) -> bytes:
        """The file's image as PNG bytes (the first one, for a file of several)."""
    def to_wav(self) -> bytes:
        """The file's sound as WAV bytes (the first one, for a file of several)."""
    def to_glb(
        self,
        *,
        textures: Optional[PathLike] = ...,
        models: Optional[PathLike] = ...,
        palette: Optional[PathLike] = ...,
        bones: Optional[PathLike] = ...,
        anims: Optional[PathLike] = ...,
        morph: Optional[Sequence[float]] = ...,
        with_file: Optional[PathLike] = ...,
        options: Optional[Dict[str, str]] = ...,
    ) -> bytes:
        """The file's model or scene as binary glTF, with ``relic convert``'s options (``morph``: STR, DEX,
        HEIGHT, each 0..1; ``options``: ``--option`` values by key)."""
    def export(self, to: Optional[str] = None, **options: Any) -> List[Tuple[str, str, bytes]]:
        """Every output ``relic convert`` makes of this file: ``(path, kind, bytes)``."""
    def export_to(self, output_dir: PathLike, to: Optional[str] = None, force: bool = False, **options: Any) -> List[str]:
        """Writes :meth:`export`'s files into ``output_dir``; returns their paths."""

def formats() -> List[Dict[str, Any]]:
    """Every format relic knows, in the shape of ``relic formats --json``: ``id``, ``name``, ``game``,
    ``extensions``, ``kind``, ``capabilities``, ``notes``, ``targets``, ``packed_from``, ``options``, ``versions``,
    ``pixel_formats``."""

def identify(path_or_bytes: Union[PathLike, bytes, bytearray, memoryview], name: Optional[str] = None) -> Optional[str]:
    """The format id of a file or of bytes named ``name``, or None."""

def open(path: PathLike, format: Optional[str] = None) -> File:
    """Opens the file at ``path`` and identifies its format (or reads it as ``format``)."""

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
    """``relic convert``: converts files, folders and archives into ``output_dir``; returns the paths
    written. Notes are :class:`RelicWarning`; failures raise :class:`ConvertFailed` after the rest is done."""

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
    """``relic pack``: writes ``output`` as ``format`` from a folder, JSON, PNG, INI or glTF; returns
    ``{"output": str, "bytes": int, "notes": [str]}``."""

def pack_json(format: str, document: Dict[str, Json]) -> bytes:
    """The bytes of a file of ``format`` written from its document."""

def check(path: Union[PathLike, Sequence[PathLike]]) -> Dict[str, Any]:
    """``relic check --json``: every file read and written back, counted by outcome, with ``files``."""
