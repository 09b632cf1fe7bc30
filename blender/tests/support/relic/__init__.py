"""A stand-in for the `relic` Python package, for developing and testing the Blender add-on where the package is
not installed: the same signatures (`convert`, `pack`, `formats`, `open(...).info()`), each running the `relic`
command-line tool (`$RELIC_BIN`, else `relic` on PATH) with `--json`. Only the add-on's tests put it on the path
(`run_tests.py --shim`); the add-on itself only does `import relic`.
"""

import json
import os
import shutil
import subprocess
import warnings

__version__ = "shim"


class Error(Exception):
    """What the CLI printed when it failed (the real package's `relic.Error`, without a location)."""

    format = None
    field = None
    offset = None
    kind = "invalid"


class RelicWarning(UserWarning):
    pass


def _bin():
    found = os.environ.get("RELIC_BIN") or shutil.which("relic")
    if not found:
        raise Error("the relic shim needs $RELIC_BIN or `relic` on PATH")
    return found


def _run(args):
    done = subprocess.run([_bin(), *args], capture_output=True, text=True)
    for line in done.stderr.splitlines():
        if "warning" in line or "note" in line:
            warnings.warn(line, RelicWarning, stacklevel=3)
    if done.returncode != 0:
        raise Error(done.stderr.strip() or f"relic {args[0]} failed ({done.returncode})")
    return done.stdout


def formats():
    return json.loads(_run(["formats", "--json"]))


def convert(input, output_dir, to=None, force=False, textures=None, bones=None, anims=None, morph=None, options=None):
    args = ["convert", "--json", "-o", os.fspath(output_dir)]
    if to:
        args += ["--to", to]
    if force:
        args.append("--force")
    for flag, value in (("--textures", textures), ("--bones", bones), ("--anims", anims)):
        if value is not None:
            args += [flag, os.fspath(value)]
    if morph is not None:
        args += ["--morph", ",".join(str(float(m)) for m in morph)]
    for key, value in (options or {}).items():
        args += ["--option", f"{key}={value}"]
    inputs = [input] if isinstance(input, (str, os.PathLike)) else list(input)
    manifest = json.loads(_run(args + [os.fspath(i) for i in inputs]))
    return _written(manifest, os.fspath(output_dir))


def _written(manifest, output_dir):
    """The paths of a `convert --json` manifest, whatever its shape (a list of files or of inputs with files)."""
    found = []

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("path", "output") and isinstance(value, str):
                    found.append(value if os.path.isabs(value) else os.path.join(output_dir, value))
                else:
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(manifest)
    return found


def pack(format, input, output, force=False, version=None, pixel_format=None, mips=False, quantize=False):
    args = ["pack", format, "--json", "-o", os.fspath(output)]
    if force:
        args.append("--force")
    if version is not None:
        args += ["--version", hex(version)]
    if pixel_format:
        args += ["--pixel-format", pixel_format]
    if mips:
        args.append("--mips")
    if quantize:
        args.append("--quantize")
    return json.loads(_run(args + [os.fspath(input)]))


class File:
    def __init__(self, path):
        self.path = os.fspath(path)
        self.format = json.loads(_run(["identify", "--json", self.path]))[0]["format"]

    def info(self):
        return json.loads(_run(["info", "--json", self.path]))


def open(path):  # noqa: A001 (the package's name)
    return File(path)
